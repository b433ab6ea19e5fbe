"""Redirections, ``exec``, named descriptors, process substitution, pipelines and the reporting
builtins (``type``/``hash``/``wait``/``umask``/``times``): differential tests against bash 5.2
(stdout, status and the files left behind; a few stderr messages too, byte for byte), seeded generated scripts over the descriptor table, and guard tests:
``exec`` with redirections can't reach past read-only mode or protected paths, ``>(cmd)``
bodies are checked, ``exec CMD`` stays refused by default.
"""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402
from sandbox import Policy  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

CASES = [
    'exec 3>out.txt; echo one >&3; echo two >&3; exec 3>&-; cat out.txt',
    'exec >log.txt 2>&1; echo hi; ls nope; exec >&-; true',
    'exec {fd}>f.txt; echo "fd=$fd"; echo data >&$fd; exec {fd}>&-; cat f.txt',
    'exec {a}>x1 {b}>x2; echo $a $b; echo A >&$a; echo B >&$b; cat x1 x2',
    'exec 3<a.txt; read -r l <&3; echo "$l"; read -r l <&3; echo "$l"; cat <&3',
    'exec <a.txt; read x; echo $x; cat',
    'exec 4>&1; echo via4 >&4; exec 4>&-; echo via4 >&4; echo st=$?',
    'exec 5>f.txt; exec 6>&5-; echo x >&5; echo st=$?; echo y >&6; cat f.txt',
    'echo first > rw.txt; exec 8<>rw.txt; read line <&8; echo line=$line; echo second >&8; cat rw.txt',
    '{ echo a; echo b >&2; } 2>&1 >/dev/null | cat',
    'f() { echo in f; echo err >&2; }; f 2>e.txt >o.txt; cat o.txt e.txt',
    'f() { echo in f; } > fo.txt; f; f; cat fo.txt',
    'while read l; do echo "[$l]"; done <<< "x y"',
    'x=$(<a.txt); echo "$x"',
    'echo $(< nope.txt); echo st=$?',
    'set -C; echo a > a.txt; echo st=$?; echo b >| a.txt; cat a.txt; echo c >> a.txt; cat a.txt',
    'set -C; echo a > /dev/null; echo st=$?',
    'set -o noclobber; echo x > new.txt; cat new.txt; echo y > new.txt; echo $?',
    'cat < nope.txt; echo st=$?',
    'echo hi > dir; echo st=$?',
    'echo hi 2>/dev/null >&3; echo st=$?',
    ": > ''; echo st=$?",
    'echo {myvar}>/dev/stdout; echo "myvar=$myvar"',
    'echo hi 3>&1 >&3',
    '{ exec 3>g.txt; } ; echo to3 >&3; cat g.txt',
    '{ exec >h.txt; } 2>/dev/null; echo gone; cat h.txt >&2',
    '( exec >i.txt; echo inside ); echo outside; cat i.txt',
    'exec 2>/dev/null; ls nope; echo st=$?',
    'echo x | { exec 3<&0; cat <&3; }',
    'for i in 1 2; do echo $i; done > loop.txt; cat loop.txt',
    'if true; then echo y; fi >> a.txt; cat a.txt',
    "diff <(printf 'a\\nb\\n') <(printf 'a\\nc\\n'); echo st=$?",
    'paste <(seq 3) <(seq 4 6)',
    'exec 3>&1; f() { echo hi >&3; }; f >/dev/null',
    'echo 1 2>&1- 2>/dev/null; echo st=$?',
    'exec 7>&-; echo st=$?',
    'echo x >&7; echo st=$?',
    'echo x 1>&2-; echo st=$?; echo after',
    'wait; echo $?; wait -n; echo $?; wait 123; echo $?; wait %1; echo $?; wait abc; echo $?; wait -x; echo $?',
    'umask; umask -S; umask -p; umask -pS; umask 077; umask; umask -S; umask u=rwx,g=rx; umask; umask 999; echo $?; umask g+w; umask; umask a-x; umask; umask -x; echo $?',
    'umask o=; umask -S; umask 0; umask -S; umask ug=r,o+w; umask; umask u+t; echo $?; umask 8; echo $?; umask u; echo $?; umask =r; umask; umask +x; umask; umask -S 077; umask -p 022; umask 07777; echo $?',
    '(umask 077; umask); umask',
    'hash; echo st=$?; hash -t ls; echo st=$?; ls >/dev/null; cat /dev/null; ls >/dev/null; hash; hash -t ls cat; hash -t ls; hash -l',
    'hash -d nope; echo $?; hash -r x; echo $?; hash; hash -y; echo $?; hash -t; echo $?',
    'hash echo; echo $?; hash; f(){ :; }; hash f; echo $?; hash cd; echo $?; hash; hash ./x; echo $?; hash',
    'ls >/dev/null; type ls; command -V ls; type -p ls; type -P ls; command -v ls; type -t f ls nope; echo $?',
    'f(){ :; }; type -t f; type -p f; echo $?; type -P f; echo $?; type -ft f; echo $?',
    'ls | cat >/dev/null; hash',
    'return; echo st=$?',
    'f() { return 300; }; f; echo $?',
    'exit 256',
    'exit 257',
    'exit -1',
    '(exit 300); echo $?',
    'shopt -s lastpipe; echo hi | read line; echo "line=$line"',
    'shopt -s lastpipe; i=0; seq 3 | while read l; do i=$((i+1)); done; echo i=$i',
    'shopt -s lastpipe; echo x | exit 3; echo after',
    'echo ${PIPESTATUS[@]}; { false; }; echo ${PIPESTATUS[@]}; if false; then :; fi; echo ${PIPESTATUS[@]}; true | false | true; echo ${PIPESTATUS[@]}; while false; do :; done; echo ${PIPESTATUS[@]}; (exit 3); echo ${PIPESTATUS[@]}',
    'x=1; echo ${PIPESTATUS[@]}; ! true; echo ${PIPESTATUS[@]}; for i in 1; do true | false; done; echo ${PIPESTATUS[@]}; { true | false; }; echo ${PIPESTATUS[@]};  if true | false; then :; else echo ${PIPESTATUS[@]}; fi; a=$(exit 5); echo ${PIPESTATUS[@]}',
    '[[ x == y ]]; echo ${PIPESTATUS[@]}; (( 0 )); echo ${PIPESTATUS[@]}; case a in b) ;; esac; echo ${PIPESTATUS[@]};  for i in 1 2; do false | true; done | cat; echo ${PIPESTATUS[@]}',
    'f() { true | false; }; f; echo ${PIPESTATUS[@]}; ! true | false; echo ${PIPESTATUS[@]}; case a in a) true|false;; esac; echo ${PIPESTATUS[@]}; false; for i in; do :; done; echo ${PIPESTATUS[@]}',
    'cat <<A; cat <<B\none\nA\ntwo\nB',
    'f() { cat; }; f <<EOF\nin func $((1+2))\nEOF',
    'while read -r a b; do echo "$b-$a"; done <<EOF\n1 2\n3 4\nEOF',
    'if cat <<X; then echo ok; fi\nbody\nX',
    'x=$(cat <<EOF\ninside\nEOF\n); echo "[$x]"',
    'cat <<< "$(echo hi)" | tr h H',
    'tr a-z A-Z <<< hello > up.txt; cat up.txt',
    '{ cat; } <<< group',
    'echo $(< a.txt wc -l)',
    'read -r first < a.txt; echo $first',
    'exec 3< a.txt; while read -r -u 3 l; do echo "got $l"; done',
    'exec 3< a.txt; read -u 3 x; echo $x; read -u 3 y; echo $y; exec 3<&-; read -u 3 z; echo st=$?',
    'echo hi > *.txt; echo st=$?',
    'echo hi > a*.txt; echo st=$?; cat a.txt',
    'echo hi > nomatch*; echo st=$?; ls',
    'shopt -s nullglob; echo hi > nomatch*; echo st=$?',
    'x=\'a b\'; echo hi > $x; echo st=$?; echo hi > "$x"; cat "a b"',
    'x=; echo hi > $x; echo st=$?',
    'echo {a,b}; echo hi > {a,b}.out; echo st=$?',
    'echo hi 1>&2 2>/dev/null',
    'f() { echo one; echo two >&2; }; f 2>&1 | wc -l',
    'f() { echo one; } 2>/dev/null; f 3>&1',
    'while read x; do echo "<$x>"; done < a.txt > w.txt; cat w.txt',
    'echo 1 >o.txt 2>&1 3>&1; cat o.txt',
    'cat < a.txt > b2.txt; cat b2.txt',
    'echo before; : > empty2.txt; ls -l empty2.txt | wc -l',
    'echo x >> n1.txt >> n2.txt; cat n1.txt; cat n2.txt',
    'echo x > o1.txt > o2.txt; cat o1.txt; echo =; cat o2.txt',
    'cat 0< a.txt',
    'echo hi >&2 2>&1',
    '{ echo a; echo b; } > g.txt; cat g.txt',
    'for f in a.txt b.txt; do wc -l < $f; done',
    'case x in x) echo in case;; esac > c.txt; cat c.txt',
    '[[ -f a.txt ]] > d.txt; echo $?; cat d.txt',
    '(( 1 + 1 )) > d.txt; echo $?',
    'echo "$(echo hi 2>&1 >/dev/null)"',
    'out=$(ls nope 2>&1); echo "[$out]"',
    'x=$(echo err >&2) 2>/dev/null; echo "[$x]"',
    'echo hi 2>&-; echo st=$?',
    'cat a.txt >&-; echo st=$?',
    'ls nope 2>&-; echo st=$?',
    'read x <&-; echo st=$?',
    'cat <&-; echo st=$?',
    "printf '%s\\n' a b >&-; echo st=$?",
    'exec 3>&-; exec 3<&-; echo ok',
    'echo hi 10>&1 11>&10 >&11',
    'exec 100>x.txt; echo hi >&100; cat x.txt',
    'echo x 1>&99999; echo st=$?',
    'echo hi > /dev/stderr 2>/dev/null; echo st=$?',
    'echo hi >/dev/stdout',
    "cat /dev/stdin <<< 'from stdin'",
    "cat - <<< 'dash'",
    'exec 3<<EOF\nhere in 3\nEOF\ncat <&3',
    'exec 4<<< "herestring 4"; read -r l <&4; echo "$l"',
    "cat <<'E' > q.txt\n$x `y` \\z\nE\ncat q.txt",
    'cat <<-E\n\ttab stripped\n\tE',
    'x=5; cat <<E\nx=$x $((x*2)) $(echo sub) \\$x\nE',
    'if true; then cat; fi <<< "if-input"',
    'f() { read -r a; echo "f got $a"; }; f <<< "fin"',
    'echo $(cat <<< inner)',
    'v=$(cat <<EOF\nmulti\nline\nEOF\n); echo "$v"',
    'cat <<A <<B\nfirst\nA\nsecond\nB',
    'echo hi | { read x; echo "got $x"; } 2>/dev/null',
    'echo | ls nope 2>&1 | wc -l',
    'ls nope |& wc -l',
    '{ ls nope; } |& cat',
    'true | false; echo ${PIPESTATUS[@]} $?',
    'set -o pipefail; false | true; echo $?; true | false | true; echo $?',
    '! false | false; echo $?',
    'f() { return 3; }; f | f; echo ${PIPESTATUS[@]}',
    'echo hi | (cat; exit 4); echo ${PIPESTATUS[@]}',
    'seq 1 5 | head -2; echo ${PIPESTATUS[@]}',
    'seq 1 100000 | head -1; echo ${PIPESTATUS[@]}',
    'x=0; echo a | while read l; do x=1; done; echo $x',
    'shopt -s lastpipe; echo a b | read x y; echo "$x|$y"; echo ${PIPESTATUS[@]}',
    'shopt -s lastpipe; set -o pipefail; false | read x; echo $?',
    'shopt -s lastpipe; f() { local v; echo in | read v; echo "f:$v"; }; f',
    'exec 2>&-; echo hi > /nonexist/x; echo st=$?; ls nope; echo st=$?; cd /nope; echo st=$?',
    'exec 1>&-; echo hi; echo st=$? >&2',
    'exec 0<&-; read x; echo st=$?; cat; echo st=$?',
    '{ echo a; } 1>&-; echo st=$?',
    'exec 3>&1 1>&-; echo gone; echo st=$? >&3',
    'f() { echo "f:$1"; }; exec {fd}>&1; f x >&$fd; exec {fd}>&-; f y >&$fd; echo st=$?',
    'exec {fd}<a.txt; mapfile -t -u $fd arr; echo "${#arr[@]} ${arr[0]}"',
    "exec {o}>out.txt; printf '%s\\n' a b c >&$o; exec {o}>&-; wc -l < out.txt",
    'echo "$(exec 3>&1; echo in sub >&3)"',
    'exec 3>&1; x=$(echo to3 >&3); echo "x=[$x]"',
    'exec 5>log.txt; for i in 1 2 3; do echo "line $i" >&5; done; exec 5>&-; cat log.txt',
    'exec 3>x.txt; echo a >&3; cat x.txt; echo b >&3; cat x.txt',
    'exec 3>>x.txt; echo a >&3; exec 4>>x.txt; echo b >&4; echo c >&3; cat x.txt',
    'exec 3>x.txt 4>&3; echo a >&3; echo b >&4; cat x.txt',
    'exec 3<>rw.txt; echo hello >&3; cat rw.txt; read -r l <&3; echo "l=[$l]"',
    'printf \'line1\\nline2\\n\' > rw.txt; exec 3<>rw.txt; read -r l <&3; echo "[$l]"; echo XX >&3; cat rw.txt',
    'cat <> a.txt',
    'echo new <> new.txt; cat new.txt',
    'set -C; exec 3>a.txt; echo st=$?; exec 3>|a.txt; echo st=$?; echo z >&3; cat a.txt',
    'set -C; echo x &> a.txt; echo st=$?; echo y &>> a.txt; cat a.txt',
    'set -C; echo x > f.txt; echo st=$?; echo y > f.txt; echo st=$?; cat f.txt',
    'set -o noclobber; : > dir/x.txt; echo $?; : >| dir/x.txt; echo $?',
    'echo {fd}>/dev/null; echo ${fd:+set}',
    'readonly fd=1; exec {fd}>/dev/null; echo st=$?',
    'exec {fd}>/dev/null {fd2}>&$fd; echo $((fd2 - fd))',
    'type exec wait umask times hash; type -t exec',
    'command -v wait umask hash times exec',
    'umask 027; (umask); umask 0022 && umask',
    'umask -p; umask -S; umask -pS',
    'umask u=rw,g=r,o=; umask; umask a=rwx; umask; umask ugo-w; umask',
    'umask go=; umask -S',
    'wait; wait; echo $?',
    '>out.txt echo hi; cat out.txt',
    'f() { echo "in f $1"; } >> fa.txt; f 1; f 2; cat fa.txt',
    'f() { echo one; echo two >&2; } 2>&1; f | wc -l',
    'f() { local n=$1; echo $n; } > "f$1.txt"; f 9; ls f*.txt',
    'f() ( echo sub ) > fs.txt; f; cat fs.txt',
    'for i in 1 2; do echo $i; done 2>&1 >fl.txt | cat; cat fl.txt',
    'i=0; while (( i < 3 )); do echo $i; i=$((i+1)); done > wl.txt; cat wl.txt',
    'until true; do :; done > u.txt; echo $?; cat u.txt',
    'if true; then echo a; else echo b; fi 2> /dev/null > if.txt; cat if.txt',
    'case a in a) echo x ;; esac 2>&1 | tr x y',
    '{ echo a; } > /nonexist/dir/x; echo st=$?',
    'f() { echo hi; } > /nonexist/x; f; echo st=$?',
    'while false; do :; done < nope.txt; echo st=$?',
    '( echo sub ) < nope.txt; echo st=$?',
    '{ cat; } < a.txt',
    'for i in 1; do cat; done < a.txt',
    'while read -r l; do echo "$l"; done < a.txt | sort -r',
    'x=1 > xx.txt; echo "$x"; ls xx.txt',
    'f() { cat; }; f < a.txt | head -1',
    'echo hi >&- 2>/dev/null; echo st=$?',
    'g() { echo "g1"; }; h() { g; g; } >> gh.txt; h; h; cat gh.txt',
    'echo a >f1; echo b >f2; cat f*; echo hi > f*; echo st=$?',
    'echo hi > "f*"; cat "f*"',
    "v='*.md'; echo hi > $v; echo st=$?; cat notes.md",
    "v='x y'; echo hi >$v; echo st=$?",
    'v=\'\'; echo hi >"$v"; echo st=$?',
    'echo hi > a{1,2}; echo st=$?',
    'echo hi > {one}; cat {one}',
    'echo hi > a{1..1}; echo st=$?; ls a1 2>/dev/null',
    'echo hi > $(echo s.txt); cat s.txt',
    'echo hi > "$(echo \'s t.txt\')"; cat \'s t.txt\'',
    "set -f; echo hi > *.x; ls '*.x'",
    'shopt -s nullglob; echo hi > *.nothing; echo st=$?',
    'cat <(echo a) <(echo b) <(echo c); echo <(:) <(:)',
    'echo <(true); echo <(true)',
    'f() { echo "arg=$1"; cat "$1"; }; f <(echo inner)',
    'x=$(cat <(echo sub)); echo $x',
    'exec 3< <(echo fromps); cat <&3',
    'wc -l < <(seq 5)',
    'x=<(echo a); echo $x',
    'hash ls cat grep sed awk sort head tail wc tr cut; hash; hash -l',
    'ls >/dev/null; ls >/dev/null; cat /dev/null; hash; hash -r; hash',
    'set -e; exec 3</nope; echo after',
    'exec 3</nope || echo handled; echo after',
    'exit 1 2; echo after $?',
    'exit abc; echo after',
    'f() { return abc; }; f; echo $?',
    'f() { return 1 2; }; f; echo $?',
    'f() { return -1; }; f; echo $?',
    'f() { return 99999999999; }; f; echo $?',
    '(exit 99999999999); echo $?',
    'f() { false; return; }; f; echo $?',
    'false; exit',
    'true | exit 5; echo $?',
    'set -o pipefail; (exit 3) | (exit 4) | true; echo $?',
    'echo > /nonexist/a; echo $?; { echo; } > /nonexist/b; echo $?',
    'x=$(exit 7); echo $?; x=$(exit 7) y=2; echo $?',
    '! (exit 3); echo $?',
    'if (exit 4); then :; else echo "else $?"; fi',
    'while (exit 2); do :; done; echo $?',
    'f() { (exit 9); }; f; echo $?',
    ': $(exit 5); echo $?',
    'for i in 1 2; do continue 1 2; done; echo next $?',
    'shift 1 2; echo next',
    'return 1 2; echo next',
    'continue 1 2; echo next $?',
    'rm -f myfile; test -f myfile; echo status=$?; >myfile; test -f myfile; echo status=$?',
    '>out.txt for i in 1 2; do echo $i; done; echo st=$?',
    '>out.txt { echo hi; }; echo st=$?',
    '>out.txt (echo sub); echo st=$?',
    'FOO=foo >out.txt BAR=bar printenv FOO BAR; cat out.txt',
    'echo a >out.txt b c; cat out.txt',
    'FOO=$(echo foo 1>&2); echo "[$FOO]"',
    'touch 10; exec 10>&1; echo should-not-be-on-disk >& 1*; cat 10 | wc -c',
    'cat <<EOF | wc -l > count.txt; cat count.txt\na\nb\nEOF',
    'exec {fd}>&1; echo one >&$fd; exec {fd}>&-; echo "closed $fd"',
    '( echo sub; echo err >&2 ) 2>&1 > sub.txt; cat sub.txt',
    'echo hi 1>&2 | wc -c',
    'echo $(echo a; echo b >&2) 2>/dev/null',
    'f() { echo fout; }; x=$(f 2>&1 >/dev/null); echo "[$x]"',
    'echo \'a b\' > "x y.txt"; cat x\\ y.txt',
    'i=0; while read line; do i=$((i+1)); done < a.txt; echo $i',
    'cat <&0 <<< abc',
    'cat 0<&3 3<a.txt',
    'cat 3<a.txt <&3',
    'echo hi >&1 >&2 2>/dev/null | wc -c',
    '{ echo out; echo err >&2; } > both.txt 2>&1; cat both.txt',
    '{ echo out; echo err >&2; } 2>&1 > one.txt | tr a-z A-Z; cat one.txt',
    'exec 3>&1; { echo to-stdout >&3; } > /dev/null',
    'echo x | tee /dev/stderr 2>/dev/null | wc -c',
    'echo hi > /dev/fd/1',
    'echo hi 2>/dev/null > /dev/fd/2 | wc -c',
    'exec 3>x.txt; echo via-devfd > /dev/fd/3; cat x.txt',
    'time true; echo $?',
    'time -p false; echo $?',
    '! time false; echo $?',
    'time ! true; echo $?',
    'set -e; time { false; echo hi; }; echo after',
    'time seq 3 | wc -l',
    'time; echo st=$?',
    'x=$(time echo a 2>/dev/null); echo "[$x]"',
    'time=3; echo $time; echo time',
    'f() { time echo f; }; f 2>/dev/null',
    'TIMEFORMAT=; time true 2>&1',
    'TIMEFORMAT="%%"; { time true; } 2>&1',
    'if time true; then echo y; fi 2>/dev/null',
    'type time; type -t time',
    'echo hi 99999999999999999999>&1; echo st=$?; echo hi >&99999999999999999999; echo st=$?; echo hi 255>&1; echo st=$?; exec 1023>&1; echo st=$?; echo x >&1023; exec 1023>&-; echo hi 0999>&1',
    'exec {fd}<<<"text"; cat <&$fd',
    'exec {fd}<<EOF\nheredoc via fd\nEOF\ncat <&$fd',
    'exec 3>&1; ls dir | grep x >&3',
    'exec 3>out.txt; ( echo sub >&3 ); { echo grp >&3; }; echo pipe | cat >&3; cat out.txt',
    'f() { echo "$1" >&3; }; exec 3>f.txt; f a; f b; exec 3>&-; cat f.txt',
    'exec 3>&1 4>&2 >log.txt 2>&1; echo hidden; ls nope; exec 1>&3 2>&4 3>&- 4>&-; echo visible; cat log.txt',
    'exec 6<&0 <a.txt; read l; exec 0<&6 6<&-; echo "$l"; cat <<< restored',
    'while read -r -u 9 line; do echo "$line"; done 9< a.txt',
    '{ read -r a; read -r b; } < a.txt; echo "$a/$b"',
    'exec 3<a.txt; { read -r x <&3; read -r y <&3; }; echo "$x $y"',
    'cat <<EOF 3>&1 >&2 2>&3 | wc -l\nswap\nEOF',
    'exec 3>f; exec 4>f; echo aaaa >&3; echo b >&4; cat f; echo c >&3; cat f; echo x > g; { echo 12345; echo y > g; echo Z; } > g; cat g; exec 5>h; echo one >&5; : > h; echo two >&5; od -c h',
    "exec 12>a.txt; exec {v}>a.txt; echo '' >&$v; (exec 12>a.txt; echo sub >&12); echo alpha >&12; cat a.txt",
]


@needs_bash
@pytest.mark.parametrize("script", CASES, ids=[f"c{i:03d}" for i in range(len(CASES))])
def test_same_as_bash(script: str) -> None:
    problem = dt.compare(script)
    assert problem is None, problem


#: Scripts whose stderr is compared too.
STDERR_CASES = [
    "cat < nope.txt",
    "echo hi > dir",
    "echo x >&7",
    "exec 3<nope.txt; echo st=$?",
    "echo 1 2>&1-",
    "exec 7>f; : 6>&7-; echo x >&7",
    "set -C; echo a > a.txt",
    "wait 12; wait %2; wait abc; wait -q",
    "umask 8; umask u+t; umask -z",
    "hash -y; hash nope; hash -t ls",
    "type nope; type -z",
    ": > ''",
    "return",
    "x=(1 2); echo hi > $x.out; f='a b'; echo hi > $f",
]


@needs_bash
@pytest.mark.parametrize("script", STDERR_CASES)
def test_messages_same_as_bash(script: str) -> None:
    ref, ours = dt.run_bash(script), dt.run_ours(script)
    assert (ours.stdout, ours.status) == (ref.stdout, ref.status)
    assert ours.stderr == ref.stderr


# -- generated scripts over the descriptor table ---------------------------------------------

_FILES = ("f1", "f2", "a.txt")
_WORDS = ("alpha", "b c", "x-1", "")


def _stmt(rng: random.Random) -> str:
    fd = rng.choice((3, 4, 5, 9, 12))
    fd2 = rng.choice((3, 4, 6))
    f = rng.choice(_FILES)
    w = repr(rng.choice(_WORDS)).replace('"', "'")
    choices = [
        f"exec {fd}>{f}", f"exec {fd}>>{f}", f"exec {fd}<{f}", f"exec {fd}<>{f}",
        f"exec {fd}>&-", f"exec {fd2}>&{fd}", f"exec {fd2}>&{fd}-", f"exec {fd}>&1",
        f"echo {w} >&{fd}; echo st=$?", f"echo {w} {fd}>&1 >&{fd}",
        f"read -r v <&{fd}; echo \"v=$v st=$?\"", f"cat <&{fd}; echo st=$?",
        f"cat {f} 2>/dev/null; echo st=$?",
        f"{{ echo {w}; echo e{w} >&2; }} 2>/dev/null >>{f}",
        f"echo {w} > {f}", f"echo {w} >> {f}", f"echo {w} >| {f}", f"echo {w} &>> {f}",
        "set -C", "set +C", f"g() {{ echo {w}; }}; g >>{f}; g",
        f"echo {w} | cat >&{fd}; echo st=$?",
        f"exec {{v}}>{f}; echo \"fd=$v\"; echo {w} >&$v",
        f"exec {{v}}>&-; echo st=$?",
        f"while read -r l; do echo \"[$l]\"; done < {f}",
        f"cat <<< {w} >> {f}",
        f"(exec {fd}>{f}; echo sub >&{fd}); echo {w} >&{fd}; echo st=$?",
        f"{{ exec {fd}>&-; }}; echo {w} >&{fd}; echo st=$?",
        f"echo $(< {f})",
    ]
    return rng.choice(choices)


def generated(count: int, seed: int) -> list[str]:
    """``count`` scripts of 2-7 statements over descriptors and files, then the files."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        body = "; ".join(_stmt(rng) for _ in range(rng.randint(2, 7)))
        out.append(body + "; exec 2>/dev/null; echo ==; cat f1 f2; echo end")
    return out


GENERATED = generated(int(os.environ.get("REDIR_GENERATED", "200")), 1313)


@needs_bash
@pytest.mark.parametrize("script", GENERATED, ids=[f"g{i:03d}" for i in range(len(GENERATED))])
def test_generated_same_as_bash(script: str) -> None:
    problem = dt.compare(script)
    assert problem is None, problem


# -- guard ------------------------------------------------------------------------------------

def _box(tmp_path: Path, **policy) -> Sandbox:
    return Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w",
                   policy=Policy(allow=frozenset({"cat", "echo", "tee", "wc", "rm"}), **policy))


@pytest.mark.parametrize("script", [
    "exec 3>out.txt", "exec >log 2>&1", "exec {fd}>x", "exec 4<>x", "exec 5>>x",
    "exec 3>$name", "{ exec 3>x; }", "f() { exec 3>x; }", "echo hi > >(cat > x)",
    "cat <(tee x </dev/null)",
])
def test_exec_and_procsub_writes_refused_when_read_only(tmp_path: Path, script: str) -> None:
    r = _box(tmp_path, read_only=True).run(script + "; echo ran")
    assert r.exit_code == 126 and b"read-only" in r.stderr and b"ran" not in r.stdout
    assert list(tmp_path.iterdir()) == []


def test_exec_to_protected_path_refused(tmp_path: Path) -> None:
    box = _box(tmp_path, protected=("/w/core.md",))
    r = box.run("exec 3>/w/core.md; echo ran")
    assert r.exit_code == 126 and b"protected" in r.stderr and r.stdout == b""


def test_exec_outside_the_jail_never_reaches_the_host(tmp_path: Path) -> None:
    r = _box(tmp_path).run("exec 3>/outside.txt; echo st=$?; echo hi >&3; echo st=$?")
    assert b"st=1" in r.stdout and not Path("/outside.txt").exists()


def test_exec_cmd_refused_by_default(tmp_path: Path) -> None:
    r = _box(tmp_path).run("exec cat /dev/null; echo ran")
    assert r.exit_code == 126 and b"exec CMD replaces the shell" in r.stderr
    assert r.stdout == b""


def test_exec_cmd_under_dynamic_runs_then_ends_the_shell(tmp_path: Path) -> None:
    box = _box(tmp_path, dynamic=True)
    r = box.run("exec echo hi; echo never")
    assert (r.stdout, r.exit_code) == (b"hi\n", 0)
    r = box.run("f() { echo f; }; exec f; echo never")
    assert r.exit_code == 127 and r.stdout == b"" and b"exec: f: not found" in r.stderr
    r = box.run("exec rm -rf /w; echo never")  # rm is allowed; it runs under the same policy
    assert r.stdout == b""
    r = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w",
                policy=Policy(allow=frozenset({"echo"}), dynamic=True)).run("exec cat x")
    assert r.exit_code == 126 and b"`cat` is not an allowed command" in r.stderr


def test_procsub_bodies_are_guarded(tmp_path: Path) -> None:
    r = _box(tmp_path).run("echo hi > >(sort); echo ran")
    assert r.exit_code == 126 and b"`sort` is not an allowed command" in r.stderr
    assert r.stdout == b""
    r = _box(tmp_path).run("tee >(grep x) </dev/null; echo ran")
    assert r.exit_code == 126 and b"`grep`" in r.stderr


def test_output_procsub_runs_after_the_command(tmp_path: Path) -> None:
    r = _box(tmp_path).run("echo abc | tee >(wc -c) > out.txt; cat out.txt")
    assert r.stdout == b"4\nabc\n" and r.exit_code == 0


def test_exec_descriptors_stay_inside_a_subshell(tmp_path: Path) -> None:
    r = _box(tmp_path).run("(exec >x.txt; echo in); echo out; cat x.txt")
    assert r.stdout == b"out\nin\n"


def test_reporting_builtins_run_nothing(tmp_path: Path) -> None:
    r = _box(tmp_path).run("hash rm; type rm; command -v rm; hash -t rm; echo ok > k; cat k")
    assert r.stdout == b"rm is hashed (/usr/bin/rm)\n/usr/bin/rm\n/usr/bin/rm\nok\n"
    r = _box(tmp_path).run("hash -p /w/x cat")
    assert r.exit_code == 2 and b"-p: not supported" in r.stderr


def test_many_named_descriptors_end_with_a_message(tmp_path: Path) -> None:
    r = _box(tmp_path).run("for i in $(seq 2000); do exec {v}>/dev/null; done; echo $v")
    assert r.exit_code != 0 or r.stdout.strip().isdigit()
    assert b"Traceback" not in r.stderr and b"internal error" not in r.stderr


def test_exec_into_output_procsub_runs_at_the_end(tmp_path: Path) -> None:
    box = _box(tmp_path)
    r = box.run("exec > >(tee log.txt) 2>&1; echo hi; cat nope; echo done")
    want = b"hi\ncat: nope: No such file or directory\ndone\n"
    assert (r.stdout, r.exit_code) == (want, 0)
    assert (tmp_path / "log.txt").read_bytes() == want
    r = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w",
                policy=Policy(allow=frozenset({"echo", "tr"}))).run(
        "exec 3> >(tr a-z A-Z); echo lower >&3; echo direct; exit 3")
    assert (r.stdout, r.exit_code) == (b"direct\nLOWER\n", 3)


def test_output_procsubs_each_get_everything(tmp_path: Path) -> None:
    box = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w",
                  policy=Policy(allow=frozenset({"printf", "tee", "grep", "cat", "echo", "wc"})))
    r = box.run("printf 'a1\\nb2\\na3\\n' | tee >(grep a > a.txt) >(grep b > b.txt) >/dev/null;"
                " cat a.txt b.txt; echo data > >(wc -c); echo after")
    assert r.stdout == b"a1\na3\nb2\n5\nafter\n"


def test_time_reports_on_the_shell_stderr() -> None:
    from sandbox.interpreter.pipes import format_times
    r = Sandbox({}, policy=Policy(allow=frozenset({"echo"}))).run("time -p echo hi")
    assert r.stdout == b"hi\n" and re.fullmatch(rb"real \d+\.\d\d\nuser \d+\.\d\d\nsys 0\.00\n", r.stderr)
    assert format_times("%R|%3lR|%lU|%0S|%1R|%%", 61.5, 0.25, 0.0) == "61.500|1m1.500s|0m0.250s|0|61.5|%"


def test_output_procsub_is_no_write_in_read_only_mode(tmp_path: Path) -> None:
    box = _box(tmp_path, read_only=True)
    r = box.run("echo abc | tee >(wc -c) >/dev/null; echo hi > >(cat)")
    assert (r.stdout, r.exit_code) == (b"4\nhi\n", 0)
    for script in ("echo a | tee >(cat > f)", "echo hi | tee /dev/fd/5", "echo hi > /dev/fd/9"):
        r = box.run(script)
        assert r.exit_code == 126 and b"read-only" in r.stderr, script
    assert list(tmp_path.iterdir()) == []


@needs_bash
def test_commands_that_look_at_a_process_substitution_see_a_pipe() -> None:
    """``<(cmd)`` is a pipe to every command that follows its ``/dev/fd/N`` (``-L``): a fifo
    of size 0, mode 600, never a regular file; each still reads the output whole. (The kernel's
    link in front of the pipe is not modelled: without ``-L`` ls, stat and du show the pipe.)"""
    dt.check("ls <(echo) >/dev/null && echo ls; ls -lL <(echo) | cut -c1-10\n"
             "stat -L -c '%F %a %s' <(echo) >(cat); du -bL <(echo abc) | cut -f1\n"
             "find -L <(echo) -maxdepth 0 -type p | wc -l; find -L <(echo) -maxdepth 0 -type f | wc -l\n"
             "file -L <(echo) | sed 's/[0-9]//g'; cat <(echo abc) | wc -c", stderr=True)


@needs_bash
@pytest.mark.parametrize("script", [
    "echo x > a.txt/; echo $?; echo x > new/; echo $?; echo x >> a.txt/; echo x > dir/\n"
    "echo x > nodir/x/; cat < a.txt/; echo $?; ls",
    "echo x 2> new/; echo $?; echo y &> z/; echo $?; exec 3> w/; echo $?; echo q 1<> rw/; echo $?",
    "tee new/ < /dev/null; tee a.txt/ nodir/q/ < /dev/null; echo $?; ls",
])
def test_a_name_with_a_trailing_slash_is_no_file_to_create(script: str) -> None:
    """``> name/`` (and ``>>``, ``&>``, ``<>``, ``exec 3>``, tee's operands): open(2) with
    O_CREAT refuses a name/ that is no directory, "Is a directory" for a file or a new name,
    the parent's error where that does not resolve; nothing is created or written."""
    dt.check(script, stderr=True)


_CLOSED_STDIN_READERS = [
    "cat", "cat - a.txt", "cat -n", "head", "head -c 3", "nl", "od", "md5sum", "sha256sum", "b2sum",
    "paste", "fold", "expand", "unexpand", "fmt", "cut -c1", "tee", "cksum", "sum", "tsort",
    "uniq", "base64", "rev", "sed p", "grep x", "xxd", "shuf", "split", "pr", "numfmt", "column",
    "iconv -f utf-8", "join - /dev/null", "csplit - 1", "cat a.txt",
]


@needs_bash
@pytest.mark.parametrize("command", _CLOSED_STDIN_READERS)
def test_a_program_reading_a_closed_stdin_says_what_gnu_says(command: str) -> None:
    """``CMD <&-``: the program's read error, then (for those gnulib's close_stdin or their
    own close of fd 0 covers) the line about closing it, and their status."""
    dt.check(f'{command} <&-; echo "[$?]"', stderr=True)

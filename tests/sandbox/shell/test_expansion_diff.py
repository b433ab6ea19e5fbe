"""Differential tests of word expansion against bash 5.2: parameter expansion (``${v-x}``
and friends on scalars, ``$@``, ``$*`` and arrays, patterns, substrings, case), tilde
expansion, brace expansion, pathname expansion (dotglob, nocaseglob, globstar, globskipdots,
GLOBIGNORE, brackets with quoted characters) and IFS splitting. Hand-written cases, then
seeded generated ones (``EXPANSION_CASES=N`` for more); stdout, status and files compared.
Attack tests last: each ends inside the limits with its message."""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

from sandbox import Limits, Policy  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.fs.memory import MemoryFS  # noqa: E402

pytestmark = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

#: A helper printing each argument in brackets (argv.py's role, in plain shell).
P = "p() { printf '<%s>' \"$@\"; echo; }; "

HAND: list[str] = [
    # -- tilde expansion
    "cd /; HOME=/h/me; echo ~ ~/x x~ '~' \"~\" ~+ ~root ~nosuch ~root/a",
    "HOME=/h/me; echo x=~ a+=~ --opt=~ a=b=~ a=~/x:~:~root:~z",
    "HOME=/h/me; x=~:~/a:b~; echo $x; y=a:~root; echo $y",
    "HOME=/h/me; a=(~ x=~ ~root:~); " + P + "p \"${a[@]}\"",
    "HOME=/h/me; " + P + "p ${u:-~} \"${u:-~}\" ${u:-a~} ${u:-~/x} ${u:-x=~}; v=${u:-~:~}; echo $v",
    "HOME=/h/me; x=/h/me/a; echo ${x//~/r} \"${x#~}\" ${x/#~/R} ${x/~\\//Q}",
    "HOME=/h/me; echo {foo~,~}/bar ~{/src,root}; for w in {x,~}; do echo $w; done",
    "HOME=/h/me; cat <<< ~; cat <<EOF\n~\nEOF\necho $((~0)) $((~1))",
    "HOME=/h/me; case ~/a in ~/a) echo yes;; esac; [[ ~ == /h/me ]] && echo dbr",
    "HOME=/h/me; declare d=~:~; export e=a:~; echo $d $e; local_f() { local l=~; echo $l; }; local_f",
    "HOME=; echo \"[\"~\"]\" [~]; set -- ~; echo $#",
    "cd /; OLDPWD=/tmp; echo ~- ~+ ~+/x ~0 ~1",
    # -- ${v-x} forms on arrays and $@
    P + "set -- '1 2' '3 4'; p X${unset=x\"$@\"x}X; echo \"$unset\"",
    P + "set -- '1 2' '3 4'; p \"X${unset=x$@x}X\"",
    P + "e=(); a1=(''); a2=('' x); p \"${e[@]-m}\" \"${e[@]+p}\" \"${a1[@]-m}\" \"${a1[@]+p}\" "
        "\"${a2[@]:-m}\" \"${a2[@]:+p}\"",
    P + "e=(); p \"${e[@]+plus}\"; p \"${e[*]+plus}\"; p \"${@+plus}\"; p \"${@:+plus}\"; "
        "p \"${@-}\"; p \"${e[@]-$@}\"",
    P + "set -- ''; p ${@-m} ${@+p} ${@:-m} ${@:+p}; p \"${@:+p}\" \"x${@:+p}\"",
    P + "set -- '' ''; IFS=; p ${*-m} ${*+p} ${*:-m} ${*:+p}; p \"${*:-m}\" \"${*:+p}\"",
    P + "a=('' ''); p \"${a[@]:-w}\" \"${a[*]:-w}\"; IFS=; p \"${a[@]:-w}\" \"${a[*]:-w}\" ${a[*]:-w}",
    P + "a=(''); r='a[@]'; s='a[*]'; p \"${!r:-w}\" \"${!s:-w}\" \"${!r-n}\"",
    "declare -a arr; echo ${arr[0]=x} ${arr[2]=y}; echo ${#arr[@]} \"${arr[@]}\"",
    "declare -A m; echo ${m[k]=v} ${m[\"a b\"]:=w}; echo ${m[k]} ${m[a b]}",
    # -- patterns
    P + "a=(aa bb ''); p ${a[@]/#/pre-} \"${a[@]/%/-suf}\"",
    "x=abc; echo ${x/#/P} ${x/%/S} ${x//} ${x/} ${x///Z} \"${x/#/&}\" ${x/b/[&]} ${x/b/\\&}",
    "e=; echo \"[${e/#/P}]\" \"[${e/%/S}]\" \"[${e//*/S}]\"",
    "v=\"++--''++--''\"; echo \"${v//[+-]}\" \"${v//['+-']}\"; x='a[[[---]]]b'; echo \"${x//['[]']}\"",
    "x='[foo]'; echo ${x//[\\[z]/<} ${x//[\\]z]/>} ${x//[[z]/<} ${x//[]z]/>} ${x//[^[z]/<}",
    "foo='a b c d'; echo \"${foo%'c d'}\" \"${foo//'c d'/zzz}\"",
    "x=aXbXc; echo ${x%X*} ${x%%X*} ${x#*X} ${x##*X} ${x/X/-} ${x//X/-} ${x//[a-c]/.}",
    "x=abcabc; echo ${x^} ${x^^} ${x^^[ab]} ${x,,} X${x^^c}; y=ABC; echo ${y,} ${y,,[AB]}",
    "shopt -s extglob; x=aaabbbccc; echo ${x##+(a)} ${x%%+(c)} ${x//@(a|c)/-} ${x/!(a)/Z}",
    "shopt -s extglob; x=foo.tar.gz; echo ${x%%.@(tar|gz)*} ${x%.+([a-z])} ${x//?(.)/_}",
    "x=$(printf 'a%.0s' {1..40}); echo ${x%%*a*a*a*a*c} ${#x} ${x#a*a*a*a} ${x/%a*a*a*a/Q}",
    # -- substrings and lengths
    "x=abcdef; echo ${x:1:2} ${x: -2} ${x:(-3):2} ${x:2:-1} ${x: -10} \"${x:7}\" ${#x}",
    P + "set -- a b c d; p \"${@:2}\" \"${@:1:2}\" \"${@: -2}\" \"${@:1:0}\"",
    P + "a=(x y z w); p \"${a[@]:1:2}\" \"${a[@]: -1}\" \"${a[*]:1}\"",
    "x='héllo'; echo ${#x} ${x:1:2} ${x^^}",
    # -- splitting and joining
    P + "IFS=:; x='a:b::c:'; p $x; p \"$x\"; set -- a b; y=$*; z=\"$*\"; p \"$y\" \"$z\"",
    P + "IFS=' :'; x=' a : b  c:: '; p $x",
    P + "IFS=; x='a b'; p $x; set -- 'x y' z; p $* \"$*\" $@",
    P + "unset IFS; x=' a  b '; p $x \"$x\"; set -- '' ''; p $@ \"$@\" $*",
    P + "IFS=x; set -- one '' two; p $* \"$*\" $@ \"$@\"",
    P + "a=(x y z); IFS=:; s=\"${a[*]}\"; t=${a[*]}; u=${a[@]}; p \"$s\" \"$t\" \"$u\"",
    # -- brace expansion
    "echo {a,b}{1,2} {1..5} {5..1..2} {a..e..2} {01..10..3} {-2..2} x{,y}z {a,{b,c}}d",
    "echo {{a,b} {a,{b} {a,b}} }{a,b} {{a,b},c} {a..c}} {1..3..0} {1..a} {a}",
    "v=/; echo \\{a,b} '{a,b}' \"{a,b}\" {'a',b} {$v,x}/ {a..c}{1..2}",
    # -- globbing
    "mkdir -p g/s .h; touch g/a.txt g/B.txt g/s/c.txt g/.d.txt .h/y; echo g/*; echo g/*.[tT]xt",
    "mkdir -p g/s; touch g/a.txt g/B.md g/s/c.txt g/.d.txt; shopt -s dotglob; echo g/*; "
    "shopt -u dotglob; shopt -s nocaseglob; echo g/b* g/A*",
    "mkdir -p g/s/t; touch g/a g/s/b g/s/t/c g/.h; shopt -s globstar; echo g/**; echo g/**/; "
    "echo g/**/c g/**/b; cd g; echo **; echo **/t; echo x**",
    "mkdir -p g/d; touch g/a.txt g/b.md g/d/c.txt g/.h.txt; cd g; GLOBIGNORE='*.txt'; echo * d/*; "
    "GLOBIGNORE='d/*:b*'; echo * d/*",
    "touch .a b; echo .*; shopt -u globskipdots; echo .*; echo *",
    "touch 'a-' b c; echo [a\\-]* [[:punct:]] *[[:punct\\:]]; v='\\*'; touch '*x'; echo $v*",
    "shopt -s nullglob; echo nope* \"nope*\" x; shopt -u nullglob; echo nope*",
    "touch '[' ']' _G; echo [\\[z] [\\]z] [[z] []z] _[^\\[z] _[^[z]",
    "shopt -s failglob; echo nope*\necho after $?",
    "shopt -s extglob\ntouch a.txt b.md c.py; echo @(a|b).* !(a).* *.+(md|py)",
    "shopt -s extglob\ntouch a.txt b.md .c.txt .d; mkdir r; echo !(r) !(r)x; echo !(a*) @(*); "
    "echo .!(r) ?(a|.c).txt +(.)* @(.d|a*) [.]* *(.)c* *(a|b).*; shopt -s dotglob; echo !(r)",
    "shopt -s globstar; mkdir -p q/r/s; touch q/a q/r/b q/r/s/c; echo q/**/; echo **/s; "
    "echo q/**/*; cd q; for f in **; do echo \"[$f]\"; done",
    "shopt -s failglob; f() { echo nope*; echo in; }; f; echo same line\necho next $?",
    # -- quoting inside ${...}, backquotes, here-documents, bad substitutions
    "echo \"${var-}}\" \"${var-\\}}\" \"${var-'}'}\" \"${var-\"}\"}\"; x='a b'; echo \"${u:-'$x'}\"",
    "foo='a b c d'; echo \"${foo//'c d'/'zzz'}\" \"${foo/a/\"q\"}\"; y='&'; echo \"${foo/b/$y}\" ${foo/b/\"$y\"}",
    "echo \"x `echo \\\"hi\\\"`\" \"x $(echo \\\"hi\\\")\"; echo `echo \\`echo in\\``",
    "echo $\\\n?; a=x; cat <<${a}\nbody\n${a}\necho after",
    "echo ${#x-}; echo same\necho next $?; echo ${x!y}\necho ${ x}\necho ok $?",
    "x=abc; echo ${#x:1:3}\nf() { echo ${#x-}; echo in; }; f; echo after\necho end",
    "declare -ri n=3; declare -lx l=Ab; declare -a a=(1); declare -A m=([k]=v [\"a b\"]=w); "
    "echo ${n@a} ${n@A} ${l@a} ${l@A} ${a@a} ${a@A} ${a[0]@A} ${m@a} ${m@A}; echo ${m[@]@K} "
    "${a[@]@K}; x=y; echo ${x@K} ${x@k}; declare -n r=x; echo ${r@a}; e=(); echo \"${e@A}\"",
    "x='hello world'; echo ${x^^[lo]} ${x^[h]} ${x,,[LO]} ${x^^?} ${x~} ${x~~} ${x~~[lw]}; "
    "y='ÉCOLE été'; echo ${y,,} ${y^^} ${y^}; a=(ab cd); echo ${a[@]^} \"${a[*]^^[bd]}\" ${a[@]~}",
    "a=A; b=B; echo {$a,b}_{c,d} _{$a,b}_{c,d} {_$a,b}_{c,d} {$a,$b}x {${a},b}_{c,d} {$a,b}.c",
    "foo1=a foo2=b; a=(x y z); IFS=; " + P + "p ${!foo*} ${!foo@} ${!a[*]} ${!a[@]}; IFS=:; p ${!a[*]} \"${!a[*]}\"",
]


def _generated(count: int, seed: int = 1313) -> list[str]:
    """Scripts combining a value set-up (scalars, $@, arrays with empty elements, IFS) with
    one parameter expansion form, quoted or not."""
    rng = random.Random(seed)
    elems = ["''", "a", "'b c'", "' '", "x:y", "'*'", "-"]
    ifss = ["", "IFS=; ", "IFS=:; ", "IFS=' :'; ", "unset IFS; "]
    names = ["v", "@", "*", "a[@]", "a[*]", "a[1]", "u", "e[@]"]
    ops = ["", "-w", ":-w", "+w", ":+w", "=w", ":=w", "#?", "##*", "%?", "%%*", "/a/Z", "//[ab]/Z",
           "/#/P", "/%/S", "^", "^^", ",,", ":1", ":1:1", ": -1", "@Q", "#len"]
    out = []
    for _ in range(count):
        setup = rng.choice(ifss)
        setup += "set -- " + " ".join(rng.choice(elems) for _ in range(rng.randint(0, 3))) + "; "
        setup += "a=(" + " ".join(rng.choice(elems) for _ in range(rng.randint(0, 3))) + "); e=(); "
        setup += rng.choice(["v=", "v='a b'", "v='x:y:'", "v=abc", "unset v; "]) + "; "
        name = rng.choice(names)
        op = rng.choice(ops)
        if op in ("=w", ":=w") and name not in ("v", "u", "a[1]"):
            op = ":-w"
        if op == "#len":
            exp = "${#" + name + "}"
        else:
            exp = "${" + name + op + "}"
        word = rng.choice([exp, f'"{exp}"', f"x{exp}y", f'"x{exp}"', f"{exp}{exp}"])
        out.append(P + setup + f"p {word}")
    return out


def _generated_words(count: int, seed: int = 2024) -> list[str]:
    """Scripts of words mixing globs, braces, tildes and quoted or unquoted expansions, under
    a random pair of globbing options (dotglob, nullglob, nocaseglob, globstar, GLOBIGNORE,
    set -f, IFS)."""
    rng = random.Random(seed)
    setup = ("mkdir -p d/s .h; touch d/a.txt d/B.md d/s/c.txt d/.e.txt a1 a2 b1 'sp ace' .h/x; "
             "HOME=/h/me; v='a*'; w='d/*.txt'; e=; s='x y'; ")
    opts = ["", "shopt -s dotglob; ", "shopt -s nullglob; ", "shopt -s nocaseglob; ",
            "shopt -s globstar; ", "GLOBIGNORE='*.md'; ", "set -f; ", "IFS=:; ", "IFS=; "]
    atoms = ["*", "?", "[ab]", "[!a]*", "d/*", "d/**", "**/*.txt", "$v", '"$v"', "$w", "{a,b}*",
             "{1..3}", "~", "~/x", "x=~", "$s", '"$s"', "$e", '"$e"', "'*'", "\\*", "a{1,2}",
             "{d,x}/*", "*.{txt,md}", "[a-b]?", "d/s/../*", "./a*", "nope*", "${v%\\*}*"]
    out = []
    for _ in range(count):
        words = " ".join(rng.choice(atoms) for _ in range(rng.randint(1, 4)))
        out.append(P + setup + rng.choice(opts) + rng.choice(opts) + f"p {words}")
    return out


GENERATED = _generated(int(os.environ.get("EXPANSION_CASES", "160"))) + \
    _generated_words(int(os.environ.get("EXPANSION_CASES", "160")) // 2)


@pytest.mark.parametrize("script", HAND, ids=[f"h{i:02d}" for i in range(len(HAND))])
def test_hand_written(script: str) -> None:
    problem = dt.compare(script)
    assert problem is None, problem


@pytest.mark.parametrize("script", GENERATED, ids=[f"g{i:03d}" for i in range(len(GENERATED))])
def test_generated(script: str) -> None:
    problem = dt.compare(script)
    assert problem is None, problem


# -- attacks: each ends inside the limits, with its message ----------------------------------


def _run(script: str, seconds: float = 5.0) -> tuple[int, str, float]:
    sb = Sandbox({"/": MemoryFS()}, policy=Policy(allow=dt.all_commands()),
                 limits=Limits(seconds=seconds))
    start = time.monotonic()
    r = sb.run(script)
    return r.exit_code, r.stderr.decode("utf-8", "replace"), time.monotonic() - start


@pytest.mark.parametrize("script,code,message", [
    ("a=({1..99999999}); echo ${#a[@]}", 125, "brace expansion limit"),
    ("echo {1..9}{1..9}{1..9}{1..9}{1..9}", 125, "brace expansion limit"),
    ("shopt -s extglob\nx=$(printf 'a%.0s' {1..3000}); y=${x//+(+(a)|+(a))c/Z}; echo ${#y}",
     124, "time limit"),
    ("x=$(printf '%30000s' ''); x=${x// /a}; echo ${x//*a*a*a*c/Z} | wc -c", 125, "pattern too complex"),
])
def test_attack_ends_with_message(script: str, code: int, message: str) -> None:
    status, err, elapsed = _run(script, seconds=2.0)
    assert status == code, err
    assert message in err
    assert elapsed < 6.0
    assert "Traceback" not in err and "internal error" not in err


@pytest.mark.parametrize("script,out", [
    # bash's ${!v} is one level only: v=v gives the text "v", never a loop
    ("v=v; echo ${!v}; a=b; b=a; echo ${!a} ${!b}", "v\na b\n"),
    ("shopt -s extglob\nx=$(printf 'a%.0s' {1..60}); case ${x}b in +(a|aa)+(a|aa)+(a|aa)c) "
     "echo m;; *) echo no;; esac; [[ ${x}b == +(+(a)|+(a))c ]] || echo no2", "no\nno2\n"),
    ("shopt -s extglob\nx=$(printf 'a%.0s' {1..200}); y=${x%%+(+(a)|+(a))c}; echo ${#y} "
     "${x##!(b)}", "200\n"),
])
def test_attack_fast_and_right(script: str, out: str) -> None:
    sb = Sandbox({"/": MemoryFS()}, policy=Policy(allow=dt.all_commands()),
                 limits=Limits(seconds=5.0))
    start = time.monotonic()
    r = sb.run(script)
    assert r.stdout.decode() == out, r.stderr
    assert time.monotonic() - start < 3.0

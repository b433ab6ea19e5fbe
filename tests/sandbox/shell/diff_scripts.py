"""The corpus of differential scripts: each is run by real bash and by the sandbox.

``SCRIPTS`` is a list of (script, stdin). Categories are built from hand-written scripts plus
small systematic products (every parameter operator on several values, every redirection
form...). Keep each script deterministic and free of absolute host paths (``pwd`` differs)."""

from __future__ import annotations

S: list[tuple[str, bytes]] = []


def add(script: str, stdin: bytes = b"") -> None:
    """Add one script to the corpus."""
    S.append((script, stdin))


# -- simple commands, lists, status ----------------------------------------------------------
for s in [
    "echo hello", "echo", "echo a b   c", "true", "false", ":", "false; echo $?", "true; echo $?",
    "echo a; echo b", "echo a && echo b", "false && echo b", "false || echo b",
    "true || echo b", "false && echo a || echo c", "true && false || echo c; echo $?",
    "echo a\necho b\n\n\necho c", "false\necho $?", "exit 3", "exit 300", "(exit 4); echo $?",
    "false; exit", "true; exit", "echo x; exit 2; echo y", "! true; echo $?", "! false; echo $?",
    "! echo a | cat; echo $?", "a=1; echo $a", "a=1 b=2; echo $a$b", "a=x; a+=y; echo $a",
    "x=5 true; echo \"[$x]\"", "x=1; x=2 true; echo $x", "echo $((0))" if False else "echo '$((1+2))'",
    "# comment only", "echo a # comment", "echo a#b", "echo \\# not comment",
]:
    add(s)

# -- quoting -------------------------------------------------------------------------------------
for s in [
    "echo 'single $x quoted'", 'echo "double $HOME_UNSET quoted"', "echo \"a\\\"b\"",
    "echo 'it'\\''s'", "echo $'a\\tb\\nc'", "echo $'\\x41\\102\\u00e9'", "echo $'q\\'q'",
    "echo a\\ b", "echo \"\\$x \\` \\\\ \\a\"", "echo ''", "echo \"\"", "echo '' x ''",
    "x=''; echo \"[$x]\" [$x]", "echo \"a\nb\"", "echo 'a\nb'", "echo \"tab\there\"",
    "echo \"nested $(echo \"inner $(echo deep)\")\"", "echo a'b'\"c\"d", "echo \"$'x'\"",
    "echo $'\\e[1m' | od -c | head -n 1" if False else "echo $'a\\\\b'",
    "v='a b'; echo \"$v\"; echo $v", "echo \"*\" '*'", "echo \\*", "echo '~' \"~\"",
    "echo $'\\c'x", "echo $'\\101\\0102'", "echo \"x\\\ny\"", "echo x\\\ny",
]:
    add(s)

# -- parameter expansion: systematic ---------------------------------------------------------------
values = {"set": "v=hello.tar.gz", "empty": "v=", "unset": "unset v", "spaces": "v='a  b c'"}
ops = ["${v}", "${v:-def}", "${v-def}", "${v:+alt}", "${v+alt}", "${#v}", "${v#*.}",
       "${v##*.}", "${v%.*}", "${v%%.*}", "${v/l/L}", "${v//l/L}", "${v/#h/H}", "${v/%z/Z}",
       "${v:-$(echo sub)}", "${v/./}", "${v//[aeiou]/_}", "${v#h}", "${v%gz}"]
for init in values.values():
    for op in ops:
        add(f"{init}; echo \"[{op}]\" [{op}]")
for s in [
    "unset v; echo ${v:=new}; echo $v", "v=; echo ${v:=new}; echo $v", "v=old; echo ${v:=new}",
    "unset v; echo ${v=new}; echo $v", "v=abcabc; echo ${v/b/}", "v=abcabc; echo ${v//b}",
    "v='/a/b/c.txt'; echo ${v##*/} ${v%/*}", "v=aaa; echo ${v#a*} ${v##a*}", "v=aaa; echo ${v%a*} ${v%%a*}",
    "v='x*y'; echo \"${v#x\\*}\"", "v='a.b'; p='.'; echo ${v%$p*}", "v=path/to/file; echo ${v//\\//:}",
    "v=hello; echo ${#v} ${#}", "set -- a b c; echo ${#} ${#1}", "v='a b'; for w in ${v/ /x}; do echo $w; done",
    "unset v; echo \"${v:-a b}\" | wc -w", "unset v; for w in ${v:-a b}; do echo $w; done",
    "v=abc; echo ${v/*/X} ${v/?/X}", "v=abc; echo ${v/[ab]/X}", "v=ab; echo ${v//?/-&-}",
    "v=ABC; echo ${v,,}" if False else "v=ABC; echo ${v:-}", "unset v; echo ${v+set} ${v-unset}",
    "v=\"a'b\"; echo \"${v/\\'/Q}\"", "x=1; unset x; echo \"${x-gone}\"", "v=abc; echo \"${v/b/\"q\"}\"",
    "v=hello; echo ${v%l*} ${v%%l*}", "v='a*b'; echo ${v/\\*/+}", "v=aXbXc; echo ${v/X/\\/}",
]:
    add(s)

# -- special parameters ----------------------------------------------------------------------------
for s in [
    "set -- a 'b c' d; echo $#; echo $1 $2 $3", "set -- a 'b c'; for x in \"$@\"; do echo \"<$x>\"; done",
    "set -- a 'b c'; for x in $@; do echo \"<$x>\"; done", "set -- a 'b c'; for x in \"$*\"; do echo \"<$x>\"; done",
    "set -- a b; IFS=,; echo \"$*\"", "set --; for x in \"$@\"; do echo x; done; echo done",
    "set -- 1 2 3; shift; echo $@", "set -- 1 2 3; shift 2; echo $1", "set -- 1; shift 3; echo $? $1",
    "f() { echo $# \"$1\"; }; f; f a; f 'a b' c", "f() { for a; do echo \"[$a]\"; done; }; f x 'y z'",
    "set -- x y; echo \"pre$@post\"", "set -- x y; echo \"pre${@}post\"", "echo $0 >/dev/null; echo ok",
    "false; echo $?; echo $?", "echo \"$?\"", "set -- a b c; echo \"${@}\" \"${*}\"",
    "cat a.txt | head -n 1; echo ${PIPESTATUS[0]} ${PIPESTATUS[1]}", "false | true; echo ${PIPESTATUS[@]}",
    "true | false | true; echo ${PIPESTATUS[*]}", "false; echo ${PIPESTATUS[0]}",
    "set -- a b; f() { echo \"$@\"; }; f \"$@\" c", "set a b c; echo $2",
]:
    add(s)

# -- word splitting and IFS ------------------------------------------------------------------------
for s in [
    "v='  a  b  '; for w in $v; do echo \"[$w]\"; done", "IFS=:; v='a:b::c'; for w in $v; do echo \"[$w]\"; done",
    "IFS=:; v=':a:'; for w in $v; do echo \"[$w]\"; done", "IFS=', '; v='a, b,c ,d'; for w in $v; do echo \"[$w]\"; done",
    "IFS=; v='a b'; for w in $v; do echo \"[$w]\"; done", "v=$'a\\tb\\nc'; for w in $v; do echo $w; done",
    "x='a b'; y=$x; echo \"$y\"", "v='*.txt'; echo $v", "v='*.txt'; echo \"$v\"", "v='a   b'; echo $v",
    "v=\"$(printf 'a\\n\\nb\\n\\n')\"; echo \"[$v]\"", "v=$(echo '  x  '); echo \"[$v]\"",
    "IFS=x; v=axbxc; echo $v; echo \"$v\"", "unset IFS; v='a b'; for w in $v; do echo $w; done",
    "v='a b'; w=pre${v}post; echo $w", "set -- $(echo a b c); echo $#",
]:
    add(s)

# -- command substitution -------------------------------------------------------------------------
for s in [
    "echo $(echo hi)", "echo `echo hi`", "x=$(echo a; echo b); echo \"$x\"", "echo $(false); echo $?",
    "x=$(false); echo $?", "x=$(exit 7); echo $?", "echo \"$(cat a.txt)\"", "echo $(cat a.txt)",
    "echo $(echo $(echo nested))", "echo `echo \\`echo bq\\``", "x=$(cd dir; echo in); echo $x",
    "echo $(printf 'a\\n\\n\\n')end", "n=$(wc -l < a.txt); echo \"$n lines\"", "echo $(x=1; echo $x) $x",
    "echo \"$(echo '  spaced  ')\"", "echo \"$(< a.txt)\"", "x=$(<nums.txt); echo $x",
    "echo $(< nope.txt); echo $?", "f() { echo fn; }; echo $(f)", "echo $( echo paren )",
]:
    add(s)

# -- redirections -----------------------------------------------------------------------------------
for s in [
    "echo a > out.txt; cat out.txt", "echo a > out.txt; echo b >> out.txt; cat out.txt",
    "echo a >out.txt; echo b >out.txt; cat out.txt", "cat < a.txt", "cat nonexist.txt 2> err.txt; echo $?",
    "cat nonexist.txt 2>/dev/null; echo $?", "echo x >/dev/null; echo y", "{ echo a; echo b >&2; } 2>&1",
    "{ echo a; echo b >&2; } 2>/dev/null", "{ echo out; echo err >&2; } > o.txt 2> e.txt; cat o.txt e.txt",
    "{ echo out; echo err >&2; } &> both.txt; cat both.txt", "{ echo out; echo err >&2; } >both.txt 2>&1; cat both.txt",
    "echo one > f.txt; cat f.txt >> f2.txt; cat f.txt >> f2.txt; cat f2.txt", "> new.txt; ls new.txt" if False else "> new.txt; cat new.txt; echo $?",
    "echo a 1>o.txt; cat o.txt", "cat <a.txt >o.txt; cat o.txt", "cat < nonexist; echo $?",
    "echo hi > dir; echo $?", "echo hi > nodir/x.txt; echo $?", "echo x >&2 2>/dev/null; echo y",
    "cat /dev/null; echo $?", "echo data | cat /dev/stdin", "echo data | cat - a.txt",
    "echo e >/dev/stderr; echo o", "echo o >/dev/stdout", "x=out; echo hi > $x.txt; cat out.txt",
    "for i in 1 2 3; do echo $i; done > loop.txt; cat loop.txt", "if true; then echo in-if; fi > if.txt; cat if.txt",
    "while read -r l; do echo \"<$l>\"; done < a.txt", "echo a >o.txt 2>&1; cat o.txt",
    "{ echo x; } >> a.txt; cat a.txt", "cat <<< 'here string'", "cat <<< \"$((0))\"" if False else "v=val; cat <<< \"v=$v\"",
    "read -r a b <<< 'x y z'; echo \"$a|$b\"", "echo a >| clob.txt; cat clob.txt", "echo x 2>&1 >/dev/null",
    "echo a > 'sp ace.txt'; cat 'sp ace.txt'", "cat nope 2>> e.txt; cat nope 2>> e.txt; cat e.txt",
    "{ echo o; cat nope; } &>> both.txt; { echo p; } &>> both.txt; cat both.txt",
    "echo x >&out.txt; cat out.txt" if False else "echo x 1>>o.txt 2>>e.txt; cat o.txt",
    "exec_() { cat; }; exec_ < a.txt > c.txt; cat c.txt", "cat 'sp ace.txt' sp\\ ace.txt",
]:
    add(s)

# -- here-documents ---------------------------------------------------------------------------------
for s in [
    "cat <<EOF\nhello\nworld\nEOF", "x=1; cat <<EOF\nx=$x $(echo sub)\nEOF", "x=1; cat <<'EOF'\nx=$x $(echo sub)\nEOF",
    "x=1; cat <<\"EOF\"\nx=$x\nEOF", "cat <<-EOF\n\tindented\n\t\tmore\n\tEOF", "cat <<EOF | wc -l\na\nb\nEOF",
    "cat <<A; cat <<B\none\nA\ntwo\nB", "cat <<EOF\nback\\\\slash \\$x \\`q\\`\nEOF", "cat <<EOF\nline\\\ncont\nEOF",
    "cat <<EOF > hd.txt\ncontent\nEOF\ncat hd.txt", "while read -r l; do echo \"[$l]\"; done <<EOF\na b\n c \nEOF",
    "cat <<EOF\nno trailing", "cat <<EOF\n'quotes' \"dq\"\nEOF", "f() { cat; }; f <<EOF\nto func\nEOF",
    "cat << EOF\nspaced delim\nEOF", "cat <<E\\OF\n$novar\nEOF",
]:
    add(s)

# -- compound commands ----------------------------------------------------------------------------
for s in [
    "if true; then echo y; else echo n; fi", "if false; then echo y; else echo n; fi",
    "if false; then echo 1; elif true; then echo 2; else echo 3; fi", "if false; then echo 1; elif false; then echo 2; fi; echo $?",
    "if false; then :; fi; echo $?", "if ! false; then echo neg; fi", "if [ -f a.txt ]; then echo file; fi",
    "for i in 1 2 3; do echo $i; done", "for i in; do echo $i; done; echo end", "for i in a b; do for j in 1 2; do echo $i$j; done; done",
    "for i in 1 2 3 4; do if [ $i = 3 ]; then break; fi; echo $i; done", "for i in 1 2 3; do [ $i = 2 ] && continue; echo $i; done",
    "for i in 1 2; do for j in a b; do [ $j = b ] && break 2; echo $i$j; done; done",
    "for i in 1 2; do for j in a b; do [ $j = a ] && continue 2; echo $i$j; done; done",
    "i=x; while [ \"$i\" != xxxx ]; do echo $i; i=${i}x; done", "i=; until [ \"$i\" = yyy ]; do i=${i}y; done; echo $i",
    "while false; do :; done; echo $?", "{ echo a; echo b; } | wc -l", "(echo sub; exit 3); echo $?",
    "x=1; (x=2; echo $x); echo $x", "cd dir; (cd sub; ls); ls" if False else "(cd dir && cat x.txt); cat a.txt | head -n 1",
    "{ x=2; }; echo $x", "for f in dir/*; do echo \"$f\"; done", "for i in 1 2 3; do echo $i; done | tail -n 1" if False else "for i in 1 2 3; do echo $i; done | head -n 2",
    "while read -r a b; do echo \"$b-$a\"; done < b.txt", "echo 'a b' | while read x y; do echo $y $x; done",
    "cat a.txt | while read -r l; do echo \"> $l\"; done", "n=0; for x in a b c; do n=$n+; done; echo $n",
    "if true; then if false; then echo a; else echo b; fi; fi", "for x in a b; do echo $x; done; echo after $x",
    "while true; do echo once; break; done", "until true; do echo never; done; echo $?",
    "if (exit 3); then echo y; else echo \"n $?\"; fi", "for i in {1..3}; do echo $i; done",
    "f() { for i in 1 2 3; do [ $i = 2 ] && return 5; done; }; f; echo $?",
]:
    add(s)

# -- functions ------------------------------------------------------------------------------------
for s in [
    "f() { echo in f; }; f", "f() { echo \"$1-$2\"; }; f a b", "function g { echo g; }; g", "function h() { echo h; }; h",
    "f() { return 3; }; f; echo $?", "f() { false; }; f; echo $?", "f() { local x=1; echo $x; }; x=0; f; echo $x",
    "f() { x=changed; }; x=0; f; echo $x", "f() { local x; x=2; }; x=1; f; echo $x", "f() { echo $#; }; f a b c",
    "f() { g; }; g() { echo g; }; f", "f() { echo a; }; f() { echo b; }; f", "f() (x=in; echo $x); x=out; f; echo $x",
    "f() { echo \"$@\"; }; f 1 '2 3'", "f() { shift; echo \"$@\"; }; f a b c; echo $#",
    "fact() { if [ $1 = xxxx ]; then echo done; else fact ${1}x; fi; }; fact x",
    "f() { echo out; return 1; echo not; }; f || echo failed", "f() { cat; }; echo piped | f",
    "f() { echo $1; }; f \"$(echo sub)\"", "f() { local a=1 b=2; echo $a$b; }; f", "unset -f f; f() { echo x; }; unset -f f; echo ok",
    "local x=1; echo $?", "return 2; echo after", "f() { exit 4; }; f; echo never", "f() { echo $FUNCNAME_UNSET; }; f",
]:
    add(s)

# -- set -e / -u / pipefail ------------------------------------------------------------------------------
for s in [
    "set -e; false; echo no", "set -e; false || true; echo yes", "set -e; if false; then :; fi; echo yes",
    "set -e; ! false; echo yes", "set -e; false && true; echo yes", "set -e; (false); echo no",
    "set -e; f() { false; echo in; }; f; echo no", "set -e; while false; do :; done; echo yes",
    "set -o pipefail; false | true; echo $?", "set -o pipefail; true | false | true; echo $?",
    "set +o pipefail; false | true; echo $?", "set -u; echo ${x:-ok}", "set -u; echo $x; echo no",
    "set -u; x=1; echo $x", "set -eu; echo ${y-dflt}", "set -e; x=$(false); echo no", "set -e; set +e; false; echo yes",
    "set -euo pipefail; echo ok", "set -- a b; echo $2", "set -e; false | true; echo yes",
]:
    add(s)

# -- test / [ -----------------------------------------------------------------------------------------
tests_ = ["-f a.txt", "-f dir", "-d dir", "-d a.txt", "-e nope", "-e dir/x.txt", "-s empty.txt",
          "-s a.txt", "-z ''", "-z x", "-n ''", "-n x", "a = a", "a = b", "a != b", "a == a",
          "1 -eq 1", "1 -eq 2", "2 -gt 1", "2 -lt 1", "3 -le 3", "3 -ge 4", "1 -ne 2", "abc",
          "''", "! -f a.txt", "-f a.txt -a -d dir", "-f nope -o -d dir", "\\( -f a.txt \\)",
          "a \\< b", "b \\> a", "-10 -lt 2", "' 5' -eq 5", "x -eq 1", "1 -eq", "-f", "! x",
          "a = a -a b = c", "-r a.txt", "-x a.txt", "-d dir/sub", "-01 -eq -1"]
for t in tests_:
    add(f"[ {t} ]; echo $?")
    add(f"test {t}; echo $?")
add("[ a = a; echo $?")
add("[ ]; echo $?")
add("test; echo $?")

# -- globbing ----------------------------------------------------------------------------------------------
for s in [
    "echo *.txt", "echo *.md", "echo dir/*", "echo dir/*/*", "echo */", "echo *.nomatch", "echo a?txt",
    "echo ?.txt", "echo [ab].txt", "echo [!a]*.txt", "echo [^a]*.txt", "echo dir/.*", "echo dir/.h*",
    "echo *", "echo \"*.txt\"", "echo '*'.txt", "echo *.{txt,md}", "for f in *.txt; do echo \"[$f]\"; done",
    "echo [[:alpha:]].txt", "echo *[0-9]*", "cd dir && echo *", "echo d*/x*", "echo nope/*",
    "x='*'; echo $x.md", "echo \\*.txt", "echo *.txt | wc -w", "echo [a-b]*", "echo dir/sub/*.txt",
]:
    add(s)

# -- brace expansion ----------------------------------------------------------------------------------------
for s in [
    "echo {a,b,c}", "echo x{a,b}y", "echo {1..5}", "echo {5..1}", "echo {a..e}", "echo {e..a}",
    "echo {1..10..3}", "echo {01..10}", "echo {-2..2}", "echo {a,b}{1,2}", "echo {a,{b,c}}d",
    "echo {a}", "echo {}", "echo {a,}", "echo {,a}b", "echo '{a,b}'", "echo \"{a,b}\"", "echo {a..c..2}",
    "echo pre{1..3}", "echo {1..3}{a..b}", "v=x; echo {$v,y}", "echo {a,b", "echo a,b}", "echo {1..a}",
    "for i in {1..4}; do echo $i; done", "echo file{1,2}.txt", "echo {10..8}", "echo {x..z}{1..2}",
]:
    add(s)

# -- builtins: echo / printf / read / cd / export / unset -------------------------------------------------------
for s in [
    "echo -n abc; echo", "echo -e 'a\\tb'", "echo -E 'a\\tb'", "echo -ne 'x\\ny'", "echo -e 'a\\cb'; echo",
    "echo -en 'a\\x41\\0101'", "echo -- -n", "echo -x", "echo -nx a", "echo -e '\\e' | wc -c", "echo -e '\\u263a'",
    "echo -e 'back\\\\slash'", "echo -e 'oct\\0141'", "echo -e '\\q'", "echo -n", "echo -e -n x; echo",
    "printf '%s\\n' a b c", "printf '%d %s\\n' 1 a 2 b 3", "printf '%5s|%-5s|\\n' ab cd", "printf '%.2s\\n' abcdef",
    "printf '%05d|%-4d|%+d\\n' 42 7 3", "printf '%x %X %o\\n' 255 255 8", "printf '%#x %#o\\n' 255 8",
    "printf '%f %.1f %.0f\\n' 3.14159 2.25 2.5", "printf '%e %E\\n' 12345.678 0.00012", "printf '%g %g %g\\n' 100000 1000000 0.0001",
    "printf '%g\\n' 0.00001234", "printf '%c%c\\n' hello world", "printf '%%\\n'", "printf 'no newline'",
    "printf '%s\\n'", "printf '%d\\n' abc; echo $?", "printf '%d\\n' 0x1F 010 \"'A\"", "printf '%u\\n' -1",
    "printf '%q\\n' 'a b' \"it's\" '$x'", "printf '%b\\n' 'a\\tb' 'c\\nd'", "printf '%s %s\\n' a", "printf '%i\\n' 42",
    "printf '%*d|\\n' 5 3", "printf '%.*f\\n' 2 3.14159", "printf 'a\\tb\\n'", "printf '\\x41\\101\\n'",
    "printf '%s' '' ; echo end", "printf '%10.3f|\\n' 3.14159", "printf '%-10s|\\n' left", "printf '%q\\n' ''",
    "printf '%b' 'stop\\cnot'; echo", "printf '%d %d\\n' 1 2 3", "printf '%s\\n' 'multi word'", "printf -- '%s\\n' dash",
    "printf '%.3d\\n' 5", "printf '%08.3f\\n' -3.5", "printf '% d\\n' 5", "printf '%e\\n' 0", "printf '%g\\n' 123456789",
    "printf '%.10g\\n' 2.5", "printf '%G\\n' 1e-10", "printf '%s=%s\\n' k1 v1 k2 v2", "printf '%c\\n' ''",
    "printf '%5.1s|\\n' xyz", "printf '%x\\n' 3000000000", "printf '%d\\n' -0", "printf '%d\\n' ' 42'",
    "printf '%f\\n' 1e3", "printf '%f\\n' inf", "printf '%.2e\\n' 9.999", "printf '%#.0f\\n' 3", "printf '%q\\n' 'tab\there'",
    "printf '%q\\n' '#hash' 'a#b' '~user'", "printf '%q\\n' 'semi;colon' 'a,b' 'x=y'",
    "read x <<< hello; echo $x", "read -r x <<< 'a\\b'; echo $x", "read x <<< 'a\\b'; echo $x", "read a b <<< 'one two three'; echo $b",
    "read <<< 'reply var'; echo $REPLY", "echo -n noeol | { read x; echo $? $x; }", "read x < empty.txt; echo $?",
    "IFS=: read a b <<< 'x:y:z'; echo $a $b", "printf 'a\\nb\\n' | { read x; read y; echo $y$x; }",
    "read -d , x <<< 'a,b'; echo $x", "read -n 2 x <<< 'abcd'; echo $x",
    "cd dir; cat x.txt", "cd dir/sub && cat y.txt", "cd nope; echo $?", "cd a.txt; echo $?", "cd dir; cd ..; cat a.txt | head -n 1",
    "cd dir; cd -  >/dev/null; cat a.txt | head -n 1", "(cd dir); cat a.txt | head -n 1", "cd /; cd \"$OLDPWD\"; echo ok",
    "export A=1; echo $A", "A=2; export A; echo $A", "unset A; echo \"[$A]\"", "x=1; unset x; echo ${x-unset}",
    "export 1bad=x; echo $?", "unset 'a b'; echo $?",
]:
    add(s)

# -- pipelines ----------------------------------------------------------------------------------------------
for s in [
    "echo a | cat", "cat a.txt | cat | cat", "printf 'b\\na\\n' | head -n 1", "echo hi | wc -c",
    "cat a.txt | head -n 1", "seq 1 100000 | head -n 3", "seq 1 5 | while read n; do echo n$n; done",
    "echo x | false; echo $?", "false | echo y", "echo a |& cat", "cat nonexist |& cat",
    "x=1; echo | x=2; echo $x", "echo abc | { read v; echo got $v; }", "cat < a.txt | wc -l",
    "yes_() { while true; do echo y; done; }; yes_ | head -n 2", "echo data | cat | wc -c | cat",
    "seq 3 | cat -n", "echo foo | grep -c o", "grep -n project notes.md | cut -d: -f1",
    "cat data.jsonl | wc -l", "echo a b c | cut -d' ' -f2", "seq 10 | head -n 3 | wc -l",
]:
    add(s)

# -- stdin ---------------------------------------------------------------------------------------------------
add("cat", b"from stdin\n")
add("read x; echo got $x", b"line1\nline2\n")
add("while read -r l; do echo \"[$l]\"; done", b"a\nb\nc")
add("{ head -n 1; cat; } < nums.txt")
add("cat /dev/stdin | wc -l", b"x\ny\n")
add("read a; read b; echo $b $a", b"first\nsecond\n")

# -- misc -----------------------------------------------------------------------------------------------------
for s in [
    "x=1\ny=2\necho $x$y", "echo a;\necho b", "{ echo a\necho b\n}", "if true\nthen\necho multi\nfi",
    "for i in 1 2\ndo\necho $i\ndone", "f()\n{\necho fn\n}\nf", "echo a &&\necho b", "echo a |\ncat",
    "echo $'\\n' | wc -l", "v=$'line1\\nline2'; echo \"$v\" | wc -l", "echo \"${x:-$(echo d)}\"",
    "echo ${#x}", "a=b; b=c; echo $a $b", "echo '$HOME_UNSET' \"${HOME_UNSET:-h}\"", "echo $undefined_var x",
    "echo \"$undefined_var\" x", "set -- \"\"; echo $#", "v=' '; set -- $v; echo $#", "echo \"$(echo)\"x",
    "echo x >> app.txt; echo y >> app.txt; cat app.txt", "mkdir -p d1/d2 && echo f > d1/d2/f && cat d1/d2/f",
    "echo hello | tee t.txt | cat; cat t.txt", "touch nf.txt; echo $?", "rm a.txt; echo $?",
    "basename dir/sub/y.txt; dirname dir/sub/y.txt", "seq 3 | sort -r", "echo b a | tr ' ' '\\n' | sort",
    "printf 'a\\na\\nb\\n' | uniq -c", "date -u -d 2024-01-02 +%Y", "echo $(seq 1 3)", "cat notes.md | grep -i project",
    "ls", "ls dir", "ls -a dir", "wc -l a.txt b.txt", "head -n 2 a.txt; tail -n 1 a.txt",
]:
    add(s)

SCRIPTS = S

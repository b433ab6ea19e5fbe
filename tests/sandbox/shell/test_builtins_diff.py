"""Differential tests of the builtins ``read``, ``mapfile``, ``printf``, ``echo``, ``test`` /
``[``, ``[[ ]]`` and arithmetic against real bash 5.2: seeded generated cases, many cases
per script (one bash and one sandbox run each), stdout and status compared, and stderr where
bash's message is deterministic (byte for byte, ``bash: line N:`` included).

``BUILTINS_DIFF_SCALE=N`` multiplies the number of generated cases (CI: 1)."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

pytestmark = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

SCALE = int(os.environ.get("BUILTINS_DIFF_SCALE", "1"))


def octal(data: str) -> str:
    """A printf format writing exactly ``data``'s bytes (octal escapes: NUL-safe)."""
    return "".join(f"\\{b:03o}" for b in data.encode("utf-8", "surrogateescape"))


def sq(text: str) -> str:
    """Single-quote for the shell."""
    return "'" + text.replace("'", "'\\''") + "'"


def cases(lines: list[str]) -> str:
    """One script of generated cases, each after an ``echo '#case K'`` marker line."""
    return "\n".join(f"echo '#case {k}'\n{line}" for k, line in enumerate(lines))


def check(script: str, stdin: bytes = b"", stderr: bool = False) -> None:
    """Assert bash and the sandbox agree on stdout and status (and stderr if asked)."""
    ref = dt.run_bash(script, stdin)
    ours = dt.run_ours(script, stdin)
    where = f"\nscript: {script[:3000]}\nbash stderr: {ref.stderr!r}\nours stderr: {ours.stderr!r}"
    if ref.stdout != ours.stdout:
        a, b = ref.stdout.split(b"\n"), ours.stdout.split(b"\n")
        k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        marks = [m for m in a[:k + 1] if m.startswith(b"#case ")]
        if marks:  # a generated script: show only the case that differs
            case = int(marks[-1][6:])
            where = f"\ncase: {script.split(chr(10))[2 * case + 1]}{where[where.index(chr(10) + 'bash stderr'):]}"
        pytest.fail(f"stdout differs at line {k}:\n  bash: {a[max(0, k - 2):k + 2]!r}\n"
                    f"  ours: {b[max(0, k - 2):k + 2]!r}{where}")
    assert ref.status == ours.status, f"status: bash {ref.status}, ours {ours.status}{where}"
    if stderr:
        assert ref.stderr == ours.stderr, where


# -- read ---------------------------------------------------------------------------------------

_READ_CHARS = ["a", "b", "c", " ", " ", "\t", ":", "x", "\\", "\\", "\n", "\x01", "\x7f",
               "é", "\x00", "-", "日"]
_IFS_CHOICES = [None, " \t\n", "", ":", "x ", " :", "\\ ", ":\t", "x", "\\", " ",
                "\n", ": \t"]
_READ_OPTS = ["", "-r", "-n 3", "-n 1", "-r -n 4", "-N 3", "-r -N 5", "-d :", "-r -d :",
              "-d ''", "-d x -n 6", "-N 2 -d :", "-n 0", "-d é", "-n 4 -d é", "-r -d 日 -n 3"]


def _read_case(rng: random.Random) -> str:
    text = "".join(rng.choice(_READ_CHARS) for _ in range(rng.randint(0, 14)))
    ifs = rng.choice(_IFS_CHOICES)
    opts = rng.choice(_READ_OPTS)
    setifs = "unset IFS" if ifs is None else f"IFS=$'{octal(ifs)}'" if ifs else "IFS="
    if rng.random() < 0.25:
        body = f"read {opts} -a arr; s=$?; printf '<%s>' \"${{#arr[@]}}\" \"${{arr[@]}}\""
    else:
        names = ["v1", "v2", "v3", "v4"][:rng.randint(0, 4)]
        shown = " ".join(f'"${n}"' for n in names) or '"$REPLY"'
        body = f"read {opts} {' '.join(names)}; s=$?; printf '<%s>' {shown}"
    return (f"printf '{text and octal(text)}' | {{ {setifs}; {body}; echo \" s=$s\"; "
            "unset IFS; printf 'rest<%s>\\n' \"$(cat | tr '\\0\\1\\177' 'NCD')\"; }")


@pytest.mark.parametrize("seed", range(16 * SCALE))
def test_read_generated(seed: int) -> None:
    rng = random.Random(1300 + seed)
    check(cases([_read_case(rng) for _ in range(40)]))


def test_read_options_and_errors() -> None:
    check("""
read -x; echo $?
read -d; echo $?
read -n x a <<< abc; echo $?
read -n -1 a <<< abc; echo $?
read -t x <<< a; echo $?
read -t -1 <<< a; echo $?
read -t 1.5 a <<< abc; echo $? $a
read -t 0 <<< abc; echo $? "[$REPLY]"
read -u 7; echo $?
read -u x; echo $?
read -u -3; echo $?
read 1a <<< abc; echo $?
read a 1b <<< 'x y'; echo $? $a
readonly ro; read ro <<< v; echo $?
declare -A m; read -a m <<< 'a b'; echo $?
read -a 'bad-name' <<< 'a b'; echo $?
read -p 'prompt: ' -s -e -i init a <<< typed; echo $? $a
read -rn2 a <<< abcd; echo $? $a
read -u 3 a 3<<< 'from three'; echo $? "$a"
{ read -u 4 b; read -u 4 c; } 4<<'EOF'
one
two
EOF
echo "$b/$c"
read arr[2] <<< 'elem'; echo "${arr[2]}"
read -d '' -r a <<< $'multi\\nline\\\\'; echo $? "$a"
read a b <<< '  lead   and trail  '; echo "[$a][$b]"
read <<< '  keep  spaces  '; echo "[$REPLY]"
echo 'one\\
two' | { read a; echo "[$a]"; }
printf 'no newline' | { read a; echo $? "[$a]"; }
printf '' | { read a; echo $? "[$a]"; }
""", stderr=True)


def test_read_loops() -> None:
    check(r"""
printf 'a b\nc d\n\ne f' | while read -r x y; do echo "[$x|$y]"; done
printf 'k1=v1\nk2=v2\n' | while IFS== read -r k v; do echo "$k -> $v"; done
printf 'r1\0r2\0' | while IFS= read -r -d '' rec; do echo "<$rec>"; done
while read -r line; do echo "L:$line"; done < a.txt
while IFS=: read -ra parts; do echo "${#parts[@]} ${parts[-1]}"; done <<< 'a:b:c'
exec 3<a.txt; read -u 3 x; read -u 3 y; echo "$x/$y"; exec 3<&-; read -u 3 z; echo $?
while read -u 4 line; do echo "[$line]"; done 4< nums.txt
exec {fd}<b.txt; read -u $fd l; echo "$l"; mapfile -u $fd rest; echo ${#rest[@]}
read -r -d '' all < b.txt; printf '%q\n' "$all"; IFS= read -r -N 4 four < b.txt; printf '%q\n' "$four"
""")


# -- mapfile ------------------------------------------------------------------------------------

_MAP_OPTS = ["", "-t", "-n 2", "-s 1", "-O 3", "-t -d :", "-d ''", "-t -n 1 -s 1", "-O 1 -t",
             "-d x", "-n 0 -t"]


def _mapfile_case(rng: random.Random) -> str:
    text = "".join(rng.choice(["a", "b", "\n", "\n", ":", "x", " ", "\x00", "é"])
                   for _ in range(rng.randint(0, 12)))
    opts = rng.choice(_MAP_OPTS)
    pre = rng.choice(["", "arr=(old0 old1 old2 old3 old4); ", "arr=scalar; "])
    return (f"{pre}mapfile {opts} arr < <(printf '{text and octal(text)}'); s=$?; "
            "printf '<%s>' \"${!arr[@]}\" ; printf '[%s]' \"${arr[@]}\"; echo \" s=$s\"")


@pytest.mark.parametrize("seed", range(6 * SCALE))
def test_mapfile_generated(seed: int) -> None:
    rng = random.Random(2300 + seed)
    check(cases([_mapfile_case(rng) for _ in range(40)]))


def test_mapfile_options_and_errors() -> None:
    check("""
mapfile -n x a; echo $?
mapfile -n -1 a; echo $?
mapfile -O x a; echo $?
mapfile -s x a; echo $?
mapfile -c 0 a; echo $?
mapfile -u 9 a; echo $?
mapfile -u x a; echo $?
mapfile ''; echo $?
mapfile 1a; echo $?
mapfile -z; echo $?
readonly r; mapfile r < /dev/null; echo $?
declare -A m; mapfile m < /dev/null; echo $?
mapfile < a.txt; echo "${#MAPFILE[@]} ${MAPFILE[1]}"
readarray -t lines < a.txt; echo "${lines[*]}"
mapfile -t -u 3 fromfd 3< nums.txt; echo "${fromfd[@]}"
mapfile -t first second < a.txt; echo "${first[2]}"
""", stderr=True)


# -- printf / echo --------------------------------------------------------------------------------

_ESC_PIECES = ["\\0377", "\\377", "\\1234", "\\08", "\\0", "\\1", "\\8", "\\x41", "\\x4", "\\x",
               "\\xZ", "\\u00e9", "\\u", "\\U1F600", "\\U110000", "\\uD800", "\\c", "\\q", "\\'",
               '\\"', "\\?", "\\\\", "\\e", "\\a", "\\%d", "x", " ", "%", "é", "\\"]
_TIME_FMTS = ["%Y-%m-%d", "%H:%M:%S", "", "%s", "%F %T %z %Z", "%a %b %e", "%c", "%j|%U|%W",
              "%N|%q|%:z", "%5Y|%-d|%_H|%^a|%#b", "%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y"
              "%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y", "%%|%n|%t|%P|%p|%I|%l|%k"]
_TIME_ARGS = ["0", "1557978599", "-86400", "2147483647", "abc", "12x", "", "0x10", "010"]
_ZONES = ["UTC", "Asia/Tokyo", "US/Eastern", "Europe/Lisbon", "UTC+3", "EST5EDT"]


def _printf_case(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.3:
        fmt = "".join(rng.choice(_ESC_PIECES) for _ in range(rng.randint(1, 5)))
        return f"printf {sq(fmt + '|')} 5 6; echo \" s=$?\""
    if kind < 0.55:
        arg = "".join(rng.choice(_ESC_PIECES) for _ in range(rng.randint(1, 5)))
        return f"printf '[%b]\\n' {sq(arg)} {sq(rng.choice(_ESC_PIECES))}; echo \" s=$?\""
    if kind < 0.75:
        text = " ".join(sq("".join(rng.choice(_ESC_PIECES) for _ in range(rng.randint(0, 3))))
                        for _ in range(rng.randint(1, 3)))
        return f"echo {rng.choice(['-e', '-en', '-E', '-e -E', '-ne', ''])} {text}; echo \" s=$?\""
    spec = rng.choice(["", "10", "-12", ".5", "10.3", "*"])
    tf = rng.choice(_TIME_FMTS)
    width = f"{rng.randint(0, 12)} " if spec == "*" else ""
    nargs = 1 if spec == "*" else rng.randint(1, 2)  # a reused '*' would take a time as width
    args = " ".join(sq(rng.choice(_TIME_ARGS)) for _ in range(nargs))
    return (f"TZ={rng.choice(_ZONES)} printf {sq('[%' + spec + '(' + tf + ')T]')} {width}{args}; "
            "echo \" s=$?\"")


@pytest.mark.parametrize("seed", range(8 * SCALE))
def test_printf_echo_generated(seed: int) -> None:
    rng = random.Random(3300 + seed)
    check(cases([_printf_case(rng) for _ in range(50)]), stderr=True)


def test_printf_numbers_and_messages() -> None:
    check(r"""
printf '%d\n' 0X1G 0x 09 0 -08 ' 08' 0.5 '' 1e3 "'x" '"y' 9999999999999999999; echo $?
printf '%f|%a|%A|%g\n' 0x1G 0x1.8p3 0x.8 -0x10 0xp3 0x1p-2 0X1A.8 1e-4950 1 255.5; echo $?
printf '%a|%.2a|%.0a|%#.0a|%+a|%10a|%-12a|%010a|%a|%a\n' 1 3.14159 1.5 1 2 0.1 7 -3 0 -nan
printf '%5'; echo $?
printf '%-5.3l'; echo $?
printf '%5(x)Y|\n'; echo $?
printf '%z'; echo $?
printf -x; echo $?
printf; echo $?
printf '%s %s|' a b c; echo
printf '%c|%c|%c\n' '' abc é
printf '%q\n' '' "a'b" $'\t' '~x' '#y' é $'\xff'
printf -v 'arr[3]' '%s-%s' x y; echo "${arr[3]}"
declare -A m; printf -v 'm[k k]' %d 42; echo "${m[k k]}"
printf -v out '%s\n' a b; echo "[$out]"
printf -v 'x[' %s a; echo $?; printf -v '' %s a; echo $?; printf -v x; echo $?
printf -v x -- '%s' y; echo $? $x; printf -v -- z; echo $?
readonly r; printf -v r %s 1; echo $?; printf -v y '%d' abc; echo $? "[$y]"
""", stderr=True)


def test_xpg_echo() -> None:
    check(r"""
shopt -s xpg_echo
echo 'a\tb'; echo -E 'a\tb'; echo -n 'x\c'; echo y
shopt -u xpg_echo
echo 'a\tb'
""")


# -- test / [ and [[ ]] ---------------------------------------------------------------------------

_TEST_TOKENS = ["!", "(", ")", "-a", "-o", "-n", "-z", "=", "==", "!=", "<", ">", "-eq", "-ne",
                "-lt", "-ge", "-f", "-d", "-e", "-s", "-r", "-w", "-x", "-t", "-v", "-c", "-h",
                "-L", "-k", "-p", "-O", "-ef", "a.txt", "dir", "nope", "empty.txt", "", "x", "1",
                "02", "-3", " 4 ", "abc", "HOME", "]", "/dev/null", "99999999999999999999",
                "errexit", "noglob", "=~", "-R", "-Z", "0x1"]


def _test_case(rng: random.Random) -> str:
    words = " ".join(sq(rng.choice(_TEST_TOKENS)) for _ in range(rng.randint(0, 6)))
    form = rng.random()
    if form < 0.45:
        return f"[ {words} ]; echo \"s=$?\""
    if form < 0.9:
        return f"test {words}; echo \"s=$?\""
    return f"[ {words}; echo \"s=$?\""


@pytest.mark.parametrize("seed", range(8 * SCALE))
def test_test_builtin_generated(seed: int) -> None:
    rng = random.Random(4300 + seed)
    check("set -o noglob; " + cases([_test_case(rng) for _ in range(60)]), stderr=True)


_DB_WORDS = ["abc", "'a b'", '"$x"', "$x", "$y", "''", '"${arr[@]}"', "${arr[*]}", '"$@"',
             "$((1+2))", "~", "~/x", "a.txt", "dir", "nope", "3", "-3", "' 7 '", "x+1", "y*2",
             "08", "0x1f", "2#101"]
_DB_PATTERNS = ["a*", "'a*'", '"a"*', "[ab]?c", "*", "?", "@(abc|x)", "*b*", "$x", '"$x"',
                "a\\*", "{a,b}", "~", "[[:alpha:]]*"]
_DB_REGEX = ["^a(b)c$", "(a|x)+", "'a.c'", "a.c", "^([0-9]+)-([0-9]+)$", "b", "[", "(x)?y",
             "^$", "\\.", "$x", '"$x"', "a{1,2}"]


def _db_expr(rng: random.Random, depth: int = 0) -> str:
    k = rng.random()
    if depth < 2 and k < 0.2:
        op = rng.choice(["&&", "||"])
        return f"{_db_expr(rng, depth + 1)} {op} {_db_expr(rng, depth + 1)}"
    if depth < 2 and k < 0.27:
        return f"! {_db_expr(rng, depth + 1)}"
    if depth < 2 and k < 0.33:
        return f"( {_db_expr(rng, depth + 1)} )"
    w = lambda: rng.choice(_DB_WORDS)  # noqa: E731
    kind = rng.random()
    if kind < 0.25:
        return f"{w()} {rng.choice(['==', '=', '!='])} {rng.choice(_DB_PATTERNS)}"
    if kind < 0.4:
        return f"{w()} =~ {rng.choice(_DB_REGEX)}"
    if kind < 0.6:
        return f"{w()} {rng.choice(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])} {w()}"
    if kind < 0.7:
        return f"{w()} {rng.choice(['<', '>'])} {w()}"
    if kind < 0.9:
        return f"{rng.choice(['-n', '-z', '-f', '-d', '-e', '-s', '-v', '-c', '-x', '-o'])} {w()}"
    return w()


@pytest.mark.parametrize("seed", range(8 * SCALE))
def test_dbracket_generated(seed: int) -> None:
    rng = random.Random(5300 + seed)
    pre = "shopt -s extglob; x=abc; y=3; arr=('a b' c); set -- 'a b' c; HOME=/home/u; "
    check(pre + cases([f"[[ {_db_expr(rng)} ]]; echo \"s=$? ${{BASH_REMATCH[*]}}\""
                       for _ in range(50)]), stderr=True)


def test_conditionals_by_hand() -> None:
    check(r"""
touch -d '2020-01-01' old.txt; touch -d '2021-01-01' new.txt
[ new.txt -nt old.txt ] && echo nt; [ old.txt -ot new.txt ] && echo ot
[ a.txt -nt nope ] && echo nt2; [ nope -ot a.txt ] && echo ot2; [ nope -nt nope ] || echo none
[ a.txt -ef a.txt ] && echo ef; [ a.txt -ef ./a.txt ] && echo ef2; [ a.txt -ef b.txt ] || echo nef
[[ new.txt -nt old.txt ]] && echo dnt; [[ a.txt -ef ./dir/../a.txt ]] && echo def
a=(1 2); [ -v 'a[1]' ] && echo v1; [ -v 'a[5]' ] || echo v5; [[ -v a[@] ]] && echo vall
declare -A m=([k]=v); [[ -v m[k] ]] && echo mk; [[ -v m[z] ]] || echo mz
set -o pipefail; [ -o pipefail ] && echo pf; [[ -o noglob ]] || echo ng
[ -c /dev/null ] && echo cnull; [ -f /dev/null ] || echo fnull; [ -w /dev/null ] && echo wnull
echo $(( 083 )); echo "after $?"
echo ${x:1/0}; x=abc; echo ${x:1/0}; echo same-line
echo "next $?"
[ 083 -eq 83 ] && echo dec
""")


# -- arithmetic -----------------------------------------------------------------------------------

_ARITH_ATOMS = ["0", "1", "7", "42", "-3", "010", "08", "0x1F", "0X1f", "2#101", "16#ff",
                "64#@_", "36#Z", "37#Z", "1#0", "9223372036854775807", "9223372036854775808",
                "x", "y", "s", "e", "u", "arr[1]", "arr[-1]", "arr[9]", "m[k]", "m['k']",
                "m[\"k k\"]", "'1'", "1.5", "$x", "${#s}", "a b", "@", "0x", "3#"]
_ARITH_BIN = ["+", "-", "*", "/", "%", "**", "<<", ">>", "<", ">", "<=", ">=", "==", "!=",
              "&", "|", "^", "&&", "||", ","]
_ARITH_ASSIGN = ["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="]


def _arith_expr(rng: random.Random, depth: int = 0) -> str:
    k = rng.random()
    if depth >= 3 or k < 0.3:
        return rng.choice(_ARITH_ATOMS)
    if k < 0.55:
        return f"{_arith_expr(rng, depth + 1)} {rng.choice(_ARITH_BIN)} {_arith_expr(rng, depth + 1)}"
    if k < 0.65:
        return f"{rng.choice(['!', '~', '-', '+', '- -'])}{_arith_expr(rng, depth + 1)}"
    if k < 0.75:
        return f"({_arith_expr(rng, depth + 1)})"
    if k < 0.82:
        return (f"{_arith_expr(rng, depth + 1)} ? {_arith_expr(rng, depth + 1)} : "
                f"{_arith_expr(rng, depth + 1)}")
    if k < 0.92:
        target = rng.choice(["x", "y", "arr[2]", "m[k]", "z", "1", "s"])
        return f"{target} {rng.choice(_ARITH_ASSIGN)} {_arith_expr(rng, depth + 1)}"
    return rng.choice(["x++", "++x", "y--", "--y", "arr[1]++", "++m[k]", "1++", "++1", "x+++y",
                       "x---y", "-- x"])


def _arith_case(rng: random.Random) -> str:
    e = _arith_expr(rng)
    form = rng.random()
    if form < 0.5:
        run = f"echo \"r=$(( {e} ))\""
    elif form < 0.8:
        run = f"(( {e} )); echo \"s=$?\""
    else:
        run = f"let {sq(e)}; echo \"s=$?\""
    return run + '\necho "v=$x,$y,$z,${arr[*]},${m[k]},$s"'


_ARITH_PRE = ("x=5; y=-2; s='x+1'; e='1 +'; arr=(10 20 30); declare -A m=([k]=3 ['k k']=4); ")


@pytest.mark.parametrize("seed", range(10 * SCALE))
def test_arith_generated(seed: int) -> None:
    rng = random.Random(6300 + seed)
    lines = [_ARITH_PRE + _arith_case(rng) for _ in range(40)]
    check(cases(lines), stderr=True)


def test_arith_by_hand() -> None:
    check(r"""
echo $(( 1 +
  2 ))
echo $(( 2#1010 + 8#17 + 16#fF + 36#z + 64#_ )) $(( 9223372036854775807 + 1 )) $(( -9223372036854775808 / -1 ))
echo $(( 2**63 )) $(( 2**64 )) $(( 7 % -3 )) $(( -7 / 2 )) $(( 1 << 64 )) $(( 1 << 63 >> 63 ))
s='12 34'; echo $(( s[0] ))
echo next $?
x='y'; y='z'; z=7; echo $(( x + 1 ))
r='r'; echo $(( r ))
echo after $?
declare -A A=(['foo']=bar ['spam']=42); (( x = A['spam'] )); echo $x
(( 1 + )); echo "s=$?"
let 'a = 5, b = a * 2' c=b+1; echo $a $b $c
echo $(( 0x )); echo done
echo $(( 10#08 )) $(( 010 )) $(( 1e3 ))
echo last
""", stderr=True)

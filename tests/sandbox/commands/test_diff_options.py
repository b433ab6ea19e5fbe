"""Differential tests of diff's ed/RCS/if-then-else formats, -L, -p/-F, -I, -t/-T,
--tabsize, --suppress-blank-empty, --from-file/--to-file, --unidirectional-new-file, -S and
the name-case options against GNU diffutils 3.8, through the whole sandbox.

Generated cases (``DIFF_OPTION_CASES``, default 360): seeded random C-like files, randomly
edited, with CRLF, missing final newlines and invalid UTF-8, under random sets of the new
options; stdout, stderr and the exit status must match byte for byte.
"""

from __future__ import annotations

import os
import random
import shlex
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from exec_support import check_all, missing  # noqa: E402

pytestmark = pytest.mark.skipif(missing("diff") is not None, reason=str(missing("diff")))

C1 = (b"#include <stdio.h>\n\nint main(void)\n{\n\tint x = 1;\n\tint y = 2;\n\treturn x + y;\n}\n"
      b"\nstatic int helper(int a)\n{\n    a += 1;\n    a *= 2;\n    a -= 3;\n    return a;\n}\n"
      b"$var = 1;\n_under:\n  indented(void)\n{\n\tz;\n}\n")
C2 = (b"#include <stdio.h>\n\nint main(void)\n{\n\tint x = 10;\n\tint y = 2;\n\treturn x + y;\n}\n"
      b"\nstatic int helper(int a)\n{\n    a += 1;\n    a *= 3;\n    a -= 3;\n    return a;\n}\n"
      b"$var = 2;\n_under:\n  indented(void)\n{\n\tz2;\n}\nextra\n")
TREE = {
    "c1": C1, "c2": C2,
    "a": b"one\ntwo\nthree\nfour\nfive\n", "b": b"one\n2\nthree\nfour\nFIVE\nsix\n",
    "dot1": b"x\n.\ny\n", "dot2": b"z\n.\n.\nq\n", "nonl1": b"x\n.\ny", "nonl2": b"z\n.\n.\nq",
    "n1": b"x", "n2": b"x\n", "empty": b"",
    "crlf1": b"a\r\nb\r\nc\r\n", "crlf2": b"a\r\nB\r\nc\r\n",
    "tab1": b"a\tb\n\tc\n\n x\td\r\te\n", "tab2": b"a\tB\n\tc\n\n y\td\r\te\n\n",
    "bad1": b"caf\xe9\n\xff\xfe\nok\n", "bad2": b"caf\xc3\xa9\n\xff\xfe\nOK\n",
    "bl1": b"a\n\nb\n#c\nd\n", "bl2": b"a\nb\n\n#C\n#x\nd\n",
    "d1/x": b"1\n", "d1/y": b"2\n", "d1/z": b"3\n", "d1/W": b"w\n",
    "d2/x": b"1\n", "d2/y": b"two\n", "d2/z": b"three\n", "d2/w": b"w\n",
    "p1": b"int a_very_long_function_name_that_goes_on_and_on(void) {\r\n1\r\n2\r\n3\r\n4\r\n5\r\n",
    "p2": b"int a_very_long_function_name_that_goes_on_and_on(void) {\r\n1\r\n2\r\n3\r\nX\r\n5\r\n",
    "p3": b"x\n\t  " + b"caf\xc3\xa9 " * 8 + b"\nq\nw\ne\nr\n",
    "p4": b"x\n\t  " + b"caf\xc3\xa9 " * 8 + b"\nq\nw\ne\nR\n",
    "p5": b"f   \t\nb\nc\nd\ne\n", "p6": b"f   \t\nb\nc\nd\nE",
}

Q = "'"
HAND = [
    # -L
    "diff -L L1 -L L2 -u a b", "diff -LL1 -LL2 -c a b", "diff -L only -u a b",
    "diff -L x -L y -L z a b", "diff -L x a b", "diff -u -L", "diff --label=A -L B -u a b",
    # -p / -F
    "diff -p c1 c2", "diff -u -p c1 c2", "diff -c -p c1 c2", "diff -U1 -p c1 c2",
    "diff -U0 -p c1 c2", "diff -F '^static' -u c1 c2", "diff -F '^[$_]' -U1 c1 c2",
    "diff -F 'a' -F 'q' -U0 c1 c2", "diff -F '\\(' a b", "diff -F '[' -u a b",
    "diff -F 'x\\{1' a b", "diff -p -e c1 c2", "diff -F '^i' c1 c2", "diff -p -i -U0 c1 c2",
    "diff -F '^INT' -i -U1 c1 c2", "diff -F x -U0 a b", "diff --show-function-line='^.' -u a b",
    "diff --show-c-function -C1 c1 c2",
    # line / group formats, -D
    "diff -D FOO a b", "diff --ifdef=FOO c1 c2", "diff -D FOO a a", "diff -D FOO nonl1 nonl2",
    "diff -D x -D y a b", "diff -D x -D x a b", "diff -D N --old-group-format=OLD a b",
    "diff --line-format='%L' a b", "diff --line-format='%l|%L' nonl1 nonl2",
    "diff --old-line-format='-%l\n' --new-line-format='+%l\n' --unchanged-line-format=' %l\n' a b",
    "diff --line-format='%dn %5dn %-5dn| %05dn %o%on %xn %Xn %.3dn %c" + Q + "\\101" + Q
    + " %c" + Q + "x" + Q + " %l\n' a b",
    "diff --changed-group-format='<%dF,%dL,%dN,%dE,%dM,%df,%dl,%dn,%de,%dm>%<--\n%>' a b",
    "diff --changed-group-format='%(N=1?one:many) %(f=F?same:diff) %(1=1?a%(2=2?b:c)d:e)\n'"
    " --unchanged-group-format='' a b",
    "diff --old-group-format='%(x=1?a:b) %(N=7' a b",
    "diff --line-format=\"%q %c'\\\\' %cx %5 %(\" a b", "diff --new-group-format='[%>]' --old-group-format='{%<}' a b",
    "diff --unchanged-group-format='' --changed-group-format='%<' a b",
    "diff --line-format=x --line-format=y a b", "diff --old-line-format=x --old-line-format=y a b",
    "diff --new-group-format=x --new-group-format=y a b", "diff --line-format=x -u a b",
    "diff -u --line-format=x a b", "diff -D N -y a b", "diff --line-format='%L' -t tab1 tab2",
    "diff --line-format='%l\n' --tabsize=4 -t tab1 tab2", "diff -D N -B bl1 bl2",
    "diff -D N -I '^#' bl1 bl2", "diff --unchanged-group-format='%dn%dN\n' a b",
    "diff --line-format=\"%c'\\0'%c'\\1234'%c''%c'\\'%c'ab'%c'\\18'%L\" a b",
    "diff -D N crlf1 crlf2", "diff -D N bad1 bad2", "diff -D N empty a", "diff -D N a empty",
    "diff --old-line-format='%-08dn;%+dn;%#xn\n' a b",
    # ed / RCS
    "diff -e a b", "diff --ed c1 c2", "diff -e dot1 dot2", "diff -e dot2 dot1",
    "diff -e nonl1 nonl2", "diff -e n1 n2", "diff -e n1 n1", "diff -e a empty", "diff -e empty a",
    "diff -n a b", "diff --rcs c1 c2", "diff -n nonl1 nonl2", "diff -n a empty", "diff -n empty a",
    "diff -e -n a b", "diff -u -e a b", "diff -e -u a b", "diff -n -q a b", "diff -e crlf1 crlf2",
    "diff -e -B bl1 bl2", "diff -n -I '^#' bl1 bl2", "diff -e bad1 bad2",
    # -t, -T, --tabsize, --suppress-blank-empty
    "diff -t tab1 tab2", "diff -T tab1 tab2", "diff -t -T tab1 tab2", "diff -u -T tab1 tab2",
    "diff -c -T tab1 tab2", "diff -u -t --tabsize=3 tab1 tab2", "diff -c -t tab1 tab2",
    "diff --tabsize=0 a b", "diff --tabsize=x a b", "diff --tabsize=1 -t tab1 tab2",
    "diff --suppress-blank-empty tab1 tab2", "diff --suppress-blank-empty -u tab1 tab2",
    "diff --suppress-blank-empty -c tab1 tab2", "diff --suppress-blank-empty -T -u tab1 tab2",
    "diff --suppress-blank-empty -T -c bl1 bl2", "diff -T nonl1 nonl2", "diff -u -T nonl1 nonl2",
    "diff -t crlf1 crlf2",
    # -I
    "diff -I '^#' bl1 bl2", "diff -I '^#' -u bl1 bl2", "diff -I '^#' -B bl1 bl2; echo $?",
    "diff -I '^#' -I '^$' bl1 bl2; echo $?", "diff -I '\\(' a b", "diff -I 'o' a b",
    "diff -I '[0-9]' -I 'FIVE\\|six' a b; echo $?", "diff -i -I 'five' -U0 a b",
    "diff -I 'five' -i -U0 a b", "diff --ignore-matching-lines=x -c a b", "diff -B -b bl1 bl2",
    # from-file / to-file, unidirectional, -S, name case, no-dereference
    "diff --from-file=a b c1", "diff --from-file a b", "diff --to-file=a b c1",
    "diff --from-file=a --to-file=b a", "diff --from-file=a", "diff --from-file=a nope b",
    "diff -u --to-file=a b", "diff --from-file=d1 d2", "diff --unidirectional-new-file nope a",
    "diff --unidirectional-new-file a nope", "diff -r --unidirectional-new-file d1 d2",
    "diff -S y d1 d2", "diff -S y -r d1 d2", "diff --starting-file=z d1 d2", "diff -S y a b",
    "diff --ignore-file-name-case d1 d2", "diff --no-ignore-file-name-case d1 d2",
    "diff --no-dereference -u a b",
]

# side by side under -t/--tabsize, styles with -r, formats' edge cases, number parsing
HAND += [
    'diff -y -t tab1 tab2',
    'diff -y --tabsize=4 tab1 tab2',
    'diff -y -T tab1 tab2',
    'diff -y -t --tabsize=3 -W 40 tab1 tab2',
    'diff -y --suppress-blank-empty bl1 bl2',
    'diff -y -p c1 c2',
    "diff -y -I '^#' bl1 bl2",
    'diff -D N -q a b',
    'diff -q -e a b',
    'diff -s -D N a a',
    'diff -s -e a a',
    "diff -e -I '^#' bl1 bl2",
    "diff -u -I '^#' -U1 bl1 bl2",
    "diff -c -I '^#' bl1 bl2",
    'diff -D N -t tab1 tab2',
    'diff -e -t tab1 tab2',
    'diff -r -e d1 d2',
    'diff -r -D X d1 d2',
    'diff -r -n d1 d2',
    'diff -r -p d1 d2',
    'diff -rN --line-format=%L d1 d2',
    'diff -u -p a b',
    'diff -p -U 0 a b',
    'diff -F o -F t -u a b',
    'diff -c -F . a b',
    'diff -L a -D N a b',
    'diff -L a -e a b',
    'diff --label x --label y -p c1 c2',
    'diff -u --label x --from-file=a b c1',
    'diff --from-file=a a b',
    'diff --to-file=nope a b',
    'diff --from-file=nope a b',
    'diff --from-file=d1 a',
    'diff --to-file=d1 d2',
    'diff --from-file=a --from-file=b c1',
    'diff -e nonl1 nonl1',
    'diff -e -a nonl1 nonl2',
    'diff -n -a nonl1 nonl2',
    'diff -D N -a nonl1 nonl2',
    "diff --line-format='%l' nonl1 nonl2",
    "diff --unchanged-line-format='' --old-line-format='%dn<%l\\n' --new-line-format='%dn>%l\\n' c1 c2",
    "diff --changed-group-format='***%df***' --old-group-format= --new-group-format= a b",
    'diff --line-format= a b',
    "diff --old-group-format='%(e=0?top:%de)' a b",
    "diff --new-group-format='%(E=0?top:%dE)%>' empty a",
    "diff --old-group-format='%(l=m?x:y)%(L=M?x:y)' a b",
    "diff --changed-group-format='%(99999999999999999999=1?a:b)' a b",
    "diff --changed-group-format='%(0001=1?a:b)' a b",
    "diff --changed-group-format='%%%<%%' a b",
    "diff --line-format='%' a b",
    "diff --changed-group-format='%' a b",
    "diff --changed-group-format='%c' a b",
    'diff --changed-group-format="%c\'" a b',
    "diff --changed-group-format='%3.2dn' a b",
    "diff --changed-group-format='%05.3dF %-+3dL %x' a b",
    'diff -T -D N tab1 tab2',
    'diff --tabsize=99999999999999999999 tab1 tab2',
    'diff --tabsize=-1 a b',
    'diff --suppress-blank-empty -e bl1 bl2',
    'diff --suppress-blank-empty bl1 bl2',
    'diff --suppress-blank-empty -T bl1 bl2',
    'diff -S a a b',
    "diff -S '' d1 d2",
    'diff --ignore-file-name-case -r d1 d2',
    'diff -p --normal c1 c2',
    'diff -p -n c1 c2',
    'diff -I x -q a b',
    "diff -I '' a b",
    "diff -F '' -u a b",
    "diff -I 'a\\|' a b",
    "diff -I '*x' a b",
    "diff -I 'a**' a b",
    "diff -I '\\)' a b",
    "diff -I 'a\\{2,1\\}' a b",
    "diff -I '[[:foo:]]' a b",
    "diff -I '\\' a b",
    "diff -U '' a b",
    "diff -U ' +2' a b",
    "diff -U '2 ' a b",
    'diff -C -0 a b',
    'diff -U 99999999999999999999 a b',
    'diff -W -3 -y a b',
    "diff -W ' +30' -y a b",
    "diff --tabsize=' 4' -t tab1 tab2",
    'diff --tabsize=-0 a b',
    'diff --tabsize= a b',
]

# GNU acts on the options before a refused one
HAND += [
    "diff -F '\\(' --bogus a b",
    "diff --bogus -F '\\(' a b",
    'diff -u -e --bogus a b',
    'diff --help --bogus | head -2',
    'diff -I x -F',
    "diff -F '\\(' -Q",
    'diff -u -c -U',
    'diff -u --line-format=x --bogus',
    'diff --from-file=a --to-file=b --bogus a',
    'diff -D',
    'diff --line-format',
    'diff -L',
    'diff -S',
    'diff -I',
]

# repeated values
HAND += [
    'diff --tabsize=4 --tabsize=3 a b',
    'diff --tabsize=4 --tabsize=4 a b',
    'diff -W 40 -W 50 -y a b',
    'diff -W 40 -W 40 -y a b',
    'diff -S a -S b a b',
    'diff -S a -S a a b',
    'diff --tabsize=4 --tabsize=3 --bogus a b',
    'diff --tabsize=4 --tabsize=3 -u -e a b',
    'diff -U 2 -U 3 a b',
]

# -e reads two identical files unless they are one
HAND += [
    'cp n1 n3; diff -e n1 n3',
    'cp n1 n3; diff -e - n1 < n3',
    'diff -e n1 n1',
    'diff -e - - < n1',
    'diff -e n1 ./n1',
    'cp n1 n3; diff -e -q n1 n3',
    'cp n1 n3; diff -D X n1 n3',
    'cp n1 n3; diff -n n1 n3',
]

# the function line's 40 bytes, white space and CR; the largest context asked for
HAND += [
    'diff -p -U1 p1 p2',
    'diff -F . -U1 p3 p4',
    "diff -F '^.' -c -C0 p3 p4",
    "diff -F '^f' -U0 p5 p6",
    "diff -F '^\t' -U0 p3 p4",
    "diff -F 'caf\\xc3' -U0 p3 p4",
    "diff --label=- -L '' -u p5 p6",
    "diff -F '\\`f' -U0 p5 p6",
    "diff -F 'e$' -U0 p5 p6",
    "diff -F '\\bf\\b' -U0 p5 p6",
    "diff -F '\\(f\\)\\1' -U0 p5 p6",
    "diff -I '^E$' p5 p6",
    'diff -U 5 -U 1 p5 p6',
    'diff -U 1 -U 5 p5 p6',
    'diff -C0 -c p3 p4',
    'diff -c -C0 p3 p4',
    'diff -U0 -u p3 p4',
    'diff -U0 -p p3 p4',
    'diff -p -U0 p3 p4',
    'diff -C0 -p p3 p4',
    'diff -p p3 p4',
    'diff -U0 -C 1 p3 p4',
    'diff --unified=0 --unified p3 p4',
    'diff -U0 -U1 -U0 a b',
]

# a newline in a regex separates alternatives (RE_NEWLINE_ALT); regex errors
HAND += [
    "diff -I $'2\\nFIVE' -I six a b",
    "diff -I $'2\\n' a b",
    "diff -F $'^t\\n^f' -U0 a b",
    "diff -I 'a\\{1' a b",
    "diff -I 'x\\' a b",
    "diff -I $'\\\\(\\n' a b",
    "diff -I '[[:alpha:]' a b",
    "diff -I 'a\\|*b' a b",
    "diff -I '\\{1\\}' a b",
]


@pytest.mark.parametrize("script", HAND)
def test_hand_written(script: str) -> None:
    check_all([(script + "; echo \"rc=$?\"", TREE)])


LINES = [b"int f(void)", b"{", b"}", b"", b"\treturn 0;", b"  x = 1;", b"static int g;",
         b"_label:", b"$x", b"#define A", b".", b"caf\xc3\xa9", b"bad\xff", b"a\tb\tc", b" ",
         b"ALPHA", b"alpha", b"    deep", b"x\ty"]


def _file(rng: random.Random, n: int) -> list[bytes]:
    return [rng.choice(LINES) for _ in range(n)]


def _edit(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    out = list(lines)
    for _ in range(rng.randint(0, 5)):
        pos = rng.randint(0, len(out))
        op = rng.random()
        if op < 0.35:
            out[pos:pos] = _file(rng, rng.randint(1, 3))
        elif op < 0.6:
            del out[pos:pos + rng.randint(1, 3)]
        else:
            out[pos:pos + rng.randint(1, 2)] = _file(rng, rng.randint(1, 2))
    return out


def _join(rng: random.Random, lines: list[bytes]) -> bytes:
    sep = b"\r\n" if rng.random() < 0.1 else b"\n"
    data = sep.join(lines)
    if lines and rng.random() < 0.85:
        data += sep
    return data


FORMATS = ["%l\n", "%L", "[%dn]%l\n", "%3dn %L", "<%l>\n", "%c'\\t'%L", "%xn:%L", ""]
GROUPS = ["%<", "%>", "%=", "{%dF-%dL %de %dm %dN}\n%<%>", "%(N=0?none:%dN)\n%<%>",
          "%(n=N?same:diff)%<--\n%>", "", "#%df,%dl\n%<"]


def _options(rng: random.Random) -> list[str]:
    kind = rng.random()
    opts: list[str] = []
    if kind < 0.15:
        opts += [rng.choice(["-e", "-n", "--ed", "--rcs"])]
    elif kind < 0.3:
        opts += ["-D", rng.choice(["N", "FOO_H"])]
    elif kind < 0.5:
        for name in ("line", "old-line", "new-line", "unchanged-line"):
            if rng.random() < 0.35:
                opts.append(f"--{name}-format={rng.choice(FORMATS)}")
        for name in ("old-group", "new-group", "changed-group", "unchanged-group"):
            if rng.random() < 0.35:
                opts.append(f"--{name}-format={rng.choice(GROUPS)}")
        if not opts:
            opts.append("--line-format=%dn:%L")
    else:
        opts += rng.choice([["-u"], ["-c"], ["-U0"], ["-U1"], ["-C1"], ["-p"], [], ["-U2"]])
        if rng.random() < 0.6:
            opts += rng.choice([["-p"], ["-F", "^[a-z]"], ["-F", "^[$_#]"], ["-F", "x"],
                                ["-F", "^int", "-F", "^static"]])
        if rng.random() < 0.4:
            opts += rng.choice([["-t"], ["-T"], ["-t", "--tabsize=4"], ["--suppress-blank-empty"],
                                ["-T", "--suppress-blank-empty"], ["-t", "-T"]])
        if rng.random() < 0.2:
            opts += ["-L", "old", "-L", "new"]
    if rng.random() < 0.25:
        opts += rng.choice([["-I", "^#"], ["-I", "^[{}]$"], ["-B"], ["-I", "a", "-B"], ["-i"],
                            ["-b"], ["-w", "-B"]])
    if rng.random() < 0.1 and not any(o.startswith("-e") or o == "-n" for o in opts):
        opts += rng.choice([["-t"], ["--tabsize=3", "-t"]])
    return opts


def test_generated() -> None:
    rng = random.Random(3808)
    cases = []
    for _ in range(int(os.environ.get("DIFF_OPTION_CASES", "360"))):
        base = _file(rng, rng.randint(0, 30))
        a = _join(rng, base)
        b = _join(rng, _edit(rng, base)) if rng.random() < 0.95 else a
        opts = _options(rng)
        cases.append((f"diff {shlex.join(opts)} f1 f2; echo \"rc=$?\"", {"f1": a, "f2": b}))
    check_all(cases)


PIECES = ["%l", "%L", "%%", "%c'x'", "%c'\\101'", "%c'\\0'", "%c'\\'", "%c''", "%c'ab'",
          "%dn", "%5dn", "%-3on", "%05xn", "%.2Xn", "%'dn", "%dq", "%", "%z", "%.", "%5",
          "\n", "\t", "|", "x", " ", "%c", "%c'"]
GROUP_PIECES = ["%<", "%>", "%=", "%%", "%dF", "%dL", "%dN", "%dE", "%dM", "%df", "%dl",
                "%dn", "%de", "%dm", "%3xN", "%-4oF", "%.0de", "%dz", "%c'y'", "\n", "[", "]",
                "%(N=1?one:more)", "%(n=0?:%<)", "%(F=f?%>:x)", "%(e=E?a%(1=1?b:c)d:)",
                "%(0=N?empty:%dN)", "%(q=1?a:b)", "%(N=", "%(1=1?open", "?", ":", ")", "%"]


def _format(rng: random.Random, pieces: list[str]) -> str:
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))


def test_generated_formats() -> None:
    """Random line and group formats, malformed directives included, over random edits:
    the directive scanner must print what GNU's ifdef.c prints."""
    rng = random.Random(3809)
    cases = []
    for _ in range(int(os.environ.get("DIFF_FORMAT_CASES", "200"))):
        base = _file(rng, rng.randint(0, 15))
        a = _join(rng, base)
        b = _join(rng, _edit(rng, base))
        opts = []
        for name in ("line", "old-line", "new-line", "unchanged-line"):
            if rng.random() < 0.4:
                opts.append(f"--{name}-format={_format(rng, PIECES)}")
        for name in ("old-group", "new-group", "changed-group", "unchanged-group"):
            if rng.random() < 0.5:
                opts.append(f"--{name}-format={_format(rng, GROUP_PIECES)}")
        if not opts or rng.random() < 0.2:
            opts += ["-D", "SYM"] if not any(o.startswith("--line") for o in opts) else []
        if not opts:
            opts.append("--line-format=%L")
        if rng.random() < 0.15:
            opts.append(rng.choice(["-t", "-B", "-I^#", "-i", "-b"]))
        cases.append((f"diff {shlex.join(opts)} f1 f2; echo \"rc=$?\"", {"f1": a, "f2": b}))
    check_all(cases)


def test_generated_function_lines() -> None:
    """Bigger C-like files (40-300 lines), a few edits, under -p/-F (one or two regexes),
    -I and the context sizes: the function line of every hunk, GNU's cached search."""
    rng = random.Random(3810)
    cases = []
    heads = [b"int f%d(void)", b"static void g%d(int x)", b"_start%d:", b"$v%d = 1;",
             b"#define M%d 1", b"struct s%d {", b"  inner%d(void)"]
    for _ in range(int(os.environ.get("DIFF_FUNCTION_CASES", "120"))):
        base = []
        for k in range(rng.randint(40, 300)):
            if rng.random() < 0.08:
                base.append(rng.choice(heads) % k)
            else:
                base.append(rng.choice([b"\tx%d++;" % rng.randrange(50), b"{", b"}", b"",
                                        b"    y = %d;" % k, b"\t/* comment %d */" % k]))
        other = list(base)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(other))
            op = rng.random()
            if op < 0.4:
                other[i] = b"changed %d" % rng.randrange(1000)
            elif op < 0.7:
                other.insert(i, rng.choice([b"", b"}", b"int new%d(void)" % i, b"#x"]))
            else:
                del other[i]
        opts = rng.choice([["-p"], ["-u", "-p"], ["-c", "-p"], ["-U0", "-p"], ["-U1", "-p"],
                           ["-u", "-F", "^static"], ["-C2", "-F", "^[_$]"],
                           ["-U5", "-F", "^#", "-F", "^struct"], ["-u", "-F", "x[0-9]\\+"],
                           ["-c", "-F", "^\\s*inner"]])
        if rng.random() < 0.3:
            opts += rng.choice([["-I", "^#"], ["-B"], ["-I", "^changed"], ["-T"], ["-t"]])
        cases.append((f"diff {shlex.join(opts)} f1 f2; echo \"rc=$?\"",
                      {"f1": b"\n".join(base) + b"\n", "f2": b"\n".join(other) + b"\n"}))
    check_all(cases)


def test_generated_ignored_changes() -> None:
    """Files of blank, white-space-only, CR and comment lines under -B (alone and with
    -b/-w/-Z/-E/-i/--strip-trailing-cr) and -I, in every output style: which changes are
    ignorable (analyze_hunk's white-space skipping) and how each style shows them (-y's '('
    and ')' columns, -D's unchanged lines)."""
    rng = random.Random(3811)
    words = [b"", b" ", b"\t", b"  \t ", b"a", b"b", b" a", b"a ", b"\r", b"x\r", b"#c", b"\v",
             b"\f"]
    cases = []
    for _ in range(int(os.environ.get("DIFF_IGNORE_CASES", "200"))):
        base = [rng.choice(words) for _ in range(rng.randint(0, 12))]
        other = list(base)
        for _ in range(rng.randint(1, 4)):
            pos = rng.randint(0, len(other))
            if rng.random() < 0.5:
                other.insert(pos, rng.choice(words))
            elif other:
                del other[min(pos, len(other) - 1)]
        opts = rng.choice([["-B"], ["-B", "-b"], ["-B", "-w"], ["-B", "-Z"], ["-B", "-E"],
                           ["-B", "-i"], ["-I", "^ *$"], ["-I", "^#", "-B", "-b"],
                           ["-B", "--strip-trailing-cr"], ["-I", "x$"]])
        opts += rng.choice([[], ["-u"], ["-e"], ["-n"], ["-D", "X"], ["-c", "-p"], ["-y"],
                            ["-y", "--left-column"], ["-y", "--suppress-common-lines"]])
        a = b"\n".join(base) + (b"\n" if base and rng.random() < 0.8 else b"")
        b = b"\n".join(other) + (b"\n" if other and rng.random() < 0.8 else b"")
        cases.append((f"diff {shlex.join(opts)} f1 f2; echo \"rc=$?\"", {"f1": a, "f2": b}))
    check_all(cases)


def test_generated_directories() -> None:
    """Random pairs of directories (names equal but for case, subdirectories on one side
    only) under -r, -N, --unidirectional-new-file, --ignore-file-name-case, -S, the new
    output styles and --from-file/--to-file: dir.c's merge of the sorted names."""
    rng = random.Random(3812)
    names = ["a", "B", "b", "c", "C", "d", "sub", "Sub", "x.c", "X.c"]
    cases = []
    for _ in range(int(os.environ.get("DIFF_DIRECTORY_CASES", "150"))):
        tree: dict = {}
        for root in ("L", "R"):
            for n in rng.sample(names, rng.randint(0, 6)):
                if n.lower() == "sub":
                    for m in rng.sample(["p", "Q", "q"], rng.randint(1, 2)):
                        tree[f"{root}/{n}/{m}"] = rng.choice([b"1\n", b"2\n", b"1\n2\n"])
                else:
                    tree[f"{root}/{n}"] = rng.choice([b"1\n", b"2\n", b"1\n2\n", b"x"])
        tree.setdefault("L/zz", b"z\n")
        tree.setdefault("R/zz", b"y\n")
        opts = rng.sample(["-r", "-N", "--unidirectional-new-file", "--ignore-file-name-case",
                           "-q", "-u", "-e", "-n", "-p", "-T", "-s"], rng.randint(0, 4))
        if rng.random() < 0.4:
            opts += ["-S", rng.choice(names + ["sub/p", "zz", "0", "~"])]
        if "-e" in opts and "-n" in opts:
            opts.remove("-n")
        if "-u" in opts and ("-e" in opts or "-n" in opts):
            opts.remove("-u")
        operands = "L R" if rng.random() < 0.7 else rng.choice(
            ["--from-file=L R", "--to-file=R L", "--from-file=L R/zz L/zz", "L R/zz", "L/zz R"])
        cases.append((f"diff {shlex.join(opts)} {operands}; echo \"rc=$?\"", tree))
    check_all(cases)

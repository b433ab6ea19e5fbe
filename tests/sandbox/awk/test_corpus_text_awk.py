"""awk cases found by the text-tools corpus, each compared with gawk: ``cmd | getline`` (with
and without a variable) leaves NR and FNR alone, in BEGIN, in a rule and in END."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import awk_support as S  # noqa: E402

CASES = [
    ['BEGIN { "echo hi" | getline; print $0, NR, NF }'],
    ['BEGIN { "echo a; echo b" | getline x; print x, NR; "echo a; echo b" | getline x; print x, NR }'],
    ['{ "echo hi" | getline; print $0, NR, FNR }'],
    ['{ "echo one two" | getline v; print v, NR, FNR, $0 }'],
    ['END { "echo hi" | getline; print $0, NR }'],
    ['NR == 1 { while (("echo x; echo y" | getline l) > 0) n++; print n, NR }'],
]


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_case(case: list[str]) -> None:
    S.need_gawk()
    S.compare(case, stdin=b"line1\nline2\n")


#: Builtins called with a wrong number of arguments (gawk's grammar: a syntax error at the
#: closing parenthesis; sprintf() and and(1) are fatal when they run).
ARITY = [
    'BEGIN { print substr("abc") }', 'BEGIN { print split("a b") }', 'BEGIN { print index("abc") }',
    'BEGIN { print gsub(/a/) }', 'BEGIN { x = length(1,2) }', 'BEGIN { x = substr("a",1,2,3) }',
    'BEGIN { x = tolower() }', 'BEGIN { x = atan2(1) }', 'BEGIN { x = strftime(1,2,3,4) }',
    'BEGIN { x = split() }', 'BEGIN { x = systime(1) }', 'BEGIN { x = close() }',
    'BEGIN { x = typeof(1,2,3) }', 'BEGIN { x = asort(a,b,c,d) }', 'BEGIN { x = length() }',
    'BEGIN { print "a"; x = sprintf() }', 'BEGIN { print "a"; x = and(1) }', 'BEGIN { x = srand() }',
    '{ print substr($0) }', 'BEGIN {\n  x = 1\n  y = index("a")\n}',
]
#: Command-line mistakes: -v names gawk refuses, unknown or ambiguous long options (the usage
#: alone), a long option missing its argument (named by its short letter).
OPTIONS = [
    ["-v", "1x=3", "BEGIN{}"], ["-v", "x-y=3", "BEGIN{}"], ["-v", "length=3", "BEGIN{}"],
    ["-v", "if=1", "BEGIN{}"], ["-v", "a[1]=3", "BEGIN{}"], ["-v", "x", "BEGIN{}"],
    ["-v", "_x=1", "BEGIN{print _x}"], ["--foo", "BEGIN{}"], ["--fo=1", "BEGIN{}"],
    ["--no", "BEGIN{}"], ["--file"], ["-f"], ["--assign", "x y=1", "BEGIN{}"],
]


@pytest.mark.parametrize("prog", ARITY, ids=repr)
def test_builtin_arity_matches_gawk(prog: str) -> None:
    S.need_gawk()
    S.compare([prog], stdin=b"x\n", check_stderr=True)


@pytest.mark.parametrize("args", OPTIONS, ids=repr)
def test_option_mistakes_match_gawk(args: list[str]) -> None:
    S.need_gawk()
    S.compare(args, check_stderr=True)


#: gawk's -i inplace: each file operand rewritten with what the program prints while reading
#: it (BEGIN and END output to stdout), backups by INPLACE_SUFFIX or inplace::suffix.
INPLACE_FILES = {"f1": b"a\nb\n", "f2": b"c\n", "notes.md": b"- 2026-09-03: owner is Priya\n"}
INPLACE = [
    ["-i", "inplace", "{ gsub(/Priya/, \"Priya K.\") } 1", "notes.md"],
    ["-i", "inplace", "BEGIN{print \"begin\"} {print FNR\": \"$0} ENDFILE{print \"endfile \" FILENAME} END{print \"end \" NR}", "f1", "f2"],
    ["-i", "inplace", "-v", "INPLACE_SUFFIX=.bak", "{print toupper($0)}", "f1"],
    ["-i", "inplace", "-v", "inplace::suffix=.orig", "NR==1{exit} {print}", "f2"],
    ["-i", "inplace", "{print > \"/dev/stdout\"; print \"err\" > \"/dev/stderr\"}", "f1"],
    ["-i", "inplace", "BEGIN { print \"only begin\" }", "f1"],
    ["-i", "inplace.awk", "{ print NR }", "f1", "f2"],
    ["-i", "inplace", "NR==1", "f2", "x=1", "f1"],
    ["-i", "inplace", "{ print }"],
    ["-i", "inplace", "NR > 1", "notes.md"],
]


@pytest.mark.parametrize("args", INPLACE, ids=repr)
def test_inplace_matches_gawk(args: list[str]) -> None:
    S.need_gawk()
    S.compare(args, stdin=b"from stdin\n", files=INPLACE_FILES, check_stderr=True)


#: ``-W NAME`` naming no long option: gawk warns (``option `-W NAME' unrecognized, ignored``)
#: and goes on; an ambiguous or a known name is the long option.
W_OPTIONS = [
    ["-W", "nosuch", "BEGIN { print 1 }"], ["-Wnosuch", "BEGIN { print 1 }"],
    ["-W", "nosuch=3", "BEGIN { print 1 }"], ["-bWzz", "BEGIN { print 1 }"],
    ["-W", "no", "BEGIN { print 1 }"], ["-W", "re", "BEGIN { print 1 }"],
    ["-W", "BEGIN { print 1 }"],
]


@pytest.mark.parametrize("args", W_OPTIONS, ids=repr)
def test_unknown_W_option_is_ignored(args: list[str]) -> None:
    S.need_gawk()
    S.compare(args)
    # gawk names itself by its argv[0] in this warning: the full path of the test's link
    # (run from PATH, as a script does, it says ``awk:``)
    ref, got = S.reference(args), S.ours(args)
    assert ref is not None
    assert got[2] == ref[2].replace(S._awk_link().encode(), b"awk"), (got[2], ref[2])

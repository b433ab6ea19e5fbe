"""grep -P: differential tests against GNU grep 3.8 -P (PCRE2) in C.UTF-8.

Generated PCRE patterns (classes, \\d \\w \\s \\b, lookaround, \\K, lazy and possessive
quantifiers, alternation, anchors, groups, back-references) on generated lines (Unicode, CRLF,
invalid UTF-8, NUL) across options; hand-written cases for each feature and error message;
attack cases (catastrophic backtracking ends with the time-limit message). Seeded: each failure
prints the shell command that shows GNU's output. GREP_PERL_CASES changes the generated count.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import grep_support as gs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.errors import LimitExceeded  # noqa: E402
from sandbox.limits import Limits  # noqa: E402

CASES = int(os.environ.get("GREP_PERL_CASES", "400"))

ATOMS = ["a", "b", "c", "A", "é", "É", "_", " ", "-", "x", "1", "\\.", "\\*", ".", "\\d",
         "\\D", "\\w", "\\W", "\\s", "\\S", "\\h", "\\b", "\\B", "[ab]", "[^a]", "[a-c]",
         "[[:alpha:]]", "[[:digit:]]", "[[:^space:]]", "[\\w-]", "[^\\d]", "[é-ë]", "\\x{e9}",
         "\\x41", "\\t", "^", "$", "\\A", "\\z", "\\Z", "\\Qa.\\E", "\\N", "\\R", "[[:punct:]]",
         "\\p{L}", "\\P{L}", "\\p{Lu}", "[\\p{Ll}1]", "ab", "\\r"]
LOOKS = ["(?=%s)", "(?!%s)", "(?<=%s)", "(?<!%s)"]
FIXED = ["a", "b", "é", "\\d", "\\w", "[ab]", ".", "ab", "a|bc", "\\s", "x"]


def gen_pattern(rng: random.Random, depth: int = 0, groups: list[int] | None = None) -> str:
    """A random PCRE2 pattern over the features GNU grep -P users reach for."""
    if groups is None:
        groups = [0]
    pieces = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.12 and depth < 2:
            kind = rng.choice(["(", "(?:", "(?>", "(?<n%d>" % groups[0], "(?i)"])
            inner = gen_pattern(rng, depth + 1, groups)
            if kind == "(?i)":
                atom = "(?i:" + inner + ")"
            else:
                if kind == "(" or kind.startswith("(?<n"):
                    groups[0] += 1
                atom = kind + inner + ")"
        elif r < 0.2:
            atom = rng.choice(LOOKS) % rng.choice(FIXED)
        elif r < 0.24 and groups[0] > 0:
            atom = rng.choice(["\\%d" % rng.randint(1, groups[0]),
                               "\\g{%d}" % rng.randint(1, groups[0]), "\\g{-1}"])
        elif r < 0.28 and depth == 0 and "\\K" not in pieces:
            atom = "\\K"
        else:
            atom = rng.choice(ATOMS)
        q = rng.random()
        if atom in ("^", "$", "\\A", "\\z", "\\Z", "\\b", "\\B", "\\K") or atom.startswith(
                "(?<") and not atom.startswith("(?<n"):
            q = 1.0
        if q < 0.12:
            atom += rng.choice(["*", "*?", "*+"])
        elif q < 0.2:
            atom += rng.choice(["+", "+?", "++"])
        elif q < 0.26:
            atom += rng.choice(["?", "??"])
        elif q < 0.32:
            lo = rng.randint(0, 2)
            atom += rng.choice(["{%d}" % lo, "{%d,}" % lo, "{%d,%d}" % (lo, lo + rng.randint(0, 2))])
            atom += rng.choice(["", "", "?", "+"])
        pieces.append(atom)
    pat = "".join(pieces)
    if rng.random() < 0.15:
        pat += "|" + gen_pattern(rng, depth + 1, groups)
    return pat


LINE_PIECES = ["a", "b", "c", "ab", "abc", "A", "B", "aa", "é", "É", "ë", "_", " ", "\t", "-",
               ".", "x", "1", "22", "2024", "*", "word", "\r", "\xff", "\xc3", "ａ", "ß", "☺",
               "id=", "\"k\": \"v\"", "\xa0"]


def gen_input(rng: random.Random) -> bytes:
    lines = []
    for _ in range(rng.randint(0, 7)):
        if rng.random() < 0.12:
            lines.append(b"")
            continue
        text = "".join(rng.choice(LINE_PIECES) for _ in range(rng.randint(1, 6)))
        lines.append(text.encode("utf-8").replace("\xff".encode(), b"\xff").replace(
            "\xc3".encode(), b"\xc3"))
    data = b"\n".join(lines)
    if lines and rng.random() < 0.8:
        data += b"\n"
    if rng.random() < 0.05 and data:
        k = rng.randrange(len(data))
        data = data[:k] + b"\0" + data[k:]
    return data


OPTIONS = ["-i", "-v", "-w", "-x", "-c", "-n", "-o", "-o", "-o", "-b", "-h", "-H", "-l", "-L",
           "-q", "-a", "-a"]


def _options(rng: random.Random) -> list[str]:
    opts = rng.sample(OPTIONS, rng.choice([0, 1, 1, 2, 2, 3]))
    r = rng.random()
    if r < 0.08:
        opts.append(f"-m{rng.randint(0, 2)}")
    elif r < 0.16:
        opts.append(rng.choice(["-A", "-B", "-C"]) + str(rng.randint(0, 2)))
    if rng.random() < 0.05:
        opts.append("-z")
    if rng.random() < 0.06:
        opts.append("--color=always")
    return list(dict.fromkeys(opts))


def _generated(seed: int, count: int) -> list[gs.Case]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        pat = gen_pattern(rng)
        args = ["-P"] + _options(rng) + ["-e", pat]
        files: dict[str, bytes] = {}
        stdin = b""
        if rng.random() < 0.6:
            stdin = gen_input(rng)
        else:
            names = ["f1", "f2"][: rng.choice([1, 2])]
            for name in names:
                files[name] = gen_input(rng)
            args += names
        cases.append(gs.Case(args, files, stdin))
    return cases


def _check(cases: list[gs.Case]) -> None:
    failures = gs.compare(cases, workers=2)
    assert not failures, gs.report(failures, len(cases))


@pytest.mark.parametrize("shard", range(2))
def test_generated(shard: int) -> None:
    gs.need_grep()
    _check(_generated(7100 + shard, CASES // 2))


EXTRA_ATOMS = ["[\\s\\S]", "[^\\W]", "[^\\S]", "(?m)^", "(?m)$", "(?s).", "\\G", "[^\\p{L}]",
               "[[:upper:]]", "[[:lower:]]", "[k]", "[s-t]", "ſ", "(?i)", "(?-i)", "\\H", "\\v",
               "\\V", "\\0", "\\e", "[a\\-z]", "[-a]", "[]a]", "[^]a]", "\\$", "#", "(?=é)",
               "(?<=é)", "\\w*", "x*", "é*", "(?:)", "\\P{Lu}", "\\x{212a}"]
EXTRA_PIECES = ["\u212a", "ſ", "K", "k", "s", "\u2028", "\x0b", "\x85", "ǅ", "Ǆ", "\xe6\x97",
                "\n", "\0"]
MODES = {"o": ["-o"], "color": ["--color=always"], "w": ["-w", "-o"], "x": ["-x"],
         "i": ["-i", "-o"], "z": ["-z", "-o"], "a": ["-a", "-o"]}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_generated_by_option(mode: str, monkeypatch) -> None:
    """Each option family on its own, with more atoms (case folding oddities, (?m), (?s), \\G,
    empty matches next to multibyte characters) and more line pieces (U+212A, U+2028, VT,
    NEL, truncated sequences, embedded newlines and NUL)."""
    gs.need_grep()
    monkeypatch.setattr(sys.modules[__name__], "ATOMS", ATOMS + EXTRA_ATOMS)
    monkeypatch.setattr(sys.modules[__name__], "LINE_PIECES", LINE_PIECES + EXTRA_PIECES)
    rng = random.Random(mode)

    def options(r: random.Random) -> list[str]:
        return MODES[mode] + r.sample(["-n", "-b", "-v", "-c", "-a", "-H"], r.choice([0, 0, 1]))

    monkeypatch.setattr(sys.modules[__name__], "_options", options)
    _check(_generated(rng.randrange(1 << 30), max(50, CASES // 4)))


def _cases(items) -> list[gs.Case]:
    out = []
    for args, data in items:
        out.append(gs.Case(list(args), {}, data))
    return out


FEATURES = [
    (["-oP", '"content": "\\K[^"]*'], b'{"content": "hello there", "x": 1}\n"content": ""\n'),
    (["-P", "\\d{4}-\\d{2}"], b"on 2024-05-06\nno 24-5\n"),
    (["-oP", "(?<=id=)\\w+"], b"id=abc12 id=x\nid=\n"),
    (["-oP", "(?<=a|bc)d"], b"ad bcd cd\n"),
    (["-oP", "a++b"], b"aab aaab\n"),
    (["-oP", "(?>a+)b"], b"aab\n"),
    (["-oP", "a+?"], b"aaa\n"),
    (["-oP", "(?<y>\\d{4})-(?P<m>\\d\\d)-\\k<m>"], b"2024-05-05 2024-05-06\n"),
    (["-oP", "(?|(a)|(b))\\1"], b"aa bb ab\n"),
    (["-oP", "\\Qa.b\\E"], b"a.b axb\n"),
    (["-oP", "[\\Q.]\\E]+"], b"a.]b\n"),
    (["-oP", "\\x{263a}|\\x41|\\101|\\o{102}"], "☺ A B\n".encode()),
    (["-oP", "\\h+"], "a \t\u00a0b\n".encode()),
    (["-cP", "\\R"], b"a\r\nb\n"),
    (["-oP", "[[:alpha:]]+"], "abé d\n".encode()),
    (["-oP", "[[:^alpha:]]+"], "abé d\n".encode()),
    (["-P", "\\w"], "é\n".encode()),
    (["-oP", "\\W"], "é!\n".encode()),
    (["-oP", "[\\W]"], "é!\n".encode()),
    (["-oP", "\\bé"], "é xé\n".encode()),
    (["-iP", "É"], "é\n".encode()),
    (["-ioP", "k"], "K k \u212a\n".encode()),
    (["-oP", "(?i)ab(?-i)c"], b"ABc ABC\n"),
    (["-oP", "a(?i:b)c"], b"aBc aBC\n"),
    (["-oP", "(?x) a b # comment"], b"ab a b\n"),
    (["-oP", "^a|b$"], b"aab\n"),
    (["-oP", "\\Aa|b\\z|c\\Z"], b"abc\n"),
    (["-oP", "(a)(?(1)b|c)"], b"ab ac\n"),
    (["-oP", "\\((?:[^()]++|(?R))*\\)"], b"(a(b)c) (d\n"),
    (["-oP", "x*"], b"axxb\n"),
    (["-oP", ""], b"ab\n"),
    (["-P", ""], b"a\n\nb\n"),
    (["-cP", "^$"], b"a\n\nb\n"),
    (["-wP", "ab"], b"ab abc\nxab\n"),
    (["-wP", "a)(b"], b"a)(b\n"),
    (["-xP", "a|ab"], b"ab\na\n"),
    (["-xoP", "a\\Kb"], b"ab\n"),
    (["-nP", "\\s$"], b"a \nb\n"),
    (["-zP", "a.b"], b"a\nb\0axb\0"),
    (["-zP", "(?s)a.b"], b"a\nb\0"),
    (["-zP", "(?m)^b"], b"a\nb\0"),
    (["-zoP", "a\\sb"], b"a\nb\0"),
    (["-P", "a\\z"], b"a\xffb\n"),
    (["-aP", "(?<!a)b"], b"a\xffb\n"),
    (["-aP", "^b"], b"\xffb\n"),
    (["-aP", "\\Ab"], b"\xffb\n"),
    (["-aoP", "\\A.|.\\z"], b"ab\xffcd\n"),
    (["-P", "b"], b"a\xffb\n"),
    (["-P", "b"], b"a\0b\n"),
    (["-aP", "a.b"], b"a\0b\n"),
    (["-P", "--color=always", "b+"], b"abbc\nd\n"),
    (["-P", "--color=always", "-o", "\\d+"], b"a1b22\n"),
    (["-P", "-C1", "x"], b"a\nx\nb\nc\nd\nx\n"),
    (["-P", "-m1", "-c", "a"], b"a\na\n"),
    (["-P", "-e", "a", "-e", "a"], b"a\n"),
    (["-P", "-e", "a", "-e", "b"], b"a\n"),
    (["-P", "a\nb"], b"a\n"),
    (["-P", "-e", "a", "-e", ""], b"a\n"),
    (["-Pv", ""], b"a\n"),
    (["-Pm0", "("], b"a\n"),
    (["-PE", "a"], b"a\n"),
    (["-EP", "a"], b"a\n"),
    (["--perl-regexp", "-o", "b"], b"abc\n"),
    (["-P", "\\N{U+41}"], b"A\n"),
    (["-oP", "\\ca\\e"], b"\x01\x1b\n"),
    (["-oP", "(a)|b\\1"], b"b ba\n"),
    (["-oP", "(*FAIL)|a"], b"a\n"),
    (["-oP", "a{,2}"], b"a{,2}\n"),
    (["-oP", "\\d+(?=px)"], b"10px 20em\n"),
    (["-oP", "(?<!\\$)\\b\\d+"], b"$10 20\n"),
    (["-oP", "\\p{Greek}+"], "αβγ abc\n".encode()),
    (["-zoP", "(?s)start.*?end"], b"start\nx\nend\nfoo start y end\n"),
    (["-zoP", "end\\n\\z"], b"start\nx\nend\n"),
    (["-oP", "(?<=foo )\\S+"], b"foo bar\n"),
    (["-cP", "^\\s*$"], b"a\n  \n\t\n\n"),
    (["-oP", "[^\\x00-\\x7F]+"], "漢字 kana é\n".encode()),
    (["-oP", "(*pla:a)\\w"], b"ab\n"),
    (["-oP", "(?C1)a"], b"ab\n"),
    (["-oP", "(?<=\\1)(a)"], b"aa\n"),
    (["-oP", "(?<=a(?1))(b)"], b"abb\n"),
    (["-oP", "\\g{+1}(a)"], b"aa\n"),
]

ERRORS = ["(", ")", "a)", "[a", "*a", "a**", "a{2,1}", "(?<=a+)b", "\\", "a\\", "\\c",
          "\\p{Foo}", "(?<n>a)(?<n>b)", "\\k<x>", "\\1", "(a)\\2", "[z-a]", "[[:foo:]]", "(?z)",
          "a{1,70000}", "\\g", "(?P<1>a)", "\\x{110000}", "\\o{8}", "\\8", "(?<=\\K)",
          "[\\d-z]", "\\u0041", "\\U", "\\L", "(?#comm", "(*FOO)", "(?R", "(?1)", "\\i",
          "(?<=a*)", "(?<=a|b+)", "(?<=(a|bc))", "?", "+", "{1}", "a|*", "(?:", "[[.a.]]",
          "\xff", "\xc3", "(?<=\\1)(a)", "[a-\\d]", "(?P", "(?P<", "(?P=", "(?<", "(?'a",
          "(?&", "(?(", "(?(1", "(?C", "\\k", "\\k<a", "\\g<", "\\g{", "\\x{", "\\x{zz}",
          "\\o", "\\o{", "\\N{U+", "\\cé", "(?i-", "[[:", "[a-", "[\\", "\\E*", "(*", "(*FAIL",
          "(*a)", "(?<=\\R)", "(?<=a{1,2})", "(?<=(?:ab|c))", "(?<=\\C)", "[\\p{Lu}-z]", "\\g{0}",
          "(a)\\g{-2}", "(?Px)", "[\\Q\\E]", "\\p", "\\p{Foo", "a{3}{2}"]


def test_features() -> None:
    gs.need_grep()
    _check(_cases(FEATURES))


def test_error_messages() -> None:
    gs.need_grep()
    cases = [gs.Case(["-P", p.encode("latin-1").decode("utf-8", "surrogateescape")],
                     {}, b"a\nb\n") for p in ERRORS]
    _check(cases)


def test_invalid_leading_bytes() -> None:
    """GNU skips the bytes that cannot start a character (glibc: continuation bytes, C0, C1,
    FE, FF) before searching; the subject then starts after them (``^`` fails, ``\\A``
    matches, lookbehinds see nothing before)."""
    gs.need_grep()
    cases = []
    for b in list(range(0x80, 0x100, 3)) + [0xC0, 0xC1, 0xF5, 0xF8, 0xFD, 0xFE, 0xFF]:
        for pattern in ["\\Ab", "^", "(?<!x)b", "\\A", "^b|\\Ab", "$"]:
            cases.append(gs.Case(["-aP", pattern], {}, bytes([b]) + b"b\n" + bytes([b]) + b"\n"))
    _check(cases)


def test_files_recursion_and_names() -> None:
    gs.need_grep()
    files = {"d/a.txt": b"x1\ny\n", "d/b.txt": "é2\n".encode(), "d/s/c.txt": b"z\n",
             "bin": b"a1\0b\n"}
    args = [["-rP", "\\d", "d"], ["-rlP", "\\d", "d"], ["-rLP", "\\d", "d"],
            ["-rhP", "\\d", "d"], ["-rcP", "\\d", "d"], ["-P", "\\d", "bin"],
            ["-aP", "\\d", "bin"], ["-IP", "\\d", "bin", "d/a.txt"],
            ["-HnbP", "\\d", "d/a.txt"], ["-oP", "\\d", "d/a.txt", "nope"]]
    # -r walks directories in sorted order (GNU: directory order): compare sorted lines.
    for a in args:
        case = gs.Case(a, files)
        gnu, ours = gs.run_gnu(case), gs.run_ours(case)
        assert (gnu[0], sorted(gnu[1].split(b"\n")), gnu[2]) == (
            ours[0], sorted(ours[1].split(b"\n")), ours[2]), case.command()


def test_input_longer_than_a_chunk(monkeypatch) -> None:
    """Lines across chunk edges (small chunks) give the same output."""
    gs.need_grep()
    from sandbox.commands.grep import search
    monkeypatch.setattr(search, "CHUNK", 7)
    data = "".join(f"line {i} é{i % 7} id={i:x}\n" for i in range(200)).encode()
    args = [["-P", "\\d{2}"], ["-oP", "(?<=id=)\\w+"], ["-cvP", "é[0-3]"], ["-nP", "^line 1\\d$"],
            ["-P", "-A1", "7 é"]]
    _check([gs.Case(a, {}, data) for a in args])


# -- safety -------------------------------------------------------------------------------

ATTACKS = [
    ("(a|aa)+$", b"a" * 5000 + b"b\n"),
    ("(a+)+$", b"a" * 100000 + b"b\n"),
    ("(x+x+)+y", b"x" * 5000 + b"\n"),
    ("^(\\w+\\s?)*$", (b"abc " * 3000) + b"!\n"),
    ("(.*a){20}", b"a" * 3000 + b"\n"),
]


@pytest.mark.parametrize("pattern,data", ATTACKS)
def test_catastrophic_backtracking_ends_with_the_limit_message(pattern, data) -> None:
    """Either the regex module answers in time (it has safeguards of its own) or the run ends
    at its deadline with the sandbox's time-limit message; never a hang or a traceback."""
    t0 = time.monotonic()
    try:
        code, out, err = run_command(["grep", "-P", pattern], stdin=data * 20,
                                     limits=Limits(seconds=1.0))
    except LimitExceeded as exc:
        assert "time limit of 1s exceeded" in str(exc) or "too long" in str(exc)
    else:
        assert code in (0, 1) and err == b""
    assert time.monotonic() - t0 < 4.0


def test_timeout_is_the_run_limit() -> None:
    t0 = time.monotonic()
    with pytest.raises(LimitExceeded, match="time limit of 0.5s exceeded"):
        run_command(["grep", "-cP", "(a|aa)+$"], stdin=b"a" * 60 + b"b\n",
                    limits=Limits(seconds=0.5))
    assert time.monotonic() - t0 < 3.0


def test_limit_message_through_the_sandbox(tmp_path) -> None:
    from sandbox.api import Sandbox

    (tmp_path / "big").write_bytes(b"a" * 3000 + b"b\n")
    t0 = time.monotonic()
    r = Sandbox({"/": tmp_path}, limits=Limits(seconds=1.0)).run(
        "grep -P '(a|aa)+$' big; echo after")
    assert time.monotonic() - t0 < 4.0
    assert b"time limit of 1s exceeded" in r.stderr and b"Traceback" not in r.stderr
    assert r.stdout == b""


def test_left_recursion_is_refused() -> None:
    """A call reachable before anything is consumed recurses for ever (PCRE2 stops at its
    backtracking limit; the regex module would eat memory): refused when compiled."""
    for pattern in ["(?R)", "a|(?R)", "(a|(?1))", "(?R)?a", "((?2))((?1))", "(?<n>x|(?&n))"]:
        code, out, err = run_command(["grep", "-P", pattern], stdin=b"ab\n")
        assert (code, out, err) == (2, b"", b"grep: recursive call could loop indefinitely\n")
    code, out, _ = run_command(["grep", "-oP", "\\((?:[^()]++|(?R))*\\)"], stdin=b"(a(b)c) (d\n")
    assert (code, out) == (0, b"(a(b)c)\n")


def test_no_traceback_on_odd_patterns() -> None:
    for pattern in ["(?C1)", "(*ACCEPT)", "(?(R)a|b)", "\\X", "(?&x)", "(?<x>a)(?&x)",
                    "\\g<1>(a)", "(?-1)", "(?+1)(a)", "((((((((((a))))))))))\\10", "\\N",
                    "(?^)", "(?xx)[a b]", "(?U)a+", "(?J)(?<n>a)|(?<n>b)", "(" * 300 + ")" * 300]:
        code, out, err = run_command(["grep", "-P", pattern], stdin=b"a\nb\n")
        assert b"Traceback" not in err and b"internal error" not in err, (pattern, err)
        assert code in (0, 1, 2)

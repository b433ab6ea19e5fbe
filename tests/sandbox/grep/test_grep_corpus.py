"""grep: a hand-written corpus of command lines for every option and edge case, each run through
our grep and GNU grep on the same files (expectations come from GNU, never typed by hand).

Recursive cases compare sorted output (GNU walks directories in directory order, we sort).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import grep_support as gs  # noqa: E402

NOTES = """# Notes
2024-01-02 Pricing call with ACME: budget is 10k.
- likes tea, not coffee
- Prefers concise answers

Project Falcon: deadline March; budget review pending.
project falcon kickoff notes
Café meeting at 10:00 — naïve plan, résumé attached
ÉCOLE and école; STRASSE straße
under_score word-boundary word.boundary
a+b=c (a|b) [x] {y} ^caret$ back\\slash *star*
tab\there
trailing spaces   
""".encode()

CONV = b"\n".join(
    [
        b'{"role":"user","content":"What is the pricing?","timestamp":"2024-01-01T10:00:00Z"}',
        b'{"role":"assistant","content":"Pricing starts at $10.","timestamp":"2024-01-01T10:00:05Z"}',
        b'{"role":"user","content":"And the budget?","timestamp":"2024-01-01T10:01:00Z"}',
        b'{"role":"assistant","content":"Budget: flexible.","timestamp":"2024-01-01T10:01:05Z"}',
        b'{"role":"user","content":"thanks","timestamp":"2024-01-01T10:02:00Z"}',
    ]
) + b"\n"

LINES = b"".join(b"line %d %s\n" % (i, b"match" if i % 7 == 0 else b"other") for i in range(1, 41))

FILES = {
    "notes.md": NOTES,
    "conv.jsonl": CONV,
    "lines.txt": LINES,
    "crlf.txt": b"alpha\r\nbeta\r\n\r\ngamma alpha\r\n",
    "nonl.txt": b"first line\nlast line no newline",
    "empty.txt": b"",
    "blank.txt": b"\n\n\n",
    "bin.dat": b"header\nmatch here\x00binary\nmore match\n",
    "bin2.dat": b"\x00\x01\x02match\n",
    "enc.txt": b"good match\nbad \xff match\nok match\n\xc3 half\n",
    "words.txt": b"pricing\nbudget\n",
    "pats.txt": b"alpha\n^line 1\n",
    "emptypat.txt": b"",
    "nlpat.txt": b"\n",
    "zero.dat": b"rec one\x00rec two match\x00rec three\x00",
    "d/a.txt": b"match in a\nnothing\n",
    "d/b.md": b"match in b\n",
    "d/sub/c.txt": b"deep match\n",
    "d/sub/skip.log": b"match log\n",
    "d/.hidden": b"hidden match\n",
}

# One command line per entry (shell words, run with the files above in the working directory).
CORPUS = r"""
pricing notes.md
-i pricing notes.md
-y PRICING notes.md
-i --no-ignore-case Pricing notes.md
-c budget notes.md
-ci budget notes.md
-ciE 'pricing|budget' notes.md conv.jsonl
-n project notes.md
-in project notes.md
-o budget notes.md
-oi budget notes.md conv.jsonl
-vc budget notes.md
-v '^$' notes.md
-w word notes.md
-w boundary notes.md
-wo boundary notes.md
-x 'project falcon kickoff notes' notes.md
-x -e '' blank.txt
-c '' blank.txt
-c '^' empty.txt
-l budget notes.md conv.jsonl lines.txt
-L budget notes.md conv.jsonl lines.txt
-h budget notes.md conv.jsonl
-H budget notes.md
-q budget notes.md
-q nomatch notes.md
-q budget missing.txt notes.md
-s budget missing.txt notes.md
budget missing.txt notes.md
-sq nomatch missing.txt
-m 1 match lines.txt
-m1 -c match lines.txt
-m 2 -n match lines.txt
-m 0 match lines.txt
-m 0 -L match lines.txt notes.md
-m1 -A2 match lines.txt
-m2 -v match lines.txt
-A 1 match lines.txt
-B 1 match lines.txt
-C 1 match lines.txt
-C 3 match lines.txt
-2 match lines.txt
-n -C 2 match lines.txt
-b -C 1 match lines.txt
-A1 --group-separator=XX match lines.txt
-A1 --group-separator= match lines.txt
-A1 --no-group-separator match lines.txt
-C1 -v other lines.txt
-A 0 match lines.txt
-B 0 -n match lines.txt
-c -C 2 match lines.txt
-l -C 2 match lines.txt
-o -C 1 match lines.txt
-o -v -C 1 match lines.txt
-A 1 match lines.txt notes.md
-C 1 budget notes.md conv.jsonl
-b budget notes.md
-bo budget notes.md
-bn budget notes.md
-Z -l budget notes.md conv.jsonl
-Z budget notes.md conv.jsonl
-Zc budget notes.md conv.jsonl
-Z -L budget notes.md lines.txt
-T budget notes.md
-T -n budget notes.md
-T -H -n -b budget notes.md
-T -c budget notes.md conv.jsonl
-Tn -e '' blank.txt
match bin.dat
-c match bin.dat
-n match bin.dat
-o match bin.dat
-l match bin.dat
-a match bin.dat
-a -n match bin.dat
--binary-files=text match bin.dat
--binary-files=binary match bin.dat
--binary-files=without-match match bin.dat
-I match bin.dat
-I match bin.dat lines.txt
-v nomatch bin.dat
-q match bin.dat
match bin2.dat
-c match bin2.dat
match enc.txt
-n match enc.txt
-c match enc.txt
-o match enc.txt
-a match enc.txt
-I match enc.txt
half enc.txt
-v good enc.txt
-z match zero.dat
-z -c rec zero.dat
-z -n rec zero.dat
-z -o 'rec [a-z]*' zero.dat
-z -v two zero.dat
-z '^rec t' zero.dat
-z 'three$' zero.dat
-z -x 'rec one' zero.dat
-zZ -l rec zero.dat
alpha crlf.txt
-c 'alpha$' crlf.txt
-x beta crlf.txt
-o 'a.$' crlf.txt
line nonl.txt
-v first nonl.txt
-c '' nonl.txt
-n 'no newline$' nonl.txt
-o 'newline' nonl.txt
-E 'a|ab|abc' notes.md
-oE 'a|ab|abc' notes.md
-oE 'pric|pricing|pri' notes.md
-E '(pricing|budget).*(10k|review)' notes.md
-E 'b(ud)+get' notes.md
-E 'bu?dget' notes.md
-E 'bu{0,1}dget' notes.md
-E 'o{2}' notes.md
-E 'o{2,}' notes.md
-E 'o{,1}k' notes.md
-E '{y}' notes.md
-E 'a{1' notes.md
-E 'a{1,2' notes.md
-E '(a|b)\)' notes.md
-E 'x)' notes.md
-E '*star' notes.md
-E '+b' notes.md
-E '^*' notes.md
-E 'a**' notes.md
-E '()' notes.md
-E 'a|' notes.md
-E '(^|-) likes' notes.md
-E '(tea|coffee)$' notes.md
-E '^(project|Project) ' notes.md
-E '(a)\1' notes.md
-E '(o)\1' notes.md
-E '([a-z])\1' notes.md
-oE '([a-z])\1' notes.md
'\(o\)\1' notes.md
'\([a-z]\)\1' notes.md
-o '\([a-z]\)\1' notes.md
'\(.\)\(.\)\2\1' notes.md
-w '\(.\)\1' notes.md
'a\+b' notes.md
'a+b' notes.md
'bu\?dget' notes.md
'bu\{0,1\}dget' notes.md
'o\{2\}' notes.md
'\(a\|b\)' notes.md
'budget\|pricing' notes.md
'*star' notes.md
'\(*\)' notes.md
'^*' notes.md
'a**' notes.md
'^caret\$' notes.md
'caret\$$' notes.md
'a^b' notes.md
'^\^' notes.md
'x$y' notes.md
'\<word' notes.md
'word\>' notes.md
'\bword\b' notes.md
-o '\bword\b' notes.md
'\Bord' notes.md
-o '\w\+' conv.jsonl
-o '\W\+' conv.jsonl
-c '\s' notes.md
-o '\S\+$' notes.md
'\`#' notes.md
"notes\\'" notes.md
'[[:upper:]]\{3\}' notes.md
-o '[[:upper:]]\+' notes.md
-o '[[:digit:]]\+' notes.md
-o '[[:punct:]]' notes.md
-c '[[:space:]]$' notes.md
'[[:blank:]]' notes.md
-o '[[:alpha:]]*é[[:alpha:]]*' notes.md
-io 'école' notes.md
-i 'CAFÉ' notes.md
-i 'straSSe' notes.md
-io 'STRASSE' notes.md
-i 'É' notes.md
-o '[]x]' notes.md
-o '[^]a-z #:-]' notes.md
-o '[a-]' notes.md
-o '[[.a.]]' lines.txt
-c '[[=e=]]' notes.md
-o '[[:alpha:][:digit:]]\{4\}' notes.md
'[' notes.md
'[[:alpha:]' notes.md
'[[:nope:]]' notes.md
'[:alpha:]' notes.md
'[z-a]' notes.md
'[[.ab.]]' notes.md
'\(' notes.md
'\)' notes.md
-E '(' notes.md
'a\{1' notes.md
'a\{2,1\}' notes.md
'a\{1,x\}' notes.md
-E 'a{2,1}' notes.md
'a\{99999\}' notes.md
'\1' notes.md
-E '(a)|\1' notes.md
'back\\' notes.md
'x\' notes.md
'\d' notes.md
-F 'a+b' notes.md
-F '(a|b)' notes.md
-F '[x]' notes.md
-F 'back\slash' notes.md
-Fi 'ÉCOLE' notes.md
-Fw 'word' notes.md
-Fx 'project falcon kickoff notes' notes.md
-Fo 'budget' notes.md
-Fc -e pricing -e budget notes.md
-F -e '' notes.md
-F -f words.txt notes.md conv.jsonl
-F -f words.txt -i notes.md conv.jsonl
-f words.txt notes.md
-f pats.txt crlf.txt lines.txt
-f emptypat.txt notes.md
-f nlpat.txt blank.txt
-f missing.txt notes.md
-e pricing -e budget notes.md
-e pricing -f words.txt notes.md
-E -e 'a(' notes.md
-e '\(' -e '[' notes.md
-G 'a|b' notes.md
-E -G 'a|b' notes.md
-G -E 'a|b' notes.md
-F -E 'a|b' notes.md
-c -e x -- -notes.md
-- -v notes.md
--count budget notes.md
--ignore-case --line-number PRICING notes.md
--max-count=1 match lines.txt
--context=1 --line-number 'line 14' lines.txt
--after-context=1 'line 14' lines.txt
--before-context=1 'line 14' lines.txt
--only-matching --byte-offset budget notes.md
--files-with-matches budget notes.md lines.txt
--files-without-match budget notes.md lines.txt
--with-filename budget notes.md
--no-filename budget notes.md conv.jsonl
--word-regexp word notes.md
--line-regexp 'line 7 match' lines.txt
--invert-match --count match lines.txt
--null -l budget notes.md
--label=stdin -H budget -
--color=never budget notes.md
--colour=never budget notes.md
--line-buffered budget notes.md
--fixed-strings 'a+b' notes.md
--extended-regexp 'a+b' notes.md
--basic-regexp 'a+b' notes.md
--regexp=budget notes.md
--file=words.txt notes.md
--text match bin.dat
--null-data -c rec zero.dat
--initial-tab -n budget notes.md
--no-messages x missing.txt
--max-count 1 -c match lines.txt
--coun budget notes.md
--nosuch budget notes.md
-k budget notes.md
-A x match lines.txt
-A -1 match lines.txt
-m x match lines.txt
--binary-files=nope x notes.md
-C
budget
budget d
-r match d
-r match d/sub notes.md
-R match d
-rl match d
-rc match d
-rh match d
-rn --include='*.txt' match d
-r --exclude='*.txt' match d
-r --exclude-dir=sub match d
-r --include='*.md' --include='*.log' match d
-rL nothing d
-rZl match d
-r -i MATCH d
-c match d/a.txt d/b.md
"""

RECURSIVE_FLAGS = ("-r", "-R", "-rl", "-rc", "-rh", "-rn", "-rL", "-rZl")


def _cases() -> list[tuple[gs.Case, bool]]:
    out = []
    for line in CORPUS.strip().splitlines():
        args = shlex.split(line)
        stdin = NOTES if "-" in args and "--" not in args else b""
        recursive = any(a in RECURSIVE_FLAGS for a in args)
        out.append((gs.Case(args, dict(FILES), stdin), recursive))
    return out


def _records(out: bytes) -> list[bytes]:
    return sorted(out.replace(b"\0", b"\n").split(b"\n"))


def test_corpus_has_at_least_200_cases() -> None:
    assert len(_cases()) >= 200


def test_corpus_against_gnu() -> None:
    gs.need_grep()
    cases = _cases()
    plain = [c for c, rec in cases if not rec]
    failures = gs.compare(plain)
    for case, rec in cases:
        if not rec:
            continue
        gnu = gs.run_gnu(case)
        ours = gs.run_ours(case)
        if (gnu[0], _records(gnu[1]), gnu[2]) != (ours[0], _records(ours[1]), ours[2]):
            failures.append(f"{case.command()}\n  gnu:  {gnu!r}\n  ours: {ours!r}")
    assert not failures, gs.report(failures, len(cases), limit=40)

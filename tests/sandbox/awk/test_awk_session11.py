"""gawk 5.2 details, differential against the real gawk: ``RT`` is the text that ended the
current record (the block fast paths are off for a program that reads it); a next input file
that fails to open is fatal with FNR already 0 and the line gawk is at (its last BEGINFILE,
else its last rule, else the last statement run); a syntax error at the end of the source
where a newline can't stand (after ``$``, an operator, inside parentheses) names the next
line, as gawk reads the newline it adds."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "shell"))
import shell_difftools as dt  # noqa: E402

needs_gawk = pytest.mark.skipif(dt.BASH is None or shutil.which("gawk") is None,
                                reason="reference bash or gawk not installed")

RT = [
    'printf "a\\nb" | awk \'{print RT == "\\n", length(RT)}\'',
    'printf "a;b;c" | awk -v RS=";" \'{printf "[%s]", RT}\'',
    'printf "a\\nb\\n" | awk \'/a|b/{printf "[%s]", RT} END{printf "<%s>", RT}\'',
    'printf "x\\0y\\0" | awk -v RS="\\0" \'{printf "[%s|%d]", $0, length(RT)}\'',
    'printf "a12b345c" | awk -v RS="[0-9]+" \'{printf "[%s|%s]", $0, RT}\'',
    'printf "a\\n\\n\\nb\\n" | awk -v RS= \'{printf "[%s]", RT}\'',
]

MISSING = ['BEGIN { x = 1 }\n\n/a/ { print }\n', 'BEGIN { x = 1 }\nEND { print NR }',
           '\n{ n++ }\nEND { print n }', 'BEGINFILE{}\n{ n++ }',
           'function f() {}\n\n\n{ n++ }\n{ m++ }', 'END{print NR}', '1', '{print $1}',
           'NR==1{next} {print}', '!seen[$0]++']

SYNTAX = ['{print $', 'BEGIN { x = ', 'BEGIN{', '{ print "a",', 'BEGIN { x = 1 +', '{ x = (1',
          '{ print', '{\n print $', '{ f(', 'BEGIN { while (1', '/abc', '{ a[1', 'BEGIN {} {',
          '{ x = 1;', '{ if (1) print; else', 'BEGIN { print 1 }\n{ print $', '{ print $\n}',
          '{ x = y ~', '{ print > ']

CASES = (RT + [f"awk '{p}' a.txt nope2 b.txt; echo rc=$?" for p in MISSING]
         + [f"awk '{p}' < /dev/null; echo rc=$?" for p in SYNTAX])


@needs_gawk
@pytest.mark.parametrize("script", CASES)
def test_gawk_details(script: str) -> None:
    dt.check(script, stderr=True)


FIRST_MISSING = [f"awk '{p}' nope2 a.txt; echo rc=$?" for p in MISSING]


@needs_gawk
@pytest.mark.parametrize("script", FIRST_MISSING)
def test_gawk_first_file_missing(script: str) -> None:
    dt.check(script, stderr=True)

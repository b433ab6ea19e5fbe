"""grep option arguments found by the text-tools corpus, against GNU grep 3.8: ``-d`` takes a
unique prefix and refuses others with argmatch's list and usage (status 1), ``-D`` takes only
read or skip (status 2), ``--binary-files`` and ``--color`` as GNU checks them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "commands"))
import gnu_text_support as gts  # noqa: E402

FILES = {"notes.md": b"- x marks\nno match\n", "sub/a.md": b"x in sub\n"}
CASES = [
    "-d foo x notes.md", "-d re x notes.md", "-d rec x .", "-d recurse x .", "-d s x . notes.md",
    "--directories=fo x notes.md", "--directories=skip x . notes.md", "-d read x notes.md",
    "-D foo x notes.md", "-D read x notes.md", "-D skip x notes.md", "--devices=r x notes.md",
    "--binary-files=foo x notes.md", "--binary-files=t x notes.md", "--binary-files=text x notes.md",
    "--colour=sometimes x notes.md", "--color=al x notes.md", "--color=never x notes.md",
]


@pytest.mark.parametrize("args", CASES)
def test_option_arguments_match_gnu(args: str) -> None:
    gts.need("grep")
    gts.compare(["grep", *args.split()], files=FILES)

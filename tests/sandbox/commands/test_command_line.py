"""The shared command-line helpers (``options.parse_command_line``, ``_records.parse_settings``)
and the one name-quoting module (``_quoting``), checked against GNU across the commands that use
them: usage errors, ``--help`` handling and file names with hostile bytes in error messages.

Differential: every case runs the real tool too (LC_ALL=C.UTF-8, TZ=UTC) and a failure prints
the command that reproduces it. Seeded, so reproducible.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402

#: Each command with the arguments it needs before a FILE operand it reports as missing.
READERS = {
    "cat": [],
    "head": [],
    "tail": [],
    "wc": [],
    "cut": ["-b1"],
    "sort": [],
    "uniq": [],
    "rm": [],
    "ls": [],
}

#: Pieces of hostile file names: controls, invalid UTF-8, quotes, shell specials, colon,
#: characters that are printable but not ``str.isprintable`` (NBSP, BOM, ZWSP) and one that is
#: not printable in glibc (U+2028).
NAME_PIECES = [
    "a", "Z9", " ", "'", '"', "\\", ":", "#", "~", "{", "$", "*", "\n", "\t", "\x01", "\x7f",
    "\u00e9", "\u20ac", "\u00a0", "\ufeff", "\u200b", "\u2028", "\u2019", "\U0001f600",
    "\udcff", "\udc80",
]


def _names(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(NAME_PIECES) for _ in range(rng.randint(1, 4))) for _ in range(count)]


@pytest.mark.parametrize("prog", sorted(READERS))
def test_missing_file_names_are_quoted_as_gnu_does(prog: str) -> None:
    for name in _names(seed=len(prog), count=12):
        gts.compare([prog, *READERS[prog], name])


def test_date_reference_file_name_is_quoted_as_gnu_does() -> None:
    for name in _names(seed=7, count=12):
        gts.compare(["date", "-r", name])


#: Commands whose run() starts with parse_command_line or parse_settings.
PARSED = ["basename", "cat", "cp", "cut", "date", "dirname", "head", "ls", "mkdir", "mv", "rm",
          "seq", "sort", "tail", "tee", "touch", "tr", "uniq", "wc"]


@pytest.mark.parametrize("prog", PARSED)
def test_unknown_long_option_is_a_usage_error(prog: str) -> None:
    gts.compare([prog, "--no-such-option", "x"])
    gts.compare([prog, "--no-such-option=\xe9\udcff"])


@pytest.mark.parametrize("prog", ["cp", "cut", "date", "head", "mv", "seq", "sort", "tail", "touch", "uniq"])
def test_option_missing_its_argument_is_a_usage_error(prog: str) -> None:
    option = {"cp": "-t", "cut": "-d", "date": "-d", "head": "-n", "mv": "-t", "seq": "-s",
              "sort": "-t", "tail": "-n", "touch": "-d", "uniq": "-f"}[prog]
    gts.compare([prog, option])


@pytest.mark.parametrize("prog", PARSED)
def test_help_exits_zero_on_stdout_only(prog: str) -> None:
    """Our help text is our own (not GNU's manual), so only its channel and status are shared."""
    status, out, err = run_command([prog, "--help"])
    assert (status, err) == (0, b"") and out.startswith(b"Usage: "), (prog, status, out[:80], err)

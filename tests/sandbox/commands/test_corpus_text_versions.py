"""--version (and grep -V, awk -W version) of the text commands, found by the text-tools
corpus: the whole text the GNU tool on this machine prints, and sort's --version is not
--version-sort; each compared with the real tool."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

COMMANDS = ["sort", "uniq", "cut", "tr", "wc", "date", "seq", "nl", "paste", "comm", "join",
            "fmt", "expand", "unexpand", "tac", "head", "tail", "fold", "sed", "grep"]
OTHER = [["grep", "-V"], ["gawk", "-W", "version"], ["gawk", "-Wversion"], ["gawk", "--version"],
         ["gawk", "-F:", "-W", "version"], ["sort", "--vers"], ["sort", "--version", "x"]]


@pytest.mark.parametrize("name", COMMANDS)
def test_version_matches_gnu(name: str) -> None:
    gts.need(name)
    gts.compare([name, "--version"])


@pytest.mark.parametrize("argv", OTHER, ids=" ".join)
def test_version_spellings_match_gnu(argv: list[str]) -> None:
    gts.need(argv[0])
    if argv[0] == "gawk":  # ours is called awk; gawk names itself from argv[0]
        import subprocess
        from sandbox.commands.testing import run_command
        ref = subprocess.run(argv, capture_output=True, env=gts.REF_ENV)
        ours = run_command(["awk", *argv[1:]])
        assert (ours[0], ours[1]) == (ref.returncode, ref.stdout)
        return
    gts.compare(argv)

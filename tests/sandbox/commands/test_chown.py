"""chown: refused in one line, exit 1, nothing changed."""

from __future__ import annotations

import pytest

from sandbox.commands.testing import run_command


@pytest.mark.parametrize("args", [[], ["a", "b"], ["-s", "a", "b"], ["--help"], ["-R", "777", "a"], ["--bogus"]])
def test_refused_in_one_line(args: list[str]) -> None:
    files = {"a": b"x"}
    code, out, err = run_command(["chown", *args], files=files)
    assert code == 1 and out == b""
    assert err.startswith(b"chown: ") and err.count(b"\n") == 1 and b"not supported in the sandbox" in err

"""What a reader leaves in a pipe for the next one, against bash: GNU head reads a pipe a
BUFSIZ (8192 bytes) at a time and can't seek back, so ``{ head -n1; cat; }`` on a small pipe
loses the rest; on a file it seeks back and ``cat`` gets the rest; ``head -c`` and ``read``
take exactly what they need."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

CASES = [
    "printf 'a\\nb\\n' | { head -n1; cat; }",
    "printf 'a\\nb\\nc\\n' | { head -n2; cat; }",
    "printf 'a\\nb\\nc\\n' | { head -n1 > /dev/null; cat; echo end; }",
    "printf 'x\\ny\\n' | { head -c1; cat; }",
    "printf 'a\\nb\\n' | { read -r x; cat; echo \"[$x]\"; }",
    "printf 'a\\nb\\n' | { head -n1 >/dev/null; read -r x; echo \"[$x]\"; }",
    "printf 'one\\ntwo\\n' > f; { head -n1; cat; } < f",
    "printf 'one\\ntwo\\nthree\\n' > f; { head -n2 >/dev/null; cat; } < f",
    "printf 'h\\n1\\n2\\n' | { head -n 5; cat; }",
]


@pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")
@pytest.mark.parametrize("script", CASES)
def test_like_bash(script: str) -> None:
    dt.check(script)

"""The Python snippets of docs/memtool.md run as shown (except those needing a real model)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "memtool.md"


def test_python_snippets_run(tmp_path, monkeypatch, capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    ran = 0
    for block in blocks:
        if "OpenAIModel(" in block:
            continue  # needs a model endpoint and key
        exec(compile(block, str(DOC), "exec"), namespace)
        ran += 1
    assert ran >= 1
    out = capsys.readouterr().out
    assert "Appended to /memories/core.md" in out and "[core.md: " in out
    assert (tmp_path / ".memory" / "core.md").read_text().endswith("- Prefers metric units\n")

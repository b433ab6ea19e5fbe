"""The MCP server against a client this project did not write: the MCP Inspector's CLI
(``@modelcontextprotocol/inspector``, installed by ``.ci/run`` into ``.ci/node``; or named by
``$MCP_INSPECTOR``) lists the tools and calls both over stdio; a refused path comes back with
``isError: true``, a success with the memory tool's structured output."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
INSPECTOR = os.environ.get("MCP_INSPECTOR") or str(REPO / ".ci" / "node" / "node_modules" / ".bin" / "mcp-inspector")


@pytest.fixture(scope="module")
def inspector() -> str:
    if not (os.path.isfile(INSPECTOR) and shutil.which("node")):
        if os.environ.get("CI"):
            pytest.fail("the MCP Inspector CLI is missing: .ci/run installs it with npm")
        pytest.skip("the MCP Inspector CLI is not installed (bash .ci/run installs it; or set MCP_INSPECTOR)")
    return INSPECTOR


def call(inspector: str, root: Path, *args: str) -> dict:
    server = [sys.executable, "-m", "memtool", "mcp", "--path", str(root)]
    proc = subprocess.run([inspector, "--cli", *server, *args], capture_output=True, text=True,
                          timeout=120, cwd=root)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    from memtool import Memory

    Memory(str(tmp_path / "mem"), gitignore=False)  # bootstrapped from the templates
    (tmp_path / "mem" / "notes.md").write_text("# Notes\n\n- 2026-11-30: tea tasting on Friday\n")
    return tmp_path / "mem"


def test_lists_both_tools(inspector, root):
    out = call(inspector, root, "--method", "tools/list")
    names = {t["name"] for t in out["tools"]}
    assert names == {"memory", "bash"}
    memory = next(t for t in out["tools"] if t["name"] == "memory")
    assert "command" in memory["inputSchema"]["properties"]


def test_calls_the_memory_tool_with_structured_output(inspector, root):
    out = call(inspector, root, "--method", "tools/call", "--tool-name", "memory",
               "--tool-arg", "command=view", "--tool-arg", "path=/memories/notes.md")
    assert out["isError"] is False
    assert "tea tasting on Friday" in out["content"][0]["text"]
    assert out["structuredContent"]["result"] == out["content"][0]["text"]


def test_a_refused_path_is_an_error(inspector, root):
    out = call(inspector, root, "--method", "tools/call", "--tool-name", "memory",
               "--tool-arg", "command=view", "--tool-arg", "path=/etc/passwd")
    assert out["isError"] is True
    assert out["content"][0]["text"].startswith("Error:")


def test_calls_the_bash_tool(inspector, root):
    out = call(inspector, root, "--method", "tools/call", "--tool-name", "bash",
               "--tool-arg", "command=grep -c tea notes.md")
    assert out["isError"] is False and out["content"][0]["text"].startswith("1")
    out = call(inspector, root, "--method", "tools/call", "--tool-name", "bash",
               "--tool-arg", "command=cat /etc/passwd")
    assert "No such file or directory" in out["content"][0]["text"]

"""The fuzz worker: a child process that runs cases sent as JSON lines on stdin and answers
each on stdout, so the parent can kill it when a case outlives its limit (a hang)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
import traceback
from pathlib import Path

SEED_FILES = {
    "core.md": "# Core memory\n- Name: Maya\n- Prefers tea over coffee\n",
    "notes.md": "## 2026-11-02\nProject budget is 40k.\n\n## 2026-11-20\nPricing call moved.\n",
    "conversations.jsonl": '{"role": "user", "content": "hi", "timestamp": "2026-11-02T10:00:00Z"}\n'
                           '{"role": "assistant", "content": "hello", "timestamp": "2026-11-02T10:00:01Z"}\n',
    "dir/f.txt": "a\nb\nc\n",
}


def lay_out(root: Path) -> None:
    """(Re)create a small memory directory at ``root``."""
    if root.exists():
        shutil.rmtree(root)
    for name, text in SEED_FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def main(base: str, seconds: float) -> None:
    """Serve cases until stdin closes."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from memtool import Memory
    from sandbox import Limits, Policy, Sandbox
    from sandbox.commands import names

    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but answers on the protocol stream
    jail, memdir = Path(base) / "jail", Path(base) / "memory"
    limits = Limits(seconds=seconds, output_bytes=1 << 16, written_bytes=1 << 22)

    def fresh() -> tuple[Sandbox, Sandbox, Memory]:
        lay_out(jail)
        lay_out(memdir)
        everything = Policy(allow=frozenset(names()))
        sb = Sandbox(mounts={"/.memory": jail}, cwd="/.memory", policy=everything, limits=limits)
        ro = Sandbox(mounts={"/.memory": jail}, cwd="/.memory",
                     policy=Policy(allow=frozenset(names()), read_only=True), limits=limits)
        mem = Memory(memdir, bash_limits=limits)
        return sb, ro, mem

    sb, ro, mem = fresh()
    for line in sys.stdin:
        case = json.loads(line)
        start = time.monotonic()
        answer: dict = {"id": case["id"]}
        try:
            if case["kind"] == "reset":
                sb, ro, mem = fresh()
                answer["text"] = ""
            elif case["kind"] in ("sh", "ro"):
                r = (sb if case["kind"] == "sh" else ro).run(case["script"])
                answer["code"] = r.exit_code
                answer["text"] = (r.stdout + b"\n" + r.stderr).decode("utf-8", "replace")
            else:
                result = mem.call(case["name"], case["args"])
                if not isinstance(result, str):
                    answer["raised"] = f"call returned {type(result).__name__}, not str"
                answer["text"] = str(result)
        except BaseException as exc:  # the API must never raise: report it
            answer["raised"] = f"{type(exc).__name__}: {exc}"
            answer["text"] = traceback.format_exc()
        answer["elapsed"] = time.monotonic() - start
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))

"""Reader and runner for jq's test-suite format (``tests/jq.test`` and ``tests/man.test``).

A case is a program line, an input line and the expected outputs (one JSON value a line),
separated from the next case by a blank line; ``#`` lines are comments. ``%%FAIL`` cases
expect a compile error (the lines after the program are jq's message). Outputs are compared
the way jq's own runner compares them: by value (``jv_equal``), in order.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandbox.commands.jq import interp as I
from sandbox.commands.jq.builtins import builtin_table
from sandbox.commands.jq.compiler import Compiler, Globals
from sandbox.commands.jq.errors import Break, Halt, JQError, JQSyntaxError
from sandbox.commands.jq.jsonparse import InputReader, JSONParseError
from sandbox.commands.jq.parser import parse
from sandbox.commands.jq.values import dumps, equal
from sandbox.errors import LimitExceeded
from sandbox.limits import Budget, Limits

REPO_ROOT = Path(__file__).resolve().parents[3]
CONFORMANCE_DIR = REPO_ROOT.parent / "shared" / "conformance"
SKIP_FILE = Path(__file__).with_name("skips.txt")


@dataclass
class Case:
    """One test case of a conformance file."""

    file: str
    line: int  # 1-based line of the program
    program: str
    input: str = ""
    expected: list[str] = field(default_factory=list)
    fail: bool = False
    fail_message: list[str] = field(default_factory=list)
    ignore_msg: bool = False

    @property
    def key(self) -> str:
        """Stable identity used in the skip file: ``file:line``."""
        return f"{self.file}:{self.line}"


def read_cases(path: Path) -> list[Case]:
    """Parse a jq test file into cases."""
    lines = path.read_text(encoding="utf-8").split("\n")
    cases: list[Case] = []
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if line.strip() == "" or line.startswith("#"):
            i += 1
            continue
        if line.startswith("%%FAIL"):
            ignore = "IGNORE MSG" in line
            i += 1
            prog_line = i + 1
            program = lines[i]
            i += 1
            msg = []
            while i < n and lines[i].strip() != "":
                msg.append(lines[i])
                i += 1
            cases.append(Case(path.name, prog_line, program, fail=True, fail_message=msg, ignore_msg=ignore))
            continue
        prog_line = i + 1
        program = line
        i += 1
        inp = lines[i] if i < n else ""
        i += 1
        expected = []
        while i < n and lines[i].strip() != "":
            if not lines[i].startswith("#"):
                expected.append(lines[i])
            i += 1
        cases.append(Case(path.name, prog_line, program, inp, expected))
    return cases


def read_skips() -> dict[str, str]:
    """``file:line`` -> reason, from the skip file."""
    skips: dict[str, str] = {}
    if not SKIP_FILE.exists():
        return skips
    for raw in SKIP_FILE.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        key, _, reason = raw.partition(" ")
        skips[key.strip()] = reason.strip()
    return skips


def _values(text: str) -> list[Any]:
    return list(InputReader(io.BytesIO(text.encode("utf-8"))).values())


def run_case(case: Case, seconds: float = 120.0) -> tuple[bool, str]:
    """Run one case; return (passed, explanation)."""
    budget = Budget(Limits(seconds=seconds))
    runtime = I.Runtime(budget, {"PAGER": "less", "HOME": "/"})
    I.set_runtime(runtime)
    try:
        variables = {"ENV": dict(runtime.env), "ARGS": {"positional": [], "named": {}}}
        try:
            prog = Compiler(Globals(builtin_table(), variables)).compile(parse(case.program))
        except JQSyntaxError as e:
            if case.fail:
                return True, f"compile error: {e}"
            return False, f"unexpected compile error: {e}"
        if case.fail:
            return False, "expected a compile error, compiled fine"
        try:
            inputs = _values(case.input)
            expected = _values("\n".join(case.expected))
        except JSONParseError as e:
            return False, f"bad test data: {e}"
        if not inputs:
            return False, "no input value"
        rest = iter(inputs[1:])

        def next_input() -> Any:
            for x in rest:
                return x
            raise JQError("No more inputs")

        runtime.next_input = next_input
        outputs: list[Any] = []
        try:
            for out in prog.ev(inputs[0], None):
                outputs.append(out)
                if len(outputs) > len(expected) + 50:
                    break
        except JQError as e:
            # jq's runner ends a case's outputs at an uncaught error
            if len(outputs) < len(expected):
                return False, f"runtime error: {e.value!r} after {len(outputs)} outputs"
        except Break:
            return False, "uncaught break"
        except Halt as h:
            return False, f"halt {h.status}"
        except LimitExceeded as e:
            return False, f"limit: {e}"
        except RecursionError:
            return False, "recursion error"
        if len(outputs) != len(expected) or not all(equal(a, b) for a, b in zip(outputs, expected)):
            got = [dumps(o) for o in outputs]
            return False, f"expected {case.expected} got {got}"
        return True, ""
    finally:
        I.set_runtime(None)

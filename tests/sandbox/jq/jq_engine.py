"""Run a jq program on JSON text with our engine directly (no CLI), for tests."""

from __future__ import annotations

import io
from typing import Any

from sandbox.commands.jq import interp as I
from sandbox.commands.jq.builtins import builtin_table
from sandbox.commands.jq.compiler import Compiler, Globals
from sandbox.commands.jq.errors import Break, JQError, JQSyntaxError
from sandbox.commands.jq.jsonparse import InputReader
from sandbox.commands.jq.parser import parse
from sandbox.limits import Budget, Limits


def compile_program(program: str) -> I.Node:
    """Compile with empty globals; raises ``JQSyntaxError``."""
    variables = {"ENV": {}, "ARGS": {"positional": [], "named": {}}}
    return Compiler(Globals(builtin_table(), variables)).compile(parse(program))


def run_program(prog: I.Node, text: str, seconds: float = 5.0) -> tuple[str, Any]:
    """("ok", [outputs...]) or ("error", message) for every input value in ``text``."""
    runtime = I.Runtime(Budget(Limits(seconds=seconds)), {})
    I.set_runtime(runtime)
    try:
        outputs: list[Any] = []
        for v in InputReader(io.BytesIO(text.encode("utf-8"))).values():
            try:
                for out in prog.ev(v, None):
                    outputs.append(out)
            except JQError as e:
                return "error", e.value
            except Break:
                return "error", "break"
        return "ok", outputs
    finally:
        I.set_runtime(None)

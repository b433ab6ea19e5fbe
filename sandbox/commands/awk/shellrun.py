"""``system(cmd)``, ``cmd | getline`` and ``print | cmd``: the command string runs through
the sandbox itself, never a host process.

The string is parsed by the sandbox's shell parser and checked by the guard with the run's
policy (allowlist, read-only, protected paths) before anything runs; a refusal is one fatal
awk message. Only string literals are accepted as commands (a command computed at run time is
refused), so what runs is visible in the program text. The command runs in a fresh sandbox
shell over the same filesystem, environment and budget (time, output and write limits).
"""

from __future__ import annotations

import io

from sandbox.commands.awk.interp import AwkFatal


class _Buffer:
    def __init__(self, rt):
        self.buf = bytearray()
        self.rt = rt

    def write(self, data: bytes) -> int:
        self.buf += data
        if len(self.buf) > self.rt.str_limit:
            self.rt.budget.check_string(len(self.buf))
        return len(data)

    def flush(self) -> None:
        pass


def _guarded_tree(rt, cmd: bytes):
    from sandbox import guard
    from sandbox.errors import UnsupportedSyntax
    from sandbox.parse import parse

    text = cmd.decode("utf-8", "surrogateescape")
    try:
        tree = parse(text)
    except UnsupportedSyntax as exc:
        raise AwkFatal(f"cannot run `{text}' in the sandbox: {exc}", rt.cur_line) from None
    except RecursionError:
        raise AwkFatal(f"cannot run `{text}': nested too deeply", rt.cur_line) from None
    messages, _, _ = guard.check_full(text, tree, rt.ctx.policy, rt.ctx.cwd, env=rt.ctx.env)
    if messages:
        raise AwkFatal(f"refused to run `{text}': {messages[0]}", rt.cur_line)
    return tree


def check_shell(rt, cmd: bytes) -> None:
    """Raise ``AwkFatal`` if the command would be refused."""
    _guarded_tree(rt, cmd)


def run_shell(rt, cmd: bytes, stdin: bytes, capture: bool):
    """Run ``cmd``; return (exit status, captured stdout or b"")."""
    from sandbox.interpreter.core import IO, ExitShell, Shell
    from sandbox.interpreter.pipes import RunBudget

    tree = _guarded_tree(rt, cmd)
    ctx = rt.ctx
    budget = rt.budget
    if not isinstance(budget, RunBudget):
        run_budget = RunBudget(budget.limits)
        run_budget.deadline = budget.deadline
        run_budget.written = budget.written
        budget = run_budget
    out = _Buffer(rt) if capture else ctx.stdout
    shell = Shell(ctx.fs, ctx.cwd, ctx.policy, budget.limits, budget, dict(ctx.env))
    try:
        status = shell.run_script(tree, IO(io.BytesIO(stdin), out, ctx.stderr))
    except ExitShell as exc:
        status = exc.status
    if budget is not rt.budget:
        rt.budget.written = budget.written
    return status & 255, bytes(out.buf) if capture else b""

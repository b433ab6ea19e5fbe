"""The public API: ``Sandbox(mounts, cwd, policy, limits, env).run(script, stdin) -> Result``.

Each ``run`` parses the script (cached), guards it (a script with any violation runs nothing,
exit 126), then interprets it with a fresh budget. Shell state (variables, cwd, functions)
does not persist between runs. Many threads may call ``run`` on one ``Sandbox``.
"""

from __future__ import annotations

import io
import os
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass

from typing import Callable

from sandbox import commands as registry
from sandbox import guard
from sandbox.commands.base import CommandContext
from sandbox.errors import BrokenPipe, LimitExceeded, UnsupportedSyntax
from sandbox.fs.base import FileSystem, FSError
from sandbox.fs.memory import LazyMemoryFS
from sandbox.fs.paths import normalize
from sandbox.fs.vfs import VirtualFS
from sandbox.interpreter import redirs
from sandbox.interpreter.core import IO, ExitShell, Shell
from sandbox.interpreter import toplevel
from sandbox.interpreter.pipes import Capture, OutputAccount, RunBudget
from sandbox.limits import Limits
from sandbox.parse import parse, syntax_error_text, watch_time
from sandbox.parse.ast import Script
from sandbox.policy import Policy

#: The per-run scratch directory (see ``Sandbox.scratch``).
SCRATCH = "/tmp"
#: Exit status of a script the front end can't parse or doesn't support (as bash's syntax errors).
EXIT_SYNTAX = 2
#: Exit status of a script the guard refused.
EXIT_REFUSED = 126

# The interpreter recurses once per nesting level (several frames per level); make sure the
# configured recursion limits of scripts are reachable before Python's own limit is.
# (Set once, on import: Python 3.11 keeps pure-Python frames off the C stack, so this is safe.)
_MIN_PY_RECURSION = 6000
if sys.getrecursionlimit() < _MIN_PY_RECURSION:
    sys.setrecursionlimit(_MIN_PY_RECURSION)


@dataclass(frozen=True)
class Result:
    """What a run returns: exit status and the bytes written to stdout and stderr."""

    exit_code: int
    stdout: bytes
    stderr: bytes

    def text(self) -> str:
        """The model-facing string: stdout, then stderr, then ``[exit code N]`` if non-zero."""
        parts = [self.stdout.decode("utf-8", "replace"), self.stderr.decode("utf-8", "replace")]
        text = ""
        for p in parts:
            if p:
                if text and not text.endswith("\n"):
                    text += "\n"
                text += p
        if self.exit_code != 0:
            if text and not text.endswith("\n"):
                text += "\n"
            text += f"[exit code {self.exit_code}]"
        return text


def _mount(value: "str | os.PathLike[str] | FileSystem") -> FileSystem:
    if isinstance(value, FileSystem):
        return value
    from sandbox.fs.local import LocalDir
    return LocalDir(value)


class Sandbox:
    """A jailed shell over virtual mounts (see the module docstring)."""

    def __init__(
        self,
        mounts: "dict[str, str | os.PathLike[str] | FileSystem]",
        cwd: str = "/",
        policy: Policy = Policy(),
        limits: Limits = Limits(),
        env: dict[str, str] | None = None,
        commands: "dict[str, Callable[[CommandContext], int]] | None" = None,
        scratch: str | None = SCRATCH,
    ):
        self.fs = VirtualFS({point: _mount(v) for point, v in mounts.items()})
        #: Where each run gets an empty in-memory directory of its own (``/tmp``: ``mktemp``,
        #: ``sort x > /tmp/y``), gone when the run ends; None, or a path a mount already
        #: holds (``--root DIR``), for none. Its writes count against the run's write limit.
        self.scratch = normalize(scratch, "/") if scratch and self.fs.is_free(normalize(scratch, "/")) else None
        #: Embedder-defined commands (name -> run(ctx)), allowlisted like every other.
        self.commands: dict[str, registry.Command] = {
            name: registry.Command(name, fn) for name, fn in (commands or {}).items()}
        self.cwd = normalize(cwd, "/")
        self.policy = policy
        self.limits = limits
        base_env = {"HOME": self.cwd, "PWD": self.cwd, "IFS": None}
        base_env.pop("IFS")
        base_env.update(env or {})
        self.env: dict[str, str] = base_env  # type: ignore[assignment]
        self._guard_cache: OrderedDict[str, tuple[list[str], list[str], bool]] = OrderedDict()
        self._cache_lock = threading.Lock()

    # -- stages ---------------------------------------------------------------------------

    def _guard(self, script: str, tree: Script) -> tuple[list[str], bool]:
        """(violations, whether they are all refused syntax) — cached without a callback."""
        if self.policy.approve is not None:
            messages, _, syntax = guard.check_full(script, tree, self.policy, self.cwd,
                                                   self.commands, env=self.env)
            return messages, syntax
        with self._cache_lock:
            hit = self._guard_cache.get(script)
            if hit is not None:
                self._guard_cache.move_to_end(script)
                return hit[0], hit[2]
        result = guard.check_full(script, tree, self.policy, self.cwd, self.commands,
                                  env=self.env)
        with self._cache_lock:
            self._guard_cache[script] = result
            if len(self._guard_cache) > 1024:
                self._guard_cache.popitem(last=False)
        return result[0], result[2]

    def check(self, script: str) -> list[str]:
        """Parse and guard ``script`` without running it; return the refusals (empty: OK)."""
        try:
            tree = parse(script)
        except UnsupportedSyntax as exc:
            return [str(exc)]
        return self._guard(script, tree)[0]

    def run(self, script: str, stdin: bytes = b"") -> Result:
        """Parse, guard and run ``script``; never raises for anything the script does.

        The time limit holds from the moment the script arrives: parsing and guarding are
        charged to the same deadline as running."""
        budget = RunBudget(self.limits)
        if len(script.encode("utf-8", "surrogateescape")) > self.limits.script_bytes:
            return Result(125, b"", f"sandbox: script length limit of {self.limits.script_bytes}"
                          " bytes exceeded; send a shorter script\n".encode())
        watch_time(budget.check_time)
        try:
            tree = parse(script)
            violations, syntax_only = self._guard(script, tree)
        except UnsupportedSyntax as exc:
            text = (syntax_error_text(str(exc), exc.echo_line) if exc.bash_syntax
                    else f"sandbox: {exc}\n")  # bash's own error as bash -c prints it
            return Result(EXIT_SYNTAX, b"", text.encode("utf-8", "replace"))
        except RecursionError:
            return Result(EXIT_SYNTAX, b"", b"sandbox: script is nested too deeply; flatten it\n")
        except LimitExceeded as exc:
            return Result(exc.exit_code, b"", f"sandbox: {exc}\n".encode("utf-8", "replace"))
        finally:
            watch_time(None)
        if violations:
            # refused syntax alone (background &) exits 2 like other unsupported syntax
            text = "".join(f"sandbox: refused: {v}\n" for v in violations)
            return Result(EXIT_SYNTAX if syntax_only else EXIT_REFUSED, b"",
                          text.encode("utf-8", "replace"))
        return self._execute(tree, stdin, budget, script)

    def _execute(self, tree: Script, stdin: bytes, budget: RunBudget,
                 source: str | None = None) -> Result:
        account = OutputAccount(budget)
        out, err = Capture(account), Capture(account)
        fs = self.fs.for_run(budget, self.scratch, LazyMemoryFS() if self.scratch else None)
        shell = Shell(fs, self.cwd, self.policy, self.limits, budget, self.env)
        shell.commands = self.commands
        status = 0
        message = ""
        try:
            try:
                status = toplevel.run(shell, tree, IO(io.BytesIO(stdin), out, err), source)
            except ExitShell as e:
                status = e.status
            redirs.end_of_run(shell, out, err)  # `exec > >(tee log)`: the tee runs now
        except BrokenPipe:
            status = 141
        except LimitExceeded as exc:
            status, message = exc.exit_code, str(exc)
        except RecursionError:
            status, message = 125, (f"recursion limit exceeded (limit {self.limits.recursion_depth});"
                                    " nest or recurse less")
        except FSError as exc:  # pragma: no cover - defensive
            status, message = 1, f"{exc.path}: {exc}" if exc.path else str(exc)
        except Exception as exc:  # pragma: no cover - never a traceback to the caller
            status, message = 1, f"internal error ({type(exc).__name__}); please report"
        if budget.failure is not None:
            status, message = budget.failure.exit_code, str(budget.failure)
        stdout = out.getvalue()
        stderr = err.getvalue()
        if account.cut:
            stdout += (f"\n[output truncated: limit of {account.limit} bytes reached, "
                       f"at least {account.cut} more bytes cut]\n").encode()
        if message:
            stderr += f"sandbox: {message}\n".encode("utf-8", "replace")
        return Result(status & 255 if status >= 0 else 1, stdout, stderr)

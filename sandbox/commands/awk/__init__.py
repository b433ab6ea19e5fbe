"""``awk`` for the sandbox: the POSIX awk language as gawk 5 runs it, with gawk's everyday
extensions, in pure Python.

Modules: ``parser`` (on-demand lexer, recursive-descent parser, gawk's syntax messages),
``compiler`` (the AST compiled once into closures specialised by context), ``interp``
(runtime state: records, fields, output streams), ``builtins`` (built-in functions, getline,
comparisons, special variables), ``values`` (numbers, strings, strnums, conversions), ``fmt``
(printf), ``records`` (RS and FS), ``awkregex`` (gawk's regexp dialect on ``sandbox.regex``:
RE2 where possible, otherwise a memoising backtracker; both check the run's deadline),
``gawkrand`` (gawk's exact rand() sequence and for-in order), ``shellrun`` (commands).

Commands (``system()``, ``cmd | getline``, ``print | cmd``) run through the sandbox's own
parser, guard and interpreter, never the host: the command must be a string literal, and the
guard checks it (allowlist, read-only, protected paths) before it runs; anything else is
refused with one fatal message. Files are read and written through the jail (``ctx``), so the
write policy, read-only mode, protected paths and write budget apply; ``writes(args)`` lists
the literal ``>``/``>>`` targets of the program for the guard, and under ``-i inplace`` (gawk's
in-place editing, ``main.InPlace``) every file operand.

Limits: loops and function calls check the run's deadline (every 1,024 iterations),
recursion is bounded at ``10 * Limits.recursion_depth`` calls, strings (concatenation,
sprintf, records, sub/gsub results) at ``Limits.string_length``, the elements of all global
arrays at ``max(1M, string_length / 8)``; output goes through the run's output limit.
"""

from __future__ import annotations

from sandbox.commands.base import CommandContext


def run(ctx: CommandContext) -> int:
    """Run ``awk`` with ``ctx.argv``; see ``main.run``."""
    from sandbox.commands.awk.main import run as _run
    return _run(ctx)


def writes(args: list[str]) -> list[str]:
    """Literal output redirection targets of the program (for the read-only guard)."""
    from sandbox.commands.awk.main import writes as _writes
    return _writes(args)


__all__ = ["run", "writes"]

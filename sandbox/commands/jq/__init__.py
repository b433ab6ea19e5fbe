"""``jq`` for the sandbox: the jq language (1.7/1.8) in pure Python.

Modules: ``lexer`` (tokens), ``parser`` (AST), ``compiler`` (name resolution, AST to nodes),
``interp`` (evaluation), ``builtins`` (the builtin library), ``values`` (ordering, number
formatting, JSON output), ``jsonparse`` (streaming input), ``formats`` (``@csv``...),
``jqregex`` (regular expressions), ``dates`` (time functions), ``cli`` (options and exit
statuses).

Refused: modules (``import``, ``include``, ``-L``, ``modulemeta``, ``get_search_list``) with a
one-line message. ``env``/``$ENV`` show only the sandbox's environment; ``input_filename`` is the
operand as typed (a virtual path); ``halt_error``, ``stderr`` and ``debug`` write to the
command's stderr; files (operands, ``--slurpfile``, ``--rawfile``, ``-f``) are read through the
sandbox filesystem.

Limits: evaluation checks the run's time budget every few hundred units of work (values
produced, loop iterations, function calls, bytes serialized); arrays are bounded at
``max(1M, Limits.string_length / 8)`` items and strings at ``Limits.string_length``; runaway
recursion and data nested deeper than Python's recursion limit end with ``LimitExceeded``
(never a ``RecursionError`` traceback) or, for ``==``/``<``/``contains``/``*`` on such data,
with jq's own "... too deep" error.

Numbers follow jq 1.7/1.8 with decNumber for integers: integer literals (program and input)
keep their exact value until arithmetic turns them into doubles; other numbers are doubles
printed as jq prints them (shortest round-trip, 17 significant digits, ``1e1000`` as
``1.7976931348623157e+308``). Unlike a decNumber jq we do not keep the literal text of
non-integer numbers (``1.000`` prints ``1``, ``1E+2`` prints ``100``).

Cold start: importing this package loads only the CLI, parser, compiler and evaluator. The
builtin library (``builtins``) is imported at the first builtin name a program refers to, its
date, regex and format helpers at their first call, and each jq-defined prelude function is
parsed and compiled at its first reference (thread-safe: pipeline stages run in threads). So
``tail -n 40 f | jq -c .`` in a fresh process pays for none of them (bench/results/jq.md).

Error messages use the jq 1.8 wording (``Cannot index number with string ("foo")``), which the
conformance suite and libjq 1.8 share. Regular expressions: see ``jqregex``.
"""

from __future__ import annotations

from sandbox.commands.base import CommandContext
from sandbox.commands.jq.cli import run as _run


def run(ctx: CommandContext) -> int:
    """Run ``jq`` with ``ctx.argv``; see ``cli.run``."""
    return _run(ctx)


__all__ = ["run"]

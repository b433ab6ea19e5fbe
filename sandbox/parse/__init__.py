"""The front end: shell script text to our typed AST (``sandbox.parse.ast``).

``sandbox.parse.parser`` is a hand-written recursive-descent parser (tens of microseconds per
command) and the only parser on the run path. Its syntax errors are final: one line, as bash
words them, exit status 2 (a ``[[ ]]`` that does not parse: ``$?``, as bash; ``parse`` gives
a ``SyntaxFailure`` node that reports it). ``parser.RUN_LINES_BEFORE_SYNTAX_ERROR`` would run
the complete lines before the error as bash -c does.

``sandbox.parse.bashlex_frontend`` converts bashlex's tree to the same AST. It is not used to
run scripts: bashlex can loop for ever on malformed input (``\'\'\'${\'h)`` never returns) and no
time limit can stop a pure-Python loop that checks none. It stays as a second opinion in the
tests (``tests/sandbox/shell/test_bashlex_frontend.py`` checks both give the same AST over the
whole differential corpus).

``parse(text)`` is the entry point; parsed scripts are cached (LRU, keyed by the text) since
the AST is never mutated after parsing. ``watch_time(budget.check_time)`` makes the parses of
the calling thread end at the run's deadline (``LimitExceeded``).
"""

from __future__ import annotations

from functools import lru_cache

from sandbox.errors import UnsupportedSyntax
from sandbox.parse.ast import Script
from sandbox.parse.parser import parse_script, syntax_error_text, watch_time

__all__ = ["parse", "parse_strict", "parse_uncached", "Script", "UnsupportedSyntax",
           "syntax_error_text", "watch_time"]


def parse_uncached(text: str) -> Script:
    """Parse ``text``; raise ``UnsupportedSyntax`` (one line) for anything we don't run."""
    return parse_script(text)


@lru_cache(maxsize=1024)
def parse(text: str) -> Script:
    """A whole script behind an LRU cache of 1,024 scripts; a syntax error raises as in
    ``parse_uncached``, but a ``[[ ]]`` that does not parse gives a ``SyntaxFailure`` (bash
    reports it and leaves with ``$?``)."""
    return parse_script(text, lines_before_error=True)


@lru_cache(maxsize=1024)
def parse_strict(text: str) -> Script:
    """``parse_uncached`` behind an LRU cache (every syntax error raises): for strings the
    shell runs itself (``eval``, trap actions), whose errors are reported before any runs."""
    return parse_uncached(text)

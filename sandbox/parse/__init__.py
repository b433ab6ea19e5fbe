"""The front end: shell script text to our typed AST (``sandbox.parse.ast``).

Two paths produce the same AST (``tests/sandbox/shell/test_bashlex_frontend.py`` compares
them over the whole differential corpus):

- ``sandbox.parse.parser``: a hand-written recursive-descent parser (tens of microseconds per
  command), the primary path;
- ``sandbox.parse.bashlex_frontend``: bashlex's tree converted to our AST (several hundred
  microseconds; it also rejects here-documents with a quoted delimiter). It is the fallback
  when the hand-written parser reports a syntax error.

``parse(text)`` is the entry point; parsed scripts are cached (LRU, keyed by the text) since
the AST is never mutated after parsing.
"""

from __future__ import annotations

from functools import lru_cache

from sandbox.errors import UnsupportedSyntax
from sandbox.parse.ast import Script
from sandbox.parse.parser import parse_script

__all__ = ["parse", "parse_uncached", "Script"]


def parse_uncached(text: str) -> Script:
    """Parse ``text``; raise ``UnsupportedSyntax`` (one line) for anything we don't run."""
    try:
        return parse_script(text)
    except UnsupportedSyntax as exc:
        message = str(exc)
        if not (message.startswith("syntax error") or message.startswith("unexpected EOF")):
            raise  # a construct we refuse on purpose: bashlex must not let it through
        from sandbox.parse.bashlex_frontend import parse_with_bashlex
        try:
            return parse_with_bashlex(text)
        except UnsupportedSyntax:
            raise exc from None


@lru_cache(maxsize=1024)
def parse(text: str) -> Script:
    """``parse_uncached`` behind an LRU cache of 1,024 scripts."""
    return parse_uncached(text)

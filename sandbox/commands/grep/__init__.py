"""grep: print lines that match patterns, as GNU grep 3.8 does in a UTF-8 locale.

Modules: ``cli`` (options), ``main`` (operands, recursion, summaries, status), ``search`` (the
general engine), ``native`` (the block path over the optional C accelerator
``sandbox._native._linescan``), ``fast`` (the pure-Python block paths), ``perl`` (``-P``:
PCRE2 patterns translated to the ``regex`` module), ``color`` (--color=always and GREP_COLORS)
and ``usage`` (the --help text).

Input is read in 1 MiB chunks, searched in place up to their last line end. When the C
accelerator is built (and ``SANDBOX_NATIVE`` is not ``0``), a pattern that is a few fixed
strings (literals, anchors, ASCII bracket expressions, small alternations) is counted or
printed a block per C call (``native``); what it cannot answer exactly goes on to the Python
paths, which give the same bytes. A literal pattern (most of a model's greps)
is handled a block at a time (``fast``: ``bytes.find``/``split`` and one write per block); any
other pattern is searched with one regex call per matching line (RE2 for most patterns, see
``sandbox.regex``), so memory stays bounded and Python never loops over non-matching lines.
``-m`` and ``-q`` stop reading at the match that ends the work. Output follows a port of GNU's
``grepbuf``/``prtext``/``prline`` (context, group separators, ``-m`` trailing context, ``-o``
with context, binary files, encoding errors). Binary detection follows GNU's 96 KiB buffers:
lines that end before the buffer holding the first NUL are output as text, whatever the chunk
size (``search.CHUNK``, which tests set to a few bytes).

Differences from GNU, by design: ``-r`` walks directories in sorted order (GNU uses directory
order) and never follows a symbolic link (one named on the command line is refused in one
line; those met while recursing are skipped silently, as are FIFOs and devices, as GNU's -r
does); ``-D``/``-U``/``-u`` are accepted and ignored; groups nested more than 120 deep are
"Regular expression too big". With context options, a run of ``-v`` lines that holds a line
suppressed for invalid UTF-8 gets a group separator where a chunk ends inside it (GNU: where
its 96 KiB buffer ends).

``-P`` follows GNU grep 3.8 with PCRE2 10.42 (see ``perl``), searching a line at a time. It
differs where the engines do: a pattern that backtracks without end stops at the run's time
limit (GNU: "exceeded PCRE's backtracking limit", status 2); ``\\X`` clusters and the Unicode
tables (``\\p{..}``, case folding) are the ``regex`` module's; the verbs ``(*ACCEPT)``,
``(*COMMIT)``, ``(*THEN)``, ``(*MARK)`` and ``(?(R)...)`` conditions are refused with a
message; groups nested deeper than about 150 are "parentheses are too deeply nested" (PCRE2:
250); PCRE2's error messages are matched for the common mistakes only.
"""

from __future__ import annotations

from sandbox.commands.grep.main import run

__all__ = ["run"]

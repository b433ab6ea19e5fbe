"""grep: print lines that match patterns, as GNU grep 3.8 does in a UTF-8 locale.

Input is read in 1 MiB chunks cut at a line end and searched with one regex call per matching
line (RE2 for most patterns, see ``sandbox.regex``), so memory stays bounded and Python never
loops over non-matching lines. ``-m`` and ``-q`` stop reading at the match that ends the work.
Output follows a port of GNU's ``grepbuf``/``prtext``/``prline`` (context, group separators,
``-m`` trailing context, ``-o`` with context, binary files, encoding errors).

Differences from GNU, by design: ``-r`` walks directories in sorted order (GNU uses directory
order); ``-P`` is refused (use ``-E``); ``--color`` accepts ``never`` and ``auto`` (output is
never a terminal, so never coloured) and refuses ``always``; binary detection (a NUL byte)
looks at each 1 MiB chunk rather than GNU's 96 KiB buffers, so in a file larger than that the
point where output turns into "binary file matches" may differ; ``-D``/``-U``/``-u`` are
accepted and ignored; groups nested more than 120 deep are "Regular expression too big".
"""

from __future__ import annotations

from sandbox.commands.grep.main import run

__all__ = ["run"]

"""``bc``: GNU bc 1.07.1, the arbitrary-precision calculator language, for the sandbox.

POSIX bc plus GNU's extensions: numbers with a scale and libbc's scale rules for ``+ - * / % ^``,
``scale``/``ibase`` (2..36)/``obase`` (2.. with GNU's space-separated digit groups above 16),
``length() scale() sqrt()``, variables, arrays, ``++ --``, ``op=``, relations, ``&& || !``,
``if``/``else``, ``while``, ``for`` (empty parts), ``break``, ``continue``, ``halt``, ``quit``
(when parsed, as GNU), ``return``, ``define [void]`` with ``auto`` and array parameters (``*a[]``
by reference), ``print``, strings, ``/* */`` and ``#`` comments, ``last``/``.``, ``limits``,
``warranty``, ``random()`` (glibc's sequence); options ``-l -q -s -w -i -h -v``; files, then
standard input; output wrapped at ``BC_LINE_LENGTH`` (70; 0: never) with a backslash.

The parser emits GNU's code text and the machine runs it byte for byte (``machine.py``), so
runtime messages carry GNU's addresses; ``-l``'s six functions are our own (``libmath.py``: the
exact value truncated to ``scale``). ``read()`` is refused (standard input holds the program).
Bounds: results of more than 100,000 digits or with a scale above 12,000 (``-l``'s functions
run up to that scale, with at most 500,000 bits of working precision), function calls nested
more than 2,000 deep, programs nested more than 200 levels, more than 4,000,000 live array
elements: each ends bc with a one-line ``bc: ... refused`` message (status 1). Every loop checks
the time budget.
"""

from __future__ import annotations

from sandbox.commands.bc.main import run

__all__ = ["run"]

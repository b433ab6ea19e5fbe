"""What a program prints when it read a standard input that ``<&-`` closed and closing it at
exit fails too (EBADF), measured from GNU coreutils 9.1 (``CMD <&-``): after its own read
error each prints one more line, ``NAME: WHAT: Bad file descriptor``, and exits 1. Not a
command (the leading underscore keeps it out of the registry).

``WHAT`` is the program's own wording: gnulib's ``close_stdin`` (``closing standard input``),
the operand as given (``-``), or the file's name in messages (``standard input``). Programs
not listed print nothing more (grep, sed, sort, uniq, base64, the pagers...).
"""

from __future__ import annotations

_DASH = "head tail wc tac nl paste fold expand unexpand cut"
_STANDARD_INPUT = "od md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum tee cksum sum tsort"

#: Program name -> what its message on closing fd 0 names.
CLOSE_NAMES: dict[str, str] = {
    "cat": "closing standard input", "fmt": "closing standard input",
    "dd": "closing input file 'standard input'",
    **{name: "-" for name in _DASH.split()},
    **{name: "standard input" for name in _STANDARD_INPUT.split()},
}


def closed_stdin_line(name: str) -> str | None:
    """The line ``name`` prints when closing its closed stdin fails, or None."""
    what = CLOSE_NAMES.get(name)
    return None if what is None else f"{name}: {what}: Bad file descriptor\n"

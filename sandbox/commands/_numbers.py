"""gnulib ``xstrtoumax`` / ``xdectoumax``: GNU's parsing of counts such as ``-n 10K``.

``parse_count(text, suffixes)`` returns the value, or raises ``CountError`` whose ``overflow``
flag tells the caller to append ``: Value too large for defined data type`` as coreutils does.
"""

from __future__ import annotations

from sandbox.commands._quoting import quote

UINTMAX_MAX = (1 << 64) - 1
#: What C's isspace() skips before a number.
_C_SPACES = " \t\n\v\f\r"

#: Exponents of the multiplier suffixes (powers of 1000 or 1024), as in xstrtol.c.
_POWERS = {"k": 1, "K": 1, "m": 2, "M": 2, "G": 3, "g": 3, "T": 4, "t": 4, "P": 5, "E": 6,
           "Z": 7, "Y": 8}
_SPACES = " \t\n\v\f\r"

#: The suffixes head and tail accept.
SIZE_SUFFIXES = "bkKmMGTPEZY0"
OVERFLOW_MESSAGE = "Value too large for defined data type"


class CountError(ValueError):
    """A count GNU refuses; ``overflow`` is True when it was only too large."""

    def __init__(self, overflow: bool):
        super().__init__("overflow" if overflow else "invalid")
        self.overflow = overflow


class BadArgument(Exception):
    """A command-line error already worded for the user: printed as ``prog: message`` with
    status 1 and no ``Try ... --help`` line."""


def count_argument(text: str, lines: bool) -> int:
    """``parse_count`` for head's and tail's ``-n``/``-c`` NUM: raises ``BadArgument`` with
    GNU's ``invalid number of lines|bytes: ‘NUM’`` (plus the overflow detail)."""
    try:
        return parse_count(text)
    except CountError as e:
        detail = f": {OVERFLOW_MESSAGE}" if e.overflow else ""
        raise BadArgument(f"invalid number of {'lines' if lines else 'bytes'}: {quote(text)}{detail}") from None


def parse_count(text: str, suffixes: str = SIZE_SUFFIXES) -> int:
    """Parse an unsigned decimal count with an optional multiplier suffix, like xdectoumax."""
    i = 0
    while i < len(text) and text[i] in _SPACES:
        i += 1
    if i < len(text) and text[i] == "-":
        raise CountError(False)
    j = i
    if j < len(text) and text[j] == "+":
        j += 1
    k = j
    while k < len(text) and "0" <= text[k] <= "9":
        k += 1
    if k == j:
        # No digits: a lone valid suffix means 1 of it ("k" is 1024).
        if i < len(text) and text[i] in suffixes and text[i] != "0":
            value, rest = 1, text[i:]
        else:
            raise CountError(False)
    else:
        digits = text[j:k].lstrip("0") or "0"
        # Far beyond 2**64 either way; avoids Python's int() digit limit on hostile input.
        value = UINTMAX_MAX + 1 if len(digits) > 25 else int(digits)
        rest = text[k:]
    overflow = value > UINTMAX_MAX
    if overflow:
        value = UINTMAX_MAX
    if rest:
        ch = rest[0]
        if ch not in suffixes or ch == "0":
            raise CountError(False)
        base, used = 1024, 1
        if "0" in suffixes and len(rest) > 1 and ch in _POWERS:
            if rest[1] == "i" and rest[2:3] == "B":
                used = 3
            elif rest[1] in "BD":
                base, used = 1000, 2
        if ch == "b":
            factor = 512
        elif ch == "B":
            factor = 1024
        elif ch == "c":
            factor = 1
        elif ch == "w":
            factor = 2
        elif ch in _POWERS:
            factor = base ** _POWERS[ch]
        else:
            raise CountError(False)
        value *= factor
        if value > UINTMAX_MAX:
            overflow, value = True, UINTMAX_MAX
        if rest[used:]:
            raise CountError(False)
    if overflow:
        raise CountError(True)
    return value


def first_digit_option(args: list[str], takes_arg: str, valid: str) -> str | None:
    """The digit getopt would meet before any other error in ``args`` (head/tail treat digit
    options as errors at the point getopt returns them), or None.

    ``takes_arg``: short options with a required argument; ``valid``: all short options.
    Long options are skipped (``--opt value`` consumes the next word when it has no ``=``
    and the name starts one of ``long_with_arg``, approximated by ``--b``/``--l``/``--s``/``--p``).
    """
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            return None
        if arg.startswith("--"):
            if "=" not in arg and arg[2:3] in ("b", "l", "s", "p", "m"):
                i += 1
            continue
        if not arg.startswith("-") or arg == "-":
            continue
        for j, ch in enumerate(arg[1:], 1):
            if ch.isdigit() and ch.isascii():
                return ch
            if ch not in valid:
                return None
            if ch in takes_arg:
                if j == len(arg) - 1:
                    i += 1
                break
    return None


def xstrtoimax(text: str) -> tuple[str, int]:
    """gnulib ``xstrtoimax`` with no valid suffixes: ("ok" | "overflow" | "invalid" |
    "suffix", value); "suffix" is a number followed by other characters (value kept)."""
    i = 0
    while i < len(text) and text[i] in _C_SPACES:
        i += 1
    sign = 1
    if i < len(text) and text[i] in "+-":
        sign = -1 if text[i] == "-" else 1
        i += 1
    j = i
    while j < len(text) and "0" <= text[j] <= "9":
        j += 1
    if j == i:
        return "invalid", 0
    digits = text[i:j].lstrip("0") or "0"
    value = sign * (int(digits) if len(digits) < 25 else 1 << 80)
    if not -(1 << 63) <= value < 1 << 63:
        return ("overflow" if j == len(text) else "invalid"), 0
    if j != len(text):
        return "suffix", value
    return "ok", value

"""C ``strtoul(s, &end, 0)`` number scanning shared by od, xxd, hexdump and strings: ``0x``
hexadecimal, a leading ``0`` octal, decimal otherwise; each caller adds its own sign, blank
and suffix rules. Not a command (the leading underscore keeps it out of the registry)."""

from __future__ import annotations

HEX_DIGITS = "0123456789abcdefABCDEF"


def scan_number(s: str) -> tuple[int | None, str]:
    """(value, rest) of the unsigned base-0 number at the start of ``s``; value None when no
    digit starts it (``0x`` without a hex digit reads as ``0`` followed by ``x``, as in C)."""
    if s[:2] in ("0x", "0X") and s[2:3] and s[2] in HEX_DIGITS:
        base, digits, body = 16, HEX_DIGITS, s[2:]
    elif s.startswith("0"):
        base, digits, body = 8, "01234567", s
    else:
        base, digits, body = 10, "0123456789", s
    j = 0
    while j < len(body) and body[j] in digits:
        j += 1
    if j == 0:
        return None, s
    if j > 400:  # far beyond any 64-bit value; avoids Python's int() digit limit
        return 1 << 1400, body[j:]
    return int(body[:j], base), body[j:]

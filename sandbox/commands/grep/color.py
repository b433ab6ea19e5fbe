"""grep --color=always: GNU grep 3.8's SGR sequences and its ``GREP_COLORS`` parser.

``--color=auto`` (and a bare ``--color``) colours only a terminal, and a command's output in
the sandbox never is one, so it means never. ``GREP_COLORS`` is parsed as GNU's
``parse_grep_colors`` does: ``name=value`` capabilities separated by ``:`` (``mt ms mc sl cx fn
ln bn se``), the booleans ``rv`` and ``ne``; unknown names are ignored; parsing stops silently
at the first malformed entry (a value holding anything but digits and ``;``), keeping what was
set before it. The legacy ``GREP_COLOR`` sets ``mt`` and draws GNU's deprecation warning when it
still has an effect after ``GREP_COLORS``.
"""

from __future__ import annotations

from dataclasses import dataclass

_LEGACY = object()  # marks a colour taken from GREP_COLOR (GNU compares the pointer)


@dataclass
class Colors:
    """The colour capabilities in effect (SGR parameter strings; empty means no colour)."""

    selected_match: str = "01;31"
    context_match: str = "01;31"
    selected_line: str = ""
    context_line: str = ""
    filename: str = "35"
    line_number: str = "32"
    byte_offset: str = "32"
    separator: str = "36"
    reverse: bool = False  # rv: with -v, sl and cx swap roles
    start_fmt: str = "\33[%sm\33[K"
    end_seq: bytes = b"\33[m\33[K"

    def start(self, sgr: str) -> bytes:
        """The sequence that starts colour ``sgr`` (empty when ``sgr`` is)."""
        return (self.start_fmt % sgr).encode() if sgr else b""

    def wrap(self, sgr: str, text: bytes) -> bytes:
        """``text`` in colour ``sgr`` (unchanged when ``sgr`` is empty)."""
        if not sgr:
            return text
        return (self.start_fmt % sgr).encode() + text + self.end_seq


def from_env(env: dict[str, str]) -> tuple[Colors, str | None]:
    """The colours for this run and GNU's GREP_COLOR deprecation warning (or None)."""
    colors = Colors()
    legacy = env.get("GREP_COLOR", "")
    values: dict[str, object] = {}
    if legacy and all(c == ";" or c.isdigit() and c.isascii() for c in legacy):
        values["ms"] = values["mc"] = _LEGACY
    _parse(env.get("GREP_COLORS", ""), values, colors)
    for name, attr in _NAMES.items():
        if name in values:
            value = values[name]
            setattr(colors, attr, legacy if value is _LEGACY else value)
    warning = None
    if values.get("ms") is _LEGACY or values.get("mc") is _LEGACY:
        warning = f"warning: GREP_COLOR='{legacy}' is deprecated; use GREP_COLORS='mt={legacy}'"
    return colors, warning


_NAMES = {"ms": "selected_match", "mc": "context_match", "sl": "selected_line",
          "cx": "context_line", "fn": "filename", "ln": "line_number", "bn": "byte_offset",
          "se": "separator"}


def _apply(name: str, val: str | None, values: dict[str, object], colors: Colors) -> None:
    if name == "mt":
        if val is not None:
            values["ms"] = val
        values["mc"] = values.get("ms", colors.selected_match)
    elif name in _NAMES:
        if val is not None:
            values[name] = val
    elif name == "rv":
        colors.reverse = True
    elif name == "ne":
        colors.start_fmt = "\33[%sm"
        colors.end_seq = b"\33[m"


def _parse(spec: str, values: dict[str, object], colors: Colors) -> None:
    """GNU's ``parse_grep_colors`` over ``spec``."""
    if not spec:
        return
    name: list[str] = []
    val: list[str] | None = None
    for c in spec + "\0":
        if c in ":\0":
            _apply("".join(name), None if val is None else "".join(val), values, colors)
            if c == "\0":
                return
            name, val = [], None
        elif c == "=":
            if not name or val is not None:
                return
            val = []
        elif val is None:
            name.append(c)
        elif c == ";" or ("0" <= c <= "9"):
            val.append(c)
        else:
            return

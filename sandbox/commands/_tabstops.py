"""Tab stops for expand and unexpand: coreutils' expand-common.c (``-t`` lists with ``/N``
and ``+N``, validation messages, ``get_next_tab_column``).

Not a command (the leading underscore keeps it out of the registry).
"""

from __future__ import annotations

from sandbox.commands._quoting import quote

UINTMAX = (1 << 64) - 1


class TabError(Exception):
    """A tab list GNU refuses: ``messages`` are the lines it prints (status 1)."""

    def __init__(self, messages: list[str]):
        super().__init__("; ".join(messages))
        self.messages = messages


class TabStops:
    """The accumulated tab settings of one run (several ``-t`` options add up)."""

    def __init__(self) -> None:
        self.stops: list[int] = []
        self.extend = 0
        self.increment = 0
        self.size = 0

    def parse(self, text: str) -> None:
        """GNU ``parse_tab_stops``: add the stops of one ``-t`` argument."""
        errors: list[str] = []
        have = extend = increment = False
        value = 0
        num_start = 0
        i = 0
        while i < len(text):
            ch = text[i]
            if ch in ", \t":
                if have:
                    if not self._store(value, extend, increment, errors):
                        break
                have = False
            elif ch == "/":
                if have:
                    errors.append(f"'/' specifier not at start of number: {quote(text[i:])}")
                extend, increment = True, False
            elif ch == "+":
                if have:
                    errors.append(f"'+' specifier not at start of number: {quote(text[i:])}")
                increment, extend = True, False
            elif "0" <= ch <= "9":
                if not have:
                    value, have, num_start = 0, True, i
                value = value * 10 + ord(ch) - 48
                if value > UINTMAX:
                    end = num_start
                    while end < len(text) and "0" <= text[end] <= "9":
                        end += 1
                    errors.append(f"tab stop is too large {quote(text[num_start:end])}")
                    i = end - 1
                    value = 0
            else:
                errors.append(f"tab size contains invalid character(s): {quote(text[i:])}")
                break
            i += 1
        else:
            if not errors and have:
                self._store(value, extend, increment, errors)
        if errors:
            raise TabError(errors)

    def _store(self, value: int, extend: bool, increment: bool, errors: list[str]) -> bool:
        if extend:
            if self.extend:
                errors.append("'/' specifier only allowed with the last value")
                self.extend = value
                return False
            self.extend = value
        elif increment:
            if self.increment:
                errors.append("'+' specifier only allowed with the last value")
                self.increment = value
                return False
            self.increment = value
        else:
            self.stops.append(value)
        return True

    def finalize(self) -> None:
        """GNU ``finalize_tab_stops``: validate and pick the single-size fast case."""
        prev = 0
        for tab in self.stops:
            if tab == 0:
                raise TabError(["tab size cannot be 0"])
            if tab <= prev:
                raise TabError(["tab sizes must be ascending"])
            prev = tab
        if self.increment and self.extend:
            raise TabError(["'/' specifier is mutually exclusive with '+'"])
        if not self.stops:
            self.size = self.extend or self.increment or 8
        elif len(self.stops) == 1 and not self.extend and not self.increment:
            self.size = self.stops[0]
        else:
            self.size = 0

    def next_column(self, column: int, index: int) -> tuple[int, int, bool]:
        """GNU ``get_next_tab_column``: (next stop, new list index, past the last stop)."""
        if self.size:
            return column + self.size - column % self.size, index, False
        stops = self.stops
        while index < len(stops):
            if column < stops[index]:
                return stops[index], index, False
            index += 1
        if self.extend:
            return column + self.extend - column % self.extend, index, False
        if self.increment:
            end = stops[-1]
            return column + self.increment - (column - end) % self.increment, index, False
        return 0, index, True


def tab_options(key: str, value: str | None) -> str | None:
    """The tab list text an option stands for: ``-t LIST`` or an obsolete ``-N[,LIST]``."""
    if key == "t":
        return value or ""
    if len(key) == 1 and key.isdigit():
        return key + (value or "")
    return None

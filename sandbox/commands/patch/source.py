"""The patch text as GNU patch reads it: a seekable stream of lines (``pget_line``), with
leading indentation, RFC 934 ``- `` prefixes, trailing CRs and ``#`` comment lines removed."""

from __future__ import annotations

from typing import Callable


class PatchSource:
    """The whole patch in memory, read line by line from a position (GNU's ``pfp``)."""

    def __init__(self, data: bytes, say: Callable[[bytes], None]):
        self.data = data
        self.pos = 0
        #: Number of the last line read (GNU's ``p_input_line``).
        self.input_line = 0
        #: The last line read, with its newline (GNU's ``buf``).
        self.buf = b""
        self._say = say

    def tell(self) -> int:
        """The current offset."""
        return self.pos

    def seek(self, pos: int) -> None:
        """Go to an offset."""
        self.pos = pos

    def pget_line(self, indent: int, nesting: int, strip_cr: bool, pass_comments: bool) -> int:
        """Read a line into ``buf``, as GNU's ``pget_line``: skip up to ``indent`` columns of
        blanks (and ``X``), drop up to ``nesting`` leading ``- ``, skip ``#`` lines unless
        ``pass_comments``, turn a trailing CR LF into LF when ``strip_cr``. Returns its length;
        0 at the end (a last line without newline says so and is dropped)."""
        data = self.data
        n = len(data)
        while True:
            pos = self.pos
            col = 0
            while True:
                if pos >= n:
                    self.pos = pos
                    return 0
                c = data[pos]
                pos += 1
                if indent <= col:
                    break
                if c == 0x20 or c == 0x58:
                    col += 1
                elif c == 0x09:
                    col = (col + 8) & ~7
                else:
                    break
            prefix = b""
            while c == 0x2D and nesting > 0:
                nesting -= 1
                if pos >= n:
                    return self._middle()
                c = data[pos]
                pos += 1
                if c != 0x20:
                    prefix = b"-"
                    break
                if pos >= n:
                    return self._middle()
                c = data[pos]
                pos += 1
            end = data.find(b"\n", pos - 1)
            if end < 0:
                return self._middle()
            line = prefix + data[pos - 1:end + 1]
            self.pos = end + 1
            self.input_line += 1
            if line[:1] != b"#" or pass_comments:
                break
        if strip_cr and len(line) >= 2 and line[-2] == 0x0D:
            line = line[:-2] + b"\n"
        self.buf = line
        return len(line)

    def _middle(self) -> int:
        self.pos = len(self.data)
        self._say(b"patch unexpectedly ends in middle of line\n")
        return 0

    def incomplete_line(self) -> bool:
        """GNU's ``incomplete_line``: if the next line starts with a backslash (``\\ No
        newline at end of file``), skip it and return True; else leave the position."""
        pos = self.pos
        if pos < len(self.data) and self.data[pos] == 0x5C:
            end = self.data.find(b"\n", pos)
            self.pos = len(self.data) if end < 0 else end + 1
            return True
        return False

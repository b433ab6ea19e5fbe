"""``diff -e`` scripts. GNU patch collects the ed commands (pch.c's ``do_ed_script``) and runs
``ed -`` on a copy of the file; here the commands diff -e writes (``[N[,M]]a``, ``i``, ``c``,
``d``, ``[N]s/.//``) are carried out on the lines in memory, as GNU ed 1.19 does, with its
``Newline appended`` note and its ``?`` and exit on the first bad address."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.commands.patch.intuit import ed_command_letter

if TYPE_CHECKING:
    from sandbox.commands.patch.reader import PatchReader


class EdFailed(Exception):
    """ed stopped on an error (it printed ``?``): patch reports ``ed FAILED``."""


def collect_script(r: "PatchReader") -> list[bytes]:
    """The ed commands (with their text lines) from here to the first line that is not one;
    the next file patch is searched from there."""
    src = r.src
    script: list[bytes] = []
    while True:
        beginning = src.tell()
        if not r.get_line():
            r.next_intuit_at(beginning, r.input_line)
            break
        letter = ed_command_letter(r.buf)
        if not letter:
            r.next_intuit_at(beginning, r.input_line)
            break
        script.append(r.buf)
        if letter not in "ds":
            r.pass_comments_through = True
            while r.get_line():
                script.append(r.buf)
                if r.buf == b".\n":
                    break
            r.pass_comments_through = False
    return script


def _address(cmd: bytes) -> tuple[int | None, int | None, bytes]:
    """(first, second, the rest) of an ``N[,M]command`` line."""
    p = 0
    while p < len(cmd) and cmd[p:p + 1].isdigit():
        p += 1
    if not p:
        return None, None, cmd
    first = int(cmd[:p])
    if cmd[p:p + 1] != b",":
        return first, None, cmd[p:]
    q = p + 1
    while q < len(cmd) and cmd[q:q + 1].isdigit():
        q += 1
    return first, int(cmd[p + 1:q]), cmd[q:]


def run_ed(data: bytes | None, script: list[bytes], say) -> bytes:
    """The text ``ed`` writes after ``script`` (then ``w``, ``q``) on ``data`` (None: no
    file). Raises ``EdFailed`` where ed stops with ``?``."""
    buf: list[bytes] = []
    if data:
        buf = data.split(b"\n")
        if data.endswith(b"\n"):
            buf.pop()
        else:
            say("Newline appended\n")
    cur = len(buf)
    lines = script + [b"w\n", b"q\n"]
    i = 0

    def fail() -> EdFailed:
        say("?\n")
        return EdFailed()

    while i < len(lines):
        cmd = lines[i]
        i += 1
        first, second, rest = _address(cmd)
        letter = rest[:1]
        if letter in (b"w", b"q"):
            if letter == b"q":
                break
            continue
        if first is None:
            first = cur
        last = first if second is None else second
        if letter in (b"a", b"i", b"c"):
            text: list[bytes] = []
            while True:
                if i >= len(lines):  # (the text ran to the end: ed stops there, unwritten)
                    raise fail()
                line = lines[i]
                i += 1
                if line == b".\n":
                    break
                text.append(line[:-1] if line.endswith(b"\n") else line)
            if letter == b"a":
                if first > len(buf):
                    raise fail()
                buf[first:first] = text
                cur = first + len(text)
            elif letter == b"i":
                if first > len(buf):
                    raise fail()
                at = max(first, 1) - 1
                buf[at:at] = text
                cur = at + len(text) if text else max(first, 1) if buf else 0
            else:
                if first < 1 or last < first or last > len(buf):
                    raise fail()
                del buf[first - 1:last]
                buf[first - 1:first - 1] = text
                if text:
                    cur = first - 1 + len(text)
                else:
                    cur = min(first, len(buf))
        elif letter == b"d":
            if first < 1 or last < first or last > len(buf):
                raise fail()
            del buf[first - 1:last]
            cur = min(first, len(buf))
        elif letter == b"s":
            if first < 1 or last < first or last > len(buf):
                raise fail()
            done = 0
            for k in range(first - 1, last):
                if buf[k]:
                    buf[k] = buf[k][1:]
                    done = k + 1
            if not done:
                raise fail()
            cur = done
        else:
            raise fail()
    return b"".join(line + b"\n" for line in buf)

"""The block fast path for a script that is one range between two regexes:
``/A/,/B/CMD`` or ``/A/,/B/{ BODY }`` (``sed '/start/,/end/d'``, ``sed -n '/a/,/b/p'``,
``sed '/pricing/,/budget/{s/the/THE/;p}'``).

Lines outside every range run no command: they are found in bulk (a block regex search for
the next line ``A`` matches) and copied in one piece, or skipped under ``-n``. A range starts
on a line ``A`` matches and ends on the first *later* line ``B`` matches (``B`` is not tried on
the start line), or stays open to the end of the input, possibly across blocks. The lines of
a range run the body: as whole-segment transforms when every body command has one (``p``
takes a snapshot of the segment, ``d`` ends it, ``s`` and ``y`` rewrite every line, see
``_segment_steps``), otherwise through the ordinary executor line by line, which then also
keeps the range state itself. The input's last line, when it lacks its newline, always goes
through the executor (its output rules are the executor's).
"""

from __future__ import annotations

from itertools import chain, repeat

from sandbox.commands.sed.execute import Executor
from sandbox.commands.sed.io import Input

BLOCK = 1 << 20

#: Body commands the per-line executor may run inside a range here: none reads another
#: line, uses the hold space, quits, or tests ``$`` (see ``fastpath._BODY_COMMANDS``).
_BODY_COMMANDS = set("spdylaicrwWPz{}btT:=lF")


def _plain_regex(rx) -> bool:  # type: ignore[no-untyped-def]
    """A regex the block search can stand for: not empty (``//``), not multiline, no buffer
    anchors."""
    if rx is None or rx.pattern is None or rx.compiled is None or rx.multiline:
        return False
    return b"\\`" not in rx.pattern and b"\\'" not in rx.pattern


def range_script(ex: Executor):  # type: ignore[no-untyped-def]
    """The (first command, body commands) of a one-range script, or None."""
    opts = ex.opts
    if opts.separate or opts.in_place or opts.null_data or opts.unbuffered or opts.posix:
        return None
    cmds = ex.cmds
    if len(opts.files) > 1 or not cmds:
        return None
    first = cmds[0]
    if first.bang or first.a1 is None or first.a2 is None:
        return None
    if first.a1.kind != "regex" or first.a2.kind != "regex":
        return None
    if not (_plain_regex(first.a1.regex) and _plain_regex(first.a2.regex)):
        return None
    if first.name == "{":
        if first.jump != len(cmds):
            return None
        body = cmds[1:-1]
    elif len(cmds) == 1:
        body = [first]
    else:
        return None
    for cmd in cmds[1:] if first.name == "{" else cmds:
        if cmd.name not in _BODY_COMMANDS:
            return None
        if cmd.subst is not None and cmd.subst.regex.pattern is None:
            return None
        if cmd is not first:
            for a in (cmd.a1, cmd.a2):
                if a is None:
                    continue
                if a.kind == "last" or (a.kind == "regex" and not _plain_regex(a.regex)):
                    return None
    return first, body


def _segment_steps(first, body):  # type: ignore[no-untyped-def]
    """The body as whole-segment steps, or None: each step is ``("p",)``, ``("d",)`` or
    ``("f", func)`` with ``func`` mapping a segment of whole lines to the same lines
    rewritten (no step adds or removes a newline)."""
    from sandbox.commands.sed.fastpath import _block_step, _literal_text

    steps = []
    for cmd in body:
        if cmd is not first and (cmd.a1 is not None or cmd.bang):
            return None
        name = cmd.name
        if name == "p":
            steps.append(("p",))
        elif name == "d":
            steps.append(("d",))
            return steps  # nothing after an unconditional d runs
        elif name in "sy":
            if name == "s":
                sub = cmd.subst
                if any(b"\n" in piece.text for piece in sub.replacement.pieces):
                    return None
            elif cmd.ytable is None or cmd.ymap is not None or 10 in cmd.ytable[:10] + cmd.ytable[11:]:
                return None
            func = _unaddressed_step(cmd, _block_step, _literal_text)
            if func is None:
                return None
            steps.append(("f", func))
        else:
            return None
    return steps


def _unaddressed_step(cmd, block_step, literal_text):  # type: ignore[no-untyped-def]
    """The segment form of one ``s`` or ``y`` (its address, if any, is the range's)."""
    saved = cmd.a1, cmd.a2
    cmd.a1 = cmd.a2 = None
    try:
        func = block_step(cmd)
    finally:
        cmd.a1, cmd.a2 = saved
    if func is not None or cmd.name != "s":
        return func
    sub = cmd.subst
    rx = sub.regex
    if (sub.global_ or sub.print_ or sub.occurrence != 1 or sub.wfile is not None
            or rx.icase or rx.multiline or sub.replacement.literal is None):
        return None
    text = literal_text(getattr(rx.compiled, "parsed", None))
    if not text or b"\n" in text:
        return None
    rep = sub.replacement.literal

    def first_per_line(segment: bytes) -> bytes:
        if text not in segment:
            return segment
        lines = segment[:-1].split(b"\n")
        return b"\n".join(map(bytes.replace, lines, repeat(text), repeat(rep), repeat(1))) + b"\n"
    return first_per_line


class _RangeRun:
    """One run of the range fast path over an input."""

    def __init__(self, ex: Executor, first, steps, rx_a, rx_b):  # type: ignore[no-untyped-def]
        self.ex = ex
        self.first = first
        self.steps = steps
        self.rx_a = rx_a
        self.rx_b = rx_b
        self.quiet = ex.quiet
        self.out = ex.out
        self.cmds = ex.cmds
        self.runs = 0

    def emit(self, text: bytes) -> None:
        """Copy output (whole lines)."""
        if text:
            self.out.raw(text)

    def run_line(self, block: bytes, start: int, end: int, n: int) -> None:
        """Run the script through the executor on the line ``block[start:end]``."""
        ex = self.ex
        self.runs += 1
        if self.runs & 0x3FF == 0:
            ex.ctx.budget.check_time()  # a block may hold a million short lines
        ex.line_number += 1
        ex.ps = block[start:end]
        ex.chomped = end < n
        ex.replaced = False
        status = ex.execute(self.cmds, len(self.cmds))
        if status == 1 and not self.quiet:
            self.out.line(ex.ps, ex.chomped)
        ex.dump_append()

    def segment(self, seg: bytes) -> None:
        """Run the body over ``seg``, whole lines inside a range (the range state is kept by
        the caller)."""
        self.ex.line_number += seg.count(b"\n")
        streams = []
        ended = False
        for step in self.steps:
            if step[0] == "p":
                streams.append(seg)
            elif step[0] == "d":
                ended = True
                break
            else:
                seg = step[1](seg)
        if not ended and not self.quiet:
            streams.append(seg)
        if len(streams) == 1:
            self.emit(streams[0])
        elif streams:
            columns = [s[:-1].split(b"\n") for s in streams]
            self.emit(b"\n".join(chain.from_iterable(zip(*columns))) + b"\n")

    def block(self, block: bytes) -> None:
        """Process a block of whole lines (or the input's unterminated last line)."""
        n = len(block)
        pos = 0
        first = self.first
        whole = block.endswith(b"\n")
        while pos < n:
            if first.range_active:
                # Inside a range: it ends on the first line from pos that B matches.
                if self.steps is None or not whole:
                    end = block.find(b"\n", pos)
                    end = n if end < 0 else end
                    self.run_line(block, pos, end, n)
                    pos = end + 1
                    continue
                stop = self.range_end(block, pos, n)
                if stop < 0:
                    self.segment(block[pos:])
                    return
                self.segment(block[pos:stop])
                first.range_active = False
                pos = stop
                continue
            m = self.rx_a.search(block, pos)
            if m is None or (m.start() >= n and whole):
                self.skip(block, pos, n)
                return
            line_start = max(pos, block.rfind(b"\n", pos, m.start()) + 1)
            if line_start > pos:
                self.skip(block, pos, line_start)
            end = block.find(b"\n", line_start)
            end = n if end < 0 else end
            # The start line goes through the executor: it sets the range state exactly.
            self.run_line(block, line_start, end, n)
            pos = end + 1

    def range_end(self, block: bytes, pos: int, n: int) -> int:
        """The offset after the first line from ``pos`` that B really matches, or -1 (the
        block search finds every such line; each candidate is confirmed with sed's regex)."""
        real = self.first.a2.regex.compiled
        while pos < n:
            m = self.rx_b.search(block, pos)
            if m is None or m.start() >= n:
                return -1
            line_start = max(pos, block.rfind(b"\n", pos, m.start()) + 1)
            line_end = block.find(b"\n", m.start())
            if real.search(block[line_start:line_end]) is not None:
                return line_end + 1
            pos = line_end + 1
        return -1

    def skip(self, block: bytes, start: int, stop: int) -> None:
        """Lines outside every range: copied (or dropped under -n), counted."""
        self.ex.line_number += block.count(b"\n", start, stop)
        if not self.quiet:
            piece = block[start:stop]
            if piece:
                self.out.raw(piece)
                if not piece.endswith(b"\n"):
                    self.out.missing_newline = True


def try_range_path(ex: Executor, inp: Input) -> bool:
    """Process the whole input with the range fast path if the script allows; False
    otherwise."""
    found = range_script(ex)
    if found is None:
        return False
    first, body = found
    from sandbox.regex import compile_regex

    rxs = []
    for rx in (first.a1.regex, first.a2.regex):
        try:
            block_rx = compile_regex(rx.pattern or b"", extended=rx.extended, icase=rx.icase,
                                     multiline=True, dot_newline=False, glibc_syntax=True,
                                     budget=ex.ctx.budget)
        except Exception:  # noqa: BLE001 - no fast path then; the slow path reports errors
            return False
        if not getattr(block_rx, "uses_re2", False):
            return False
        rxs.append(block_rx)
    steps = _segment_steps(first, body)
    run = _RangeRun(ex, first, steps, rxs[0], rxs[1])
    ex.input = inp
    ex.line_number = 0
    if inp.at_end():
        return True
    stream = inp.stream
    assert stream is not None
    budget = ex.ctx.budget
    rest = inp.take_buffer()
    while True:
        budget.check_time()
        data = stream.read(BLOCK)
        if data:
            buf = rest + data if rest else data
            cut = buf.rfind(b"\n") + 1
            if cut == 0:
                rest = buf
                continue
            block, rest = buf[:cut], buf[cut:]
        else:
            if not rest:
                return True
            block, rest = rest, b""
        run.block(block)
        if not data:
            return True

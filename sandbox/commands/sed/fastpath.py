"""Fast paths for the scripts agents run most on big files. Whole-block transforms:
``s/LITERAL/LITERAL/g`` is ``bytes.replace`` on blocks, ``y///`` with single-byte mappings is
``bytes.translate`` and ``-n '$='`` counts newlines (``_whole_block``). Then: one ``s`` command, one
``p``/``d`` under a regex address (``sed -n '/WORD/p'``, ``sed 's/WORD/X/g'``), or a whole
script of the form ``/re/{ ... }`` whose body neither reads lines, uses the hold space nor
tests ``$``.

Instead of running the script line by line, the input is read in large blocks of whole lines
and one chunk-level regex search finds the next line that *may* be affected; every line before
it is copied (or skipped under ``-n``) in one piece, and only candidate lines run through the
ordinary executor. The chunk regex is the same pattern compiled with ``^``/``$`` matching at
newlines and ``.``/brackets never matching one, so any match inside a line is also found at
the same position in the block: lines before the first block match cannot match, and a block
match that is not a real match of its line only costs one ordinary run. Semantics are
therefore exactly those of the slow path.
"""

from __future__ import annotations

import re
from functools import partial

from sandbox.commands.sed.execute import Executor
from sandbox.commands.sed.io import Input
from sandbox.commands.sed.script import SedRegex

BLOCK = 1 << 20


def _eligible_regex(ex: Executor) -> SedRegex | None:
    """The regex that decides whether a line can be affected, or None if no fast path."""
    opts = ex.opts
    if opts.separate or opts.in_place or opts.null_data or opts.unbuffered or opts.posix:
        return None
    if len(opts.files) > 1 or not ex.cmds:
        return None
    if len(ex.cmds) > 1:
        return _block_regex(ex)
    cmd = ex.cmds[0]
    if cmd.bang or cmd.a2 is not None:
        return None
    if cmd.a1 is not None and cmd.a1.kind != "regex":
        return None
    if cmd.name == "s":
        sub = cmd.subst
        if sub is None or sub.wfile is not None:
            return None
        rx = cmd.a1.regex if cmd.a1 is not None else sub.regex
        if cmd.a1 is not None and sub.regex.pattern is None:
            return None
    elif cmd.name in "pd" and cmd.a1 is not None:
        rx = cmd.a1.regex
    else:
        return None
    if rx is None or rx.pattern is None or rx.multiline:
        return None
    if b"\\`" in rx.pattern or b"\\'" in rx.pattern:
        return None  # buffer anchors mean something else in a block
    return rx


#: Commands a ``/re/{...}`` body may hold: none reads another line, uses the hold space or
#: quits (line numbers are counted while scanning, so ``=`` and numeric addresses work).
_BODY_COMMANDS = set("spdylaicrwWPz{}btT:=lF")


def _block_regex(ex: Executor) -> SedRegex | None:
    """``/re/{ body }`` as the whole script: lines ``re`` does not match run no command."""
    cmds = ex.cmds
    first = cmds[0]
    if first.name != "{" or first.bang or first.a2 is not None or first.a1 is None:
        return None
    if first.a1.kind != "regex" or first.jump != len(cmds):
        return None
    for cmd in cmds[1:]:
        if cmd.name not in _BODY_COMMANDS:
            return None
        if cmd.subst is not None and cmd.subst.regex.pattern is None:
            return None  # "s//.../" depends on the last regex used, which skipped lines change
        for a in (cmd.a1, cmd.a2):
            if a is None:
                continue
            if a.kind == "last":
                return None  # "$" needs to know whether a later line exists
            if a.kind == "regex" and (a.regex is None or a.regex.pattern is None):
                return None
    rx = first.a1.regex
    if rx is None or rx.pattern is None or rx.multiline:
        return None
    if b"\\`" in rx.pattern or b"\\'" in rx.pattern:
        return None
    return rx


def _whole_block(ex: Executor):  # type: ignore[no-untyped-def]
    """A transformation of whole blocks of lines that is exactly the script's effect, or
    None. ``-n '$='`` alone counts the lines. Otherwise (without -n) every command must be
    one of: ``s/LITERAL/LITERAL/g`` (``bytes.replace``), ``s/XX*/LITERAL/g`` or ``s/X\\+/../g``
    for a character X (Python's ``re.sub``: greedy equals longest for one repeated
    character), ``y/SRC/DST/`` with single-byte mappings (``bytes.translate``), ``/^$/d`` and
    ``/LITERAL/d`` (line filters). Each is line-local and stateless, so applying them one
    after the other to a block of whole lines is applying them line by line: a deleted line
    meets no later command either way."""
    opts = ex.opts
    if (opts.separate or opts.in_place or opts.null_data or opts.unbuffered or opts.posix
            or len(opts.files) > 1 or not ex.cmds or len(ex.cmds) > 8):
        return None
    cmds = ex.cmds
    if len(cmds) == 1:
        numbered = _numbered(ex)
        if numbered is not None:
            return numbered
    if len(cmds) == 1 and ex.quiet:
        cmd = cmds[0]
        if (cmd.name == "=" and not cmd.bang and cmd.a2 is None and cmd.a1 is not None
                and cmd.a1.kind == "last"):
            return "count"
        return None
    if ex.quiet:
        return None
    steps = []
    newline_made = False
    for cmd in cmds:
        step = _block_step(cmd)
        if step is None:
            return None
        if cmd.name == "d" and newline_made:
            return None  # a pattern space holding a newline is one "line" to d, not two
        if cmd.name == "s" and any(b"\n" in piece.text
                                   for piece in cmd.subst.replacement.pieces):
            newline_made = True
        if cmd.name == "y" and 10 in cmd.ytable[:10] + cmd.ytable[11:]:
            newline_made = True
        steps.append(step)
    if len(steps) == 1:
        return steps[0]

    def run_all(block: bytes) -> bytes:
        for step in steps:
            if not block:
                break
            block = step(block)
        return block
    return run_all


def _block_step(cmd):  # type: ignore[no-untyped-def]
    """The block form of one command (see ``_whole_block``), or None."""
    if cmd.bang or cmd.a2 is not None:
        return None
    if cmd.name == "d":
        a = cmd.a1
        if a is None or a.kind != "regex" or a.regex is None or a.regex.pattern is None:
            return None
        rx = a.regex
        if rx.icase or rx.multiline or rx.compiled is None:
            return None
        parsed = getattr(rx.compiled, "parsed", None)
        if parsed is not None and parsed.ast == ("cat", [("assert", "bol"), ("assert", "eol")]):
            return _drop_empty_lines
        text = _literal_text(parsed)
        if not text or b"\n" in text:
            return None
        return lambda block: _drop_lines_with(block, text)
    if cmd.a1 is not None:
        return None
    if cmd.name == "y" and cmd.ytable is not None and cmd.ymap is None:
        table = cmd.ytable
        if table[10] != 10:
            return None  # a newline in the source set: lines hold none, blocks do
        return lambda block: block.translate(table)
    if cmd.name != "s":
        return None
    sub = cmd.subst
    if (sub is None or not sub.global_ or sub.print_ or sub.occurrence != 1
            or sub.wfile is not None):
        return None
    rx = sub.regex
    if rx.pattern is None or rx.icase or rx.multiline or rx.compiled is None:
        return None
    parsed = getattr(rx.compiled, "parsed", None)
    rep = sub.replacement.literal
    if rep is None:
        return _grouped_step(parsed, sub.replacement)
    text = _literal_text(parsed)
    if text is not None:
        if not text or b"\n" in text:
            return None
        return lambda block: block.replace(text, rep)
    char = _repeated_char(parsed)
    if char is None:
        return _grouped_step(parsed, sub.replacement)
    compiled = re.compile(re.escape(char) + b"+")
    escaped = rep.replace(b"\\", b"\\\\")
    return lambda block: _in_slices(block, lambda part: compiled.sub(escaped, part))


def _grouped_step(parsed, replacement):  # type: ignore[no-untyped-def]
    """``s/RE/REP/g`` with RE a sequence of characters and groups of characters: a match has
    one length and one split into groups, so Python's leftmost-first ``re.sub`` finds what
    sed's leftmost-longest search does (``re`` jumps to the literal prefix). Alternations
    are left to the RE2 candidate scan (``_scan``): ``re`` would test them at every byte.
    REP must make no case changes; it becomes an ``re`` template."""
    if parsed is None or parsed.has_backrefs:
        return None
    if any(piece.case for piece in replacement.pieces):
        return None
    out: list[bytes] = []
    groups = [0]

    def literal(node) -> bytes | None:  # type: ignore[no-untyped-def]
        nodes = node[1] if node[0] == "cat" else [node]
        chars = []
        for sub in nodes:
            if sub[0] != "char" or 0xD800 <= ord(sub[1]) <= 0xDFFF or sub[1] == "\n":
                return None
            chars.append(sub[1])
        return "".join(chars).encode()

    def item(node, top: bool) -> bool:  # type: ignore[no-untyped-def]
        kind = node[0]
        if kind == "char":
            text = literal(node)
            if text is None:
                return False
            out.append(re.escape(text))
            return True
        if kind == "group" and top:
            groups[0] += 1
            if node[1] != groups[0]:
                return False
            out.append(b"(")
            inner = node[2]
            parts = inner[1] if inner[0] == "cat" else [inner]
            if not parts or not all(item(part, False) for part in parts):
                return False
            out.append(b")")
            return True
        return False

    ast = parsed.ast
    nodes = ast[1] if ast[0] == "cat" else [ast]
    if not nodes or not all(item(node, True) for node in nodes):
        return None
    template = []
    for piece in replacement.pieces:
        template.append(piece.text.replace(b"\\", b"\\\\"))
        if piece.group >= 0:
            if piece.group > groups[0]:
                return None
            template.append(b"\\g<%d>" % piece.group)
    compiled = re.compile(b"".join(out))
    rep = b"".join(template)
    return lambda block: _in_slices(block, lambda part: compiled.sub(rep, part))


#: ``re.sub`` keeps a list of every piece of its result: slices of this size (cut at line
#: ends) bound that memory.
_SLICE = 1 << 16


def _in_slices(block: bytes, func) -> bytes:  # type: ignore[no-untyped-def]
    """``func`` applied to slices of ``block`` cut after newlines (a line-local ``func``
    gives the same result as on the whole block)."""
    if len(block) <= _SLICE:
        return func(block)
    out = []
    p = 0
    n = len(block)
    while p < n:
        cut = block.find(b"\n", p + _SLICE) + 1 if p + _SLICE < n else n
        if cut <= 0:
            cut = n
        out.append(func(block[p:cut]))
        p = cut
    return b"".join(out)


def _repeated_char(parsed) -> bytes | None:  # type: ignore[no-untyped-def]
    """X for a pattern ``XX*`` or ``X\\+`` (X one ASCII character other than newline)."""
    if parsed is None or parsed.has_backrefs:
        return None
    ast = parsed.ast
    one = None
    if ast[0] == "repeat" and ast[2] == 1 and ast[3] is None:
        one = ast[1]
    elif (ast[0] == "cat" and len(ast[1]) == 2 and ast[1][1][0] == "repeat"
          and ast[1][1][2] == 0 and ast[1][1][3] is None and ast[1][1][1] == ast[1][0]):
        one = ast[1][0]
    if one is None or one[0] != "char" or not one[1].isascii() or one[1] == "\n":
        return None
    return one[1].encode()


def _drop_empty_lines(block: bytes) -> bytes:
    """``/^$/d`` over whole lines (a block ending with a newline, or the last line alone)."""
    if not block.endswith(b"\n"):
        return block  # the last line, without its newline: empty blocks are skipped
    kept = [line for line in block[:-1].split(b"\n") if line]
    return b"\n".join(kept) + b"\n" if kept else b""


def _drop_lines_with(block: bytes, text: bytes) -> bytes:
    """``/LITERAL/d`` over whole lines (a block ending with a newline, or the last line)."""
    if not block.endswith(b"\n"):
        return b"" if text in block else block
    kept = [line for line in block[:-1].split(b"\n") if text not in line]
    return b"\n".join(kept) + b"\n" if kept else b""


def _literal_text(parsed) -> bytes | None:  # type: ignore[no-untyped-def]
    """The bytes a parsed regex matches if it is a plain string of valid characters."""
    if parsed is None or parsed.has_backrefs:
        return None
    ast = parsed.ast
    nodes = ast[1] if ast[0] == "cat" else [ast]
    chars = []
    for node in nodes:
        if node[0] != "char" or 0xD800 <= ord(node[1]) <= 0xDFFF:
            return None
        chars.append(node[1])
    return "".join(chars).encode()


def _scan_blocks(ex: Executor, inp: Input, transform) -> None:  # type: ignore[no-untyped-def]
    """Copy the input through ``transform`` a block of whole lines at a time (or count its
    lines). A ``_Numbered`` transform is also told the block's first line number and whether
    the block holds the input's last line (one block of read-ahead)."""
    stream = inp.stream
    assert stream is not None
    budget = ex.ctx.budget
    out = ex.out
    data = inp.take_buffer()
    if transform == "count":
        lines = 0
        last = b""
        while data:
            lines += data.count(b"\n")
            last = data[-1:]
            budget.check_time()
            data = stream.read(BLOCK)
        if lines or last:
            if last != b"\n":
                lines += 1  # a last line without its newline still counts
            out.raw(b"%d\n" % lines)
        return
    numbered = isinstance(transform, _Numbered)
    first = 1
    rest = b""
    if not data:
        data = stream.read(BLOCK)
    while data:
        buf = rest + data if rest else data
        cut = buf.rfind(b"\n") + 1  # whole lines only: a match cannot span blocks
        rest = buf[cut:]
        budget.check_time()
        data = stream.read(BLOCK)
        if not cut:
            continue
        block = buf[:cut]
        if numbered:
            final = not data and not rest
            text, count = transform.apply(block, first, final)
            _emit(out, text)
            first += count
            if transform.done(first) and inp.stream is not ex.ctx.stdin:
                return  # nothing later can be printed; a file's unread rest is not seen
        else:
            _emit(out, transform(block))
    if rest:  # the last line, without its newline
        _emit(out, transform.apply(rest, first, True)[0] if numbered else transform(rest))


class _Numbered:
    """``-n 'ADDRp'`` or ``'ADDRd'`` for ADDR a line number, ``A,B``, ``first~step`` or ``$``:
    the selected lines of a block are slices of its line list."""

    def __init__(self, a1, a2, keep_selected: bool):  # type: ignore[no-untyped-def]
        self.a1 = a1
        self.a2 = a2
        self.keep_selected = keep_selected

    def _selected(self, count: int, first: int, final: bool) -> slice | None:
        a1, a2 = self.a1, self.a2
        if a1.kind == "last":
            return slice(count - 1, count) if final else None
        if a1.kind == "step":
            start, step = a1.n1, a1.n2
            if first >= start:
                i0 = (-(first - start)) % step
            else:
                i0 = start - first
            return slice(i0, None, step)
        lo = a1.n1
        hi = lo if a2 is None else max(lo, a2.n1)
        a = max(0, lo - first)
        b = min(count, hi - first + 1)
        return slice(a, b) if a < b else None

    def done(self, next_line: int) -> bool:
        """True when ``-n 'A,Bp'`` (or ``Ap``) can select no line from ``next_line`` on."""
        if not self.keep_selected or self.a1.kind != "num":
            return False
        hi = self.a1.n1 if self.a2 is None else max(self.a1.n1, self.a2.n1)
        return next_line > hi

    def apply(self, block: bytes, first: int, final: bool) -> tuple[bytes, int]:
        """The output for ``block`` (whole lines; the input's last may lack its newline) and
        the number of newlines in the block."""
        ended = block.endswith(b"\n")
        newlines = block.count(b"\n")
        count = newlines + (0 if ended else 1)
        chosen = self._selected(count, first, final)
        if chosen is None or not range(count)[chosen]:
            # no line of this block is selected
            return (b"" if self.keep_selected else block), newlines
        lines = (block[:-1] if ended else block).split(b"\n")
        if self.keep_selected:
            kept = lines[chosen] if chosen is not None else []
        else:
            kept = lines
            if chosen is not None:
                kept = list(lines)
                del kept[chosen]
        if not kept:
            return b"", newlines
        # Only the input's last line comes without its newline, and alone.
        if ended:
            kept.append(b"")
        return b"\n".join(kept), newlines


def _numbered(ex: Executor):  # type: ignore[no-untyped-def]
    """The ``_Numbered`` transform for a one-command script, or None."""
    cmd = ex.cmds[0]
    if cmd.bang or cmd.a1 is None or cmd.name not in "pd" or len(cmd.name) != 1:
        return None
    if (cmd.name == "p") != ex.quiet:
        return None  # p without -n prints lines twice, d under -n prints nothing
    a1, a2 = cmd.a1, cmd.a2
    if a1.kind == "num" and a1.n1 >= 1 and (a2 is None or a2.kind == "num"):
        return _Numbered(a1, a2, cmd.name == "p")
    if a2 is None and a1.kind == "step" and a1.n2 >= 1:
        return _Numbered(a1, None, cmd.name == "p")
    if a2 is None and a1.kind == "last":
        return _Numbered(a1, None, cmd.name == "p")
    return None


def try_fast_path(ex: Executor, inp: Input) -> bool:
    """Process the whole input with the block scan if the program allows; False otherwise."""
    transform = _whole_block(ex)
    if transform is not None:
        ex.input = inp
        ex.line_number = 0
        if not inp.at_end():
            _scan_blocks(ex, inp, transform)
        return True
    rx = _eligible_regex(ex)
    if rx is None:
        from sandbox.commands.sed.ranges import try_range_path

        return try_range_path(ex, inp)
    from sandbox.regex import compile_regex

    try:
        block_rx = compile_regex(rx.pattern or b"", extended=rx.extended, icase=rx.icase,
                                 multiline=True, dot_newline=False, glibc_syntax=True,
                                 budget=ex.ctx.budget)
    except Exception:  # noqa: BLE001 - no fast path then; the slow path reports errors
        return False
    if not getattr(block_rx, "uses_re2", False):
        return False  # the backtracking engine would scan whole blocks slowly
    ex.input = inp
    ex.line_number = 0
    if not inp.at_end():
        found = _line_substitution(ex)
        if found is not None:
            _substitute_lines(ex, inp, *found)
        else:
            _scan(ex, inp, block_rx)
    return True


def _line_substitution(ex: Executor):  # type: ignore[no-untyped-def]
    """For a script that is one ``s/L1|L2|.../REP/g`` (an alternation of plain strings,
    alone or as group 1, without an address, -n or case changes): a function doing it to one
    line with Python's ``re``, or None. With the alternatives tried longest first, the
    leftmost-first match is sed's leftmost-longest one (two different strings of one length
    cannot both match at one place)."""
    if ex.quiet or len(ex.cmds) != 1:
        return None
    cmd = ex.cmds[0]
    sub = cmd.subst
    if (cmd.name != "s" or cmd.a1 is not None or cmd.bang or sub is None or not sub.global_
            or sub.print_ or sub.occurrence != 1 or sub.wfile is not None):
        return None
    rx = sub.regex
    parsed = getattr(rx.compiled, "parsed", None)
    if rx.pattern is None or rx.icase or rx.multiline or parsed is None or parsed.has_backrefs:
        return None
    ast = parsed.ast
    grouped = ast[0] == "group" and ast[1] == 1
    alt = ast[2] if grouped else ast
    if alt[0] != "alt":
        return None
    texts = []
    for branch in alt[1]:
        text = _literal_text(_Parsed(branch))
        if not text or b"\n" in text:
            return None
        texts.append(text)
    texts.sort(key=len, reverse=True)
    template = []
    for piece in sub.replacement.pieces:
        if piece.case:
            return None
        template.append(piece.text.replace(b"\\", b"\\\\"))
        if piece.group >= 0:
            if piece.group > (1 if grouped else 0):
                return None
            template.append(b"\\g<%d>" % piece.group)
    compiled = re.compile(b"(" + b"|".join(map(re.escape, texts)) + b")")
    # Each alternative has one replacement: a lookup instead of re's template expansion.
    table = {t: compiled.sub(b"".join(template), t) for t in texts}
    if _replace_in_turn_is_exact(texts, [table[t] for t in texts]):
        pairs = list(table.items())

        def replace_all(line: bytes) -> bytes:
            for text, rep in pairs:
                line = line.replace(text, rep)
            return line
        return texts, replace_all
    return texts, partial(compiled.sub, lambda m: table[m.group()])


def _overlap(a: bytes, b: bytes) -> bool:
    """True if ``a`` and ``b`` can share bytes in some text without one holding the other
    entirely apart: one is inside the other, or a suffix of one is a prefix of the other."""
    if a in b or b in a:
        return True
    return any(a.endswith(b[:k]) or b.endswith(a[:k]) for k in range(1, min(len(a), len(b))))


def _replace_in_turn_is_exact(texts: list[bytes], reps: list[bytes]) -> bool:
    """True if replacing each of ``texts`` by its ``reps`` in turn (``bytes.replace``) is the
    one leftmost scan for all of them: no two texts can overlap in the input, and no text can
    meet an earlier text's replacement (a later pass would see it)."""
    for i, a in enumerate(texts):
        for j in range(i + 1, len(texts)):
            if _overlap(a, texts[j]) or _overlap(reps[i], texts[j]):
                return False
    return True


def _substitute_lines(ex: Executor, inp: Input, texts: list[bytes], line_func) -> None:  # type: ignore[no-untyped-def]
    """Blocks of whole lines, in which each line holding one of ``texts`` (found with
    ``bytes.find``) is replaced by ``line_func(line)``; the other lines are copied."""
    stream = inp.stream
    assert stream is not None
    budget = ex.ctx.budget
    out = ex.out
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
                return
            if any(t in rest for t in texts):
                rest = line_func(rest)
            out.line(rest, False)
            return
        find = block.find
        nexts = [find(t) for t in texts]
        pieces = []
        pos = 0
        while True:
            found = [x for x in nexts if x >= 0]
            if not found:
                break
            start = min(found)
            line_start = block.rfind(b"\n", pos, start) + 1
            if line_start < pos:
                line_start = pos
            line_end = find(b"\n", start)
            pieces.append(block[pos:line_start])
            pieces.append(line_func(block[line_start:line_end]))
            pos = line_end
            nexts = [x if x > line_end or x < 0 else find(t, line_end) for x, t in zip(nexts, texts)]
        pieces.append(block[pos:])
        out.raw(b"".join(pieces))


class _Parsed:
    """A parsed-regex stand-in holding one sub-tree (for ``_literal_text``)."""

    has_backrefs = False

    def __init__(self, ast):  # type: ignore[no-untyped-def]
        self.ast = ast


def _scan(ex: Executor, inp: Input, block_rx) -> None:
    """Copy the lines no match of ``block_rx`` touches in bulk and run the script on the
    others."""
    stream = inp.stream
    assert stream is not None
    budget = ex.ctx.budget
    rest = inp.take_buffer()
    cmds = ex.cmds
    ncmds = len(cmds)
    quiet = ex.quiet
    out = ex.out
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
                return
            block, rest = rest, b""
        n = len(block)
        pos = 0
        while pos < n:
            m = block_rx.search(block, pos)
            # A match at the very end after the block's last newline is in no line.
            if m is None or (m.start() >= n and block[-1:] == b"\n"):
                if not quiet:
                    _emit(out, block[pos:])
                break
            start = m.start()
            line_start = block.rfind(b"\n", pos, start) + 1
            if line_start < pos:
                line_start = pos
            line_end = block.find(b"\n", start)
            if line_end < 0:
                line_end = n
            if line_start > pos:
                ex.line_number += block.count(b"\n", pos, line_start)
                if not quiet:
                    _emit(out, block[pos:line_start])
            ex.line_number += 1
            ex.ps = block[line_start:line_end]
            ex.chomped = line_end < n
            ex.replaced = False
            status = ex.execute(cmds, ncmds)
            if status == 1 and not quiet:
                out.line(ex.ps, ex.chomped)
            ex.dump_append()
            pos = line_end + 1
        if not data:
            return


def _emit(out, text: bytes) -> None:
    """Copy unaffected whole lines (the last one may lack its newline)."""
    if not text:
        return
    out.raw(text)
    if not text.endswith(b"\n"):
        out.missing_newline = True

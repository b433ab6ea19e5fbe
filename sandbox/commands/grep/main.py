"""grep's entry point: operands, recursion, per-file summaries (-c, -l, -L) and exit status."""

from __future__ import annotations

import fnmatch

from sandbox.commands._locale import expand_byte_ranges, utf8_ctype, widen
from sandbox.commands.base import CommandContext
from sandbox.commands.grep.color import from_env as color_from_env
from sandbox.commands.grep.cli import Config, _Fatal, _parse_args
from sandbox.commands.grep.perl import PerlError, PerlLimit, compile_perl
from sandbox.commands.grep.search import Grep, _Stop
from sandbox.commands._dirorder import in_directory_order
from sandbox.fs.base import FSError
from sandbox.fs.local import SPECIAL_MESSAGE, SYMLINK_MESSAGE
from sandbox.regex import RegexError, compile_patterns

#: What the jail says about a link or a special file: GNU's -r skips those it meets while
#: recursing (it never follows links below the command line), silently.
_SKIPPED_IN_RECURSION = (SYMLINK_MESSAGE, SPECIAL_MESSAGE)


def run(ctx: CommandContext) -> int:
    """Run grep; return 0 if a line was selected, 1 if none, 2 on error (unless -q matched)."""
    try:
        cfg, operands = _parse_args(ctx)
    except _Fatal as err:
        msg = str(err)
        if msg in ("help", "version"):
            return 0
        if msg:
            ctx.stderr.write(f"grep: {msg}\n".encode("utf-8", "surrogateescape"))
        return err.status
    # GNU stops before compiling or reading anything when nothing can be selected: -m 0, no
    # pattern at all (-f /dev/null), or -v with only the empty pattern (duplicates removed).
    only_empty = bool(cfg.patterns) and set(cfg.patterns) == {b""}
    if cfg.list_files != "L" and (
            cfg.max_count == 0 or (not cfg.patterns and not cfg.invert)
            or (only_empty and cfg.invert and not cfg.lines and not cfg.words)):
        return 1
    single_byte = not utf8_ctype(ctx.env)
    if single_byte:  # the C locale: search with one character per byte (see Grep)
        cfg.patterns = [widen(p if cfg.syntax in "FP" else expand_byte_ranges(p))
                        for p in cfg.patterns]
    colors = None
    if cfg.color:
        colors, warning = color_from_env(ctx.env)
        if warning:
            ctx.stderr.write(f"grep: {warning}\n".encode("utf-8", "surrogateescape"))
    try:
        if cfg.syntax == "P":
            regex = compile_perl(cfg.patterns, icase=cfg.icase, words=cfg.words,
                                 lines=cfg.lines, budget=ctx.budget, single_byte=single_byte)
        else:
            regex = compile_patterns(
                cfg.patterns, syntax=cfg.syntax, icase=cfg.icase, whole_line=cfg.lines,
                multiline=not cfg.null_data, dot_newline=cfg.null_data, budget=ctx.budget)
    except (RegexError, PerlError) as err:
        for message in err.args:
            ctx.stderr.write(f"grep: {message}\n".encode("utf-8", "surrogateescape"))
        return 2
    for w in regex.warnings:
        ctx.stderr.write(f"grep: warning: {w}\n".encode("utf-8", "surrogateescape"))
    if cfg.recursive and not operands:
        operands = ["."]
        implicit_dot = True
    else:
        implicit_dot = False
    if not operands:
        operands = ["-"]
    # GNU: -r implies -H only when the (single) operand turns out to be a directory.
    auto_names = cfg.with_filename is None and len(operands) == 1 and cfg.recursive
    show_names = cfg.with_filename if cfg.with_filename is not None else len(operands) > 1
    g = Grep(ctx, cfg, regex, show_names, colors, single_byte)
    g.auto_names = auto_names
    status = {"matched": False, "error": False}
    try:
        for operand in operands:
            _grep_operand(g, operand, status, implicit_dot, top=True)
    except _Stop:
        return 0
    except PerlLimit as err:  # GNU's die(): the message names the input, status 2
        ctx.stderr.write(f"grep: {g.current_name}: {err}\n".encode("utf-8", "surrogateescape"))
        return 2
    if status["error"] and not (cfg.quiet and status["matched"]):
        return 2
    return 0 if status["matched"] else 1


def _excluded(cfg: Config, name: str, command_line: bool) -> bool:
    base = name.rstrip("/").rsplit("/", 1)[-1]
    candidates = {base, name} if command_line else {base}
    for pat in cfg.excludes:
        if any(fnmatch.fnmatchcase(c, pat) for c in candidates):
            return True
    if cfg.includes:
        if not any(fnmatch.fnmatchcase(c, pat) for pat in cfg.includes for c in candidates):
            return True
    return False


def _grep_operand(g: Grep, operand: str, status: dict, implicit_dot: bool, top: bool) -> None:
    ctx, cfg = g.ctx, g.cfg
    if operand == "-" and top:
        _grep_one(g, None, cfg.label, None, status)
        return
    display = operand
    try:
        st = ctx.stat(operand)
    except FSError as err:
        if not top and err.strerror in _SKIPPED_IN_RECURSION:
            return
        if not cfg.no_messages:
            ctx.error(f"{operand}: {err.strerror}")
        status["error"] = True
        return
    if top and g.auto_names:
        g.show_names = st.is_dir
    if st.is_dir:
        if cfg.recursive:
            if not top or not implicit_dot:
                base = operand.rstrip("/").rsplit("/", 1)[-1]
                if cfg.exclude_dirs and not (top and operand in (".",)) and any(
                        fnmatch.fnmatchcase(base, p) for p in cfg.exclude_dirs):
                    return
            try:
                # GNU's fts walk takes entries in readdir order (the host's, for a LocalDir)
                names = in_directory_order(ctx.fs, ctx.path(operand), ctx.listdir(operand))
            except FSError as err:
                if not cfg.no_messages:
                    ctx.error(f"{operand}: {err.strerror}")
                status["error"] = True
                return
            for child in names:
                if top and implicit_dot:
                    child_path = child
                else:
                    child_path = operand + ("" if operand.endswith("/") else "/") + child
                _grep_operand(g, child_path, status, implicit_dot, top=False)
            return
        if cfg.directories == "skip":
            return
        if not cfg.no_messages:
            ctx.error(f"{operand}: Is a directory")
        status["error"] = True
        _report(g, display, 0, status)  # GNU's read failed: its -c / -L lines still follow
        return
    if (cfg.includes or cfg.excludes) and _excluded(cfg, operand, top):
        return
    _grep_one(g, operand, display, st.size, status)


def _grep_one(g: Grep, operand: str | None, name: str, size: int | None,
              status: dict) -> None:
    ctx, cfg = g.ctx, g.cfg
    try:
        stream = ctx.stdin if operand is None else ctx.open_read(operand)
    except FSError as err:
        if not cfg.no_messages:
            ctx.error(f"{operand}: {err.strerror}")
        status["error"] = True
        return
    try:
        count = g.grep_stream(stream, name, size)
    except FSError as err:  # a failed read (``grep -c x < dir``): the count so far is 0
        if not cfg.no_messages:
            ctx.error(f"{name}: {err.strerror}")
        status["error"] = True
        count = 0
    finally:
        if operand is not None:
            stream.close()
    _report(g, name, count, status)


def _report(g: Grep, name: str, count: int, status: dict) -> None:
    """What follows the search of one input: the -c line, the -l / -L name."""
    ctx, cfg = g.ctx, g.cfg
    if count:
        status["matched"] = True
    nm = name.encode("utf-8", "surrogateescape")
    if cfg.quiet:
        if count:
            raise _Stop()
        return
    c = g.colors
    shown = nm if c is None else c.wrap(c.filename, nm)
    if cfg.count:
        if g.show_names:
            sep = b":" if c is None else c.wrap(c.separator, b":")
            ctx.stdout.write(shown + (b"\0" if cfg.null_after_name else sep))
        ctx.stdout.write(str(count).encode() + b"\n")
    if (cfg.list_files == "l" and count) or (cfg.list_files == "L" and not count):
        ctx.stdout.write(shown + (b"\0" if cfg.null_after_name else b"\n"))

"""sed's command line: options, script sources, input units (-s / -i), exit status."""

from __future__ import annotations

from sandbox.commands._locale import utf8_ctype
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, UsageError, parse
from sandbox.commands.sed.execute import Executor, Options, SedRuntimeError
from sandbox.commands.sed.fastpath import try_fast_path
from sandbox.commands.sed.io import Input, Output, Sink
from sandbox.commands.sed.script import Compiler, ScriptError, Source
from sandbox.commands.sed.usage import HELP, USAGE_ERROR
from sandbox.errors import LimitExceeded
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="bnrsuzEe:f:l:i::",
    long={
        "binary": (NO_ARG, "b"),
        "debug": (NO_ARG, "debug"),
        "expression": (REQUIRED, "e"),
        "file": (REQUIRED, "f"),
        "follow-symlinks": (NO_ARG, "follow-symlinks"),
        "help": (NO_ARG, "help"),
        "in-place": (OPTIONAL, "i"),
        "line-length": (REQUIRED, "l"),
        "null-data": (NO_ARG, "z"),
        "zero-terminated": (NO_ARG, "z"),
        "posix": (NO_ARG, "posix"),
        "quiet": (NO_ARG, "n"),
        "silent": (NO_ARG, "n"),
        "sandbox": (NO_ARG, "sandbox"),
        "separate": (NO_ARG, "s"),
        "unbuffered": (NO_ARG, "u"),
        "version": (NO_ARG, "version"),
        "regexp-extended": (NO_ARG, "E"),
    },
)

VERSION = """sed (GNU sed) 4.9
Packaged by Debian
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Jay Fenlason, Tom Lord, Ken Pizzini,
Paolo Bonzini, Jim Meyering, and Assaf Gordon.

This sed program was built with SELinux support.
SELinux is disabled on this system.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
E-mail bug reports to: <bug-sed@gnu.org>.
"""


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _atoi(text: str) -> int:
    digits = ""
    for c in text.strip():
        if not c.isdigit():
            break
        digits += c
    return int(digits) if digits else 0


Piece = tuple[str, str, bool, bool]  # (e|f, text, extended, null_data) as of that option


def _parse_command_line(ctx: CommandContext) -> tuple[Options, list[Piece], bool, int]:
    """Return (options, script pieces, extended, status); status -1 means go on."""
    opts, operands = parse(SPEC, ctx.args)
    options = Options()
    pieces: list[Piece] = []
    extended = False
    for key, value in opts:
        if key == "n":
            options.quiet = True
        elif key in ("E", "r"):
            extended = True
        elif key in ("e", "f"):
            # GNU compiles -e/-f when it meets them: a later -E or -z does not apply to them.
            pieces.append((key, value or "", extended, options.null_data))
        elif key == "i":
            options.in_place = True
            options.separate = True
            options.suffix = value or ""
        elif key == "s":
            options.separate = True
        elif key == "z":
            options.null_data = True
        elif key == "u":
            options.unbuffered = True
        elif key == "l":
            options.line_length = _atoi(value or "")
        elif key == "posix":
            options.posix = True
        elif key == "sandbox":
            options.sandbox = True
        elif key == "debug":
            ctx.error("--debug is not supported in this sandbox; run the script without it")
            return options, pieces, extended, 1
        elif key == "help":
            ctx.stdout.write(HELP.encode())
            return options, pieces, extended, 0
        elif key == "version":
            ctx.stdout.write(VERSION.encode())
            return options, pieces, extended, 0
        # b (binary), --follow-symlinks, --sandbox: nothing to do here.
    if not pieces:
        if not operands:
            ctx.stderr.write(USAGE_ERROR.encode())
            return options, pieces, extended, 1
        pieces.append(("e", operands.pop(0), extended, options.null_data))
    options.files = operands
    return options, pieces, extended, -1


def writes(args: list[str]) -> list[str]:
    """Files this command line may write: ``-i`` targets (and backups) and ``w`` files
    found statically in ``-e`` scripts (``-f`` scripts are checked when they run)."""
    try:
        opts, operands = parse(SPEC, args)
    except UsageError:
        return []
    in_place = any(k == "i" for k, _ in opts)
    scripts = [v or "" for k, v in opts if k == "e"]
    has_f = any(k == "f" for k, _ in opts)
    if not scripts and not has_f and operands:
        scripts.append(operands[0])
        operands = operands[1:]
    out: list[str] = []
    if in_place:
        suffix = next((v for k, v in opts if k == "i" and v), "")
        for f in operands:
            if f != "-":
                out.append(f)
                if suffix:
                    out.append(_backup_name(f, suffix))
    compiler = Compiler(extended=any(k in ("E", "r") for k, _ in opts), posix=False)
    try:
        for i, text in enumerate(scripts, 1):
            compiler.compile(Source(_encode(text), i))
        wfiles = compiler.program.wfiles
    except Exception:  # noqa: BLE001 - an invalid script writes nothing
        wfiles = list(compiler.program.wfiles)
    out.extend(w for w in wfiles if w not in ("/dev/stdout", "/dev/stderr"))
    return out


def _backup_name(path: str, suffix: str) -> str:
    """GNU's backup name: ``*`` in the suffix stands for the file's base name."""
    if "*" not in suffix:
        return path + suffix
    head, _, base = path.rpartition("/")
    name = suffix.replace("*", base)
    if "/" in name:
        return name
    return (head + "/" if head else "") + name


def run(ctx: CommandContext) -> int:
    """Run sed (see the package docstring)."""
    try:
        options, pieces, extended, status = _parse_command_line(ctx)
    except UsageError as err:
        ctx.error(str(err))
        ctx.stderr.write(USAGE_ERROR.encode())
        return 1
    if status >= 0:
        return status
    compiler = Compiler(extended=extended, posix=options.posix, null_data=options.null_data,
                        budget=ctx.budget, sandbox=options.sandbox,
                        single_byte=not utf8_ctype(ctx.env))
    expr_index = 0
    try:
        for kind, text, piece_extended, piece_null in pieces:
            compiler.extended = piece_extended
            compiler.null_data = piece_null
            if kind == "e":
                expr_index += 1
                compiler.compile(Source(_encode(text), expr_index))
            else:
                try:
                    data = ctx.read_bytes(text) if text != "-" else ctx.stdin.read()
                except FSError as err:
                    ctx.error(f"couldn't open file {text}: {err}")
                    return 4
                if data.endswith(b"\n"):
                    data = data[:-1]
                compiler.compile(Source(data, 0, text))
        program = compiler.finish()
    except ScriptError as err:
        # GNU has already created the w files it parsed before the error.
        for name in compiler.program.wfiles:
            if name not in ("/dev/stdout", "/dev/stderr"):
                try:
                    ctx.write_bytes(name, b"")
                except (FSError, LimitExceeded):
                    pass
        ctx.error(str(err))
        return err.status
    options.expr_count = max(expr_index, 1)
    if options.in_place and not options.files:
        ctx.error("no input files")
        return 4  # GNU's status for this
    executor = Executor(ctx, program, options)
    try:
        return _run_program(ctx, executor, options)
    except SedRuntimeError as err:  # GNU's panic: the message, then exit flushes the rest
        executor.flush_quietly(blocks=True)
        ctx.error(str(err))
        executor.flush_quietly()
        return err.status
    except LimitExceeded:
        executor.flush_quietly()
        raise
    finally:
        executor.close()


def _run_program(ctx: CommandContext, ex: Executor, options: Options) -> int:
    status = 0
    missing = False

    def report(operand: str, err: FSError) -> None:
        nonlocal missing
        if err.errno == 21:
            raise SedRuntimeError(f"read error on {operand}: {err}", 4)
        ex.stdout_sink.flush_blocks()
        ctx.error(f"can't read {operand}: {err}")
        missing = True

    ex.open_wfiles()
    files = options.files or ["-"]
    quit_status: int | None = None
    io_error = False
    if not options.separate:
        ex.reset_ranges()
        inp = Input(ctx, files, ex.delim_byte, report)
        # The block scans search UTF-8 patterns: the C locale takes the ordinary path.
        if not utf8_ctype(ctx.env) or not try_fast_path(ex, inp):
            quit_status = ex.run_unit_quittable(inp)
    else:
        for operand in files:
            if options.in_place:
                if operand == "-":
                    ex.stdout_sink.flush_blocks()
                    ctx.error("couldn't edit -: not a regular file")
                    io_error = True
                    continue
                try:
                    st = ctx.stat(operand)
                except FSError as err:
                    report(operand, err)
                    continue
                if st.is_dir:
                    ex.stdout_sink.flush_blocks()
                    ctx.error(f"couldn't edit {operand}: not a regular file")
                    io_error = True
                    continue
                file_sink = Sink(None)
                ex.out = Output(file_sink, ex.delim)
            ex.reset_ranges()
            ex.hold = b""  # GNU empties the hold space (its "had a newline" flag stays)
            ex.rewind_rfiles()
            inp = Input(ctx, [operand], ex.delim_byte, report)
            quit_status = ex.run_unit_quittable(inp)
            inp.close()
            if options.in_place:
                try:
                    if options.suffix:
                        original = ctx.read_bytes(operand)
                        ctx.write_bytes(_backup_name(operand, options.suffix), original)
                    ctx.write_bytes(operand, bytes(file_sink.buf))
                except FSError as err:
                    ex.stdout_sink.flush_blocks()
                    ctx.error(f"couldn't edit {operand}: {err}")
                    io_error = True
                ex.out = ex.stdout
            if quit_status is not None:
                break
    ex.flush_all()
    if quit_status is not None:
        status = quit_status
    elif io_error:
        status = 4
    elif missing:
        status = 2
    return status


__all__ = ["run", "writes"]

"""The ``jq`` command line: options, input loop, output formatting and exit statuses (jq 1.7).

jq does not parse its command line with getopt: ``--arg NAME VALUE`` takes two words and
``--args`` changes what later positional words mean, so this module follows jq's own
``main.c`` loop instead of ``sandbox.commands.options``. Files are read through the sandbox
(``ctx.open_read``); ``-L``, ``import`` and ``include`` are refused.
"""

from __future__ import annotations

import errno
import io
import json
from typing import Any, Iterator

from sandbox.commands.base import STDIO_BLOCK, CommandContext
from sandbox.commands.jq import interp as I
from sandbox.commands.jq.compiler import Compiler, Globals
from sandbox.commands.jq.errors import Break, Halt, JQError, JQSyntaxError
from sandbox.commands.jq.jsonparse import InputReader, JSONParseError, parse_json_text
from sandbox.commands.jq.parser import MODULES_REFUSED, parse
from sandbox.commands.jq.values import dumps, encode_text
from sandbox.errors import BrokenPipe, LimitExceeded
from sandbox.fs.base import FSError

USAGE = """Usage:\tjq [OPTIONS] FILTER [FILES...]
\tjq [OPTIONS] --args FILTER [ARGUMENTS...]
\tjq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

Example:

\t$ echo '{"foo": 0}' | jq .
\t{
\t  "foo": 0
\t}

Command options:
  -n, --null-input          use `null` as the single input value;
  -R, --raw-input           read each line as string instead of JSON;
  -s, --slurp               read all inputs into an array and use it as
                            the single input value;
  -c, --compact-output      compact instead of pretty-printed output;
  -r, --raw-output          output strings without escapes and quotes;
      --raw-output0         implies -r and output NUL after each output;
  -j, --join-output         implies -r and output without newline after
                            each output;
  -a, --ascii-output        output strings by only ASCII characters
                            using escape sequences;
  -S, --sort-keys           sort keys of each object on output;
  -C, --color-output        accepted; output is never coloured here;
  -M, --monochrome-output   disable colored output;
      --tab                 use tabs for indentation;
      --indent n            use n spaces for indentation (max 7 spaces);
      --stream              parse the input value in streaming fashion;
      --stream-errors       implies --stream and report parse error as
                            an array;
      --seq                 write RS before each output (RFC 7464);
  -f, --from-file file      load filter from the file;
      --arg name value      set $name to the string value;
      --argjson name value  set $name to the JSON value;
      --slurpfile name file set $name to an array of JSON values read
                            from the file;
      --rawfile name file   set $name to string contents of file;
      --args                consume remaining arguments as positional
                            string values;
      --jsonargs            consume remaining arguments as positional
                            JSON values;
  -e, --exit-status         set exit status code based on the output;
  -V, --version             show the version;
  -h, --help                show the help;
  --                        terminates argument processing;

Named arguments are also available as $ARGS.named[], while
positional arguments are available as $ARGS.positional[].
Modules (-L, import, include) are not available in this sandbox.
"""

_HINT = (
    "Use jq --help for help with command-line options,\n"
    "or see the jq manpage, or online docs  at https://jqlang.github.io/jq\n"
)

_SHORT = {
    "n": "null-input", "R": "raw-input", "s": "slurp", "c": "compact-output", "r": "raw-output",
    "j": "join-output", "a": "ascii-output", "S": "sort-keys", "C": "color-output",
    "M": "monochrome-output", "e": "exit-status", "h": "help", "V": "version", "f": "from-file",
    "L": "library-path", "b": "binary",
}
_LONG_FLAGS = {
    "null-input", "raw-input", "slurp", "compact-output", "raw-output", "raw-output0", "join-output",
    "ascii-output", "sort-keys", "color-output", "monochrome-output", "tab", "seq", "exit-status",
    "help", "version", "args", "jsonargs", "unbuffered", "stream", "stream-errors", "binary",
    "build-configuration",
}


class _BuiltinsOnFirstLookup:
    """The builtin table, imported at the first name the compiler looks up: a program such as
    ``.`` or ``.a.b`` calls no builtin and so never pays for importing the library."""

    def get(self, key: tuple[str, int], default: Any = None) -> Any:
        """The builtin ``key`` (see ``builtins.BuiltinTable``) or ``default``."""
        from sandbox.commands.jq.builtins import builtin_table

        return builtin_table().get(key, default)


class UsageFailure(Exception):
    """A command-line problem: message to print and exit status (2)."""


class Options:
    """Parsed command line."""

    def __init__(self) -> None:
        self.flags: set[str] = set()
        self.indent: int | str | None = 2
        self.filter: str | None = None
        self.files: list[str] = []
        self.named: dict[str, Any] = {}
        self.positional: list[Any] = []
        self.from_file: str | None = None


def parse_args(ctx: CommandContext, argv: list[str]) -> Options:
    """jq's argument loop."""
    o = Options()
    args_mode: str | None = None  # None | "args" | "jsonargs"
    args_done = False
    i = 0
    n = len(argv)

    def positional(word: str) -> None:
        if o.filter is None and o.from_file is None:
            o.filter = word
        elif args_mode == "args":
            o.positional.append(word)
        elif args_mode == "jsonargs":
            try:
                o.positional.append(parse_json_text(word))
            except JQError:
                raise UsageFailure(f"jq: Invalid JSON text passed to --jsonargs\n{_HINT}")
        else:
            o.files.append(word)

    def need(count: int, opt: str, example: str) -> list[str]:
        if i + count >= n:
            raise UsageFailure(f"jq: {opt} takes {'two parameters' if count == 2 else 'one parameter'} (e.g. {example})\n{_HINT}")
        return argv[i + 1 : i + 1 + count]

    indent_set = False
    while i < n:
        word = argv[i]
        if args_done or not word.startswith("-") or word == "-":
            positional(word)
            i += 1
            continue
        if word == "--":
            args_done = True
            i += 1
            continue
        names: list[str] = []
        if word.startswith("--"):
            names = [word[2:]]
        else:
            for ch in word[1:]:
                if ch not in _SHORT:
                    raise UsageFailure(f"jq: Unknown option: {word}\n{_HINT}")
                names.append(_SHORT[ch])
        consumed = 0
        for name in names:
            if name in ("library-path",) or (word.startswith("-L")):
                raise UsageFailure(f"jq: error: {MODULES_REFUSED}\n")
            if name == "from-file":
                (o.from_file,) = need(1, "-f", "-f file")
                if o.filter is not None:
                    o.files.insert(0, o.filter)
                    o.filter = None
                consumed = 1
            elif name == "indent":
                (val,) = need(1, "--indent", "--indent 4")
                try:
                    k = int(val)
                except ValueError:
                    raise UsageFailure(f"jq: --indent takes a number\n{_HINT}")
                if k > 7:
                    raise UsageFailure(f"jq: Cannot indent more than 7 characters\n{_HINT}")
                if k < -1:
                    raise UsageFailure(f"jq: Cannot indent less than -1 characters\n{_HINT}")
                o.indent = k
                indent_set = True
                consumed = 1
            elif name == "arg":
                k, val = need(2, "--arg", "--arg varname value")
                o.named[k] = val
                consumed = 2
            elif name == "argjson":
                k, text = need(2, "--argjson", "--argjson varname text")
                try:
                    o.named[k] = parse_json_text(text)
                except JQError:
                    raise UsageFailure(f"jq: Invalid JSON text passed to --argjson\n{_HINT}")
                consumed = 2
            elif name in ("slurpfile", "rawfile"):
                k, fname = need(2, f"--{name}", f"--{name} varname filename")
                try:
                    data = ctx.read_bytes(fname)
                except FSError as e:
                    raise UsageFailure(f"jq: Bad JSON in --{name} {k} {fname}: Could not open {fname}: {e.strerror}\n")
                except IsADirectoryError:
                    raise UsageFailure(f"jq: Bad JSON in --{name} {k} {fname}: Could not open {fname}: Is a directory\n")
                if name == "rawfile":
                    o.named[k] = data.decode("utf-8", "replace")
                else:
                    try:
                        o.named[k] = list(InputReader(io.BytesIO(data)).values())
                    except JSONParseError as e:
                        raise UsageFailure(f"jq: Bad JSON in --{name} {k} {fname}: {e}\n")
                consumed = 2
            elif name == "args":
                args_mode = "args"
            elif name == "jsonargs":
                args_mode = "jsonargs"
            elif name == "tab":
                o.indent = "\t"
                indent_set = True
            elif name in _LONG_FLAGS:
                o.flags.add(name)
            elif name in ("seq",):
                o.flags.add(name)
            else:
                raise UsageFailure(f"jq: Unknown option: {word}\n{_HINT}")
        i += 1 + consumed
    if "raw-output0" in o.flags:
        o.flags.add("raw-output")
    if "join-output" in o.flags:
        o.flags.add("raw-output")
    if "compact-output" in o.flags:
        o.indent = None
    elif o.indent == 0 or o.indent == -1:
        o.indent = None
    return o


class _Unreadable:
    """A directory named as an input: fopen(3) opens it, its first read fails (EISDIR), and
    jq reports that at its next read_more ("jq: error: Is a directory")."""

    def __init__(self, err: FSError):
        self.err = err

    def read(self, size: int = -1) -> bytes:
        raise self.err

    def __iter__(self) -> Iterator[bytes]:
        raise self.err

    def close(self) -> None:
        """Nothing to close."""


class OutputFailed(Exception):
    """Standard output refused a write; ``str()`` is the reason (``strerror``)."""


class _Out:
    """The command's output as jq's stdio writes it: fully buffered, in ``STDIO_BLOCK``-byte
    blocks, so a message on stderr goes before the output that fills no whole block yet
    (``flush_blocks``); ``--unbuffered`` writes each result as it comes."""

    def __init__(self, ctx: CommandContext, unbuffered: bool = False):
        self.ctx = ctx
        self.parts: list[bytes] = []
        self.size = 0
        self.unbuffered = unbuffered
        #: How many bytes may wait before they are written on (``spill``).
        self.limit = 1 if unbuffered else 65536

    def write(self, data: bytes) -> None:
        self.parts.append(data)
        self.size += len(data)
        if self.size >= self.limit:
            self.spill()

    def spill(self) -> None:
        """Write on what has reached ``limit``: all of it under ``--unbuffered``, else the
        whole blocks."""
        if self.unbuffered:
            self.flush()
        else:
            self.flush_blocks()

    def flush_blocks(self) -> None:
        """Write on the whole ``STDIO_BLOCK``-byte blocks the buffer holds (what stdio has
        written by now); keep the rest."""
        whole = self.size - self.size % STDIO_BLOCK
        if not whole:
            return
        data = b"".join(self.parts)
        self.parts.clear()  # in place: the main loop holds a reference to this list
        if len(data) > whole:
            self.parts.append(data[whole:])
        self.size = len(data) - whole
        self._write(data[:whole])

    def _write(self, data: bytes) -> None:
        try:
            self.ctx.stdout.write(data)
        except OSError as e:  # >&-, > /dev/full: jq's fclose(stdout) check at exit
            raise OutputFailed(e.strerror or "Input/output error") from None

    def flush(self) -> None:
        """Write on everything buffered (at the end, or after a result under --unbuffered)."""
        if self.parts:
            data = b"".join(self.parts)
            self.parts.clear()  # in place: the main loop holds a reference to this list
            self.size = 0
            self._write(data)


def run(ctx: CommandContext) -> int:
    """Entry point of the ``jq`` command."""
    try:
        opts = parse_args(ctx, ctx.args)
    except UsageFailure as e:
        ctx.stderr.write(str(e).encode("utf-8", "surrogateescape"))
        return 2
    if "help" in opts.flags:
        ctx.stdout.write(USAGE.encode())
        return 0
    if "version" in opts.flags:
        ctx.stdout.write(b"jq-1.8.1\n")
        return 0
    if "build-configuration" in opts.flags:
        ctx.stdout.write(b"python (sandbox reimplementation)\n")
        return 0
    if opts.from_file is not None:
        try:
            program = ctx.read_bytes(opts.from_file).decode("utf-8", "replace")
        except (FSError, IsADirectoryError) as e:
            ctx.stderr.write(f"jq: error: Could not open {opts.from_file}: {getattr(e, 'strerror', 'Is a directory')}\n".encode())
            return 2
    elif opts.filter is None:
        # jq's main.c: no program and stdin or stdout not a terminal (never one here) is "."
        program = "."
    else:
        program = opts.filter
    return Run(ctx, opts, program).main()


class Run:
    """One execution of a compiled program over the inputs."""

    def __init__(self, ctx: CommandContext, opts: Options, program: str):
        self.ctx = ctx
        self.opts = opts
        self.program = program
        self.out = _Out(ctx, "unbuffered" in opts.flags)
        self.reader: InputReader | None = None
        self.filename: Any = None
        self.position_known = False
        self.exit_code = 0
        self.last_output: Any = None
        self.any_output = False
        # jq_util_input's ``failures``: inputs that could not be opened or read (exit 2; the
        # main loop takes no further input once there is one), and a failed read's message,
        # which jq prints on its next read_more: on opening the next file, or, after the last
        # one, on the next read of the input after the one that failed (``fresh`` until then).
        self.input_failures = 0
        self.read_error: str | None = None
        self.read_error_fresh = False

    # -- program -----------------------------------------------------------------------------

    def compile(self) -> I.Node:
        """Parse and compile the filter with this run's global variables."""
        named = dict(self.opts.named)
        variables: dict[str, Any] = {
            "ENV": dict(self.ctx.env),
            "ARGS": {"positional": list(self.opts.positional), "named": named},
        }
        variables.update(named)
        glob = Globals(_BuiltinsOnFirstLookup(), variables)
        ast = parse(self.program)
        return Compiler(glob).compile(ast)

    def compile_error(self, msg: str) -> int:
        """Report a compile error as jq does (exit 3)."""
        first = self.program.split("\n")[0] if "\n" not in self.program else self.program
        text = f"jq: error: {msg} at <top-level>, line 1:\n{first}\njq: 1 compile error\n"
        if msg == MODULES_REFUSED:
            text = f"jq: error: {msg}\njq: 1 compile error\n"
        self.ctx.stderr.write(text.encode("utf-8", "surrogateescape"))
        return 3

    # -- inputs ------------------------------------------------------------------------------

    def _streams(self) -> Iterator[tuple[Any, Any]]:
        if not self.opts.files:
            yield None, self.ctx.stdin
            return
        for name in self.opts.files:
            self._report_read_error()
            if name == "-":  # jq_util_input_read_more: ``-`` is stdin
                yield None, self.ctx.stdin
                continue
            try:
                f = self.ctx.open_read(name)
            except IsADirectoryError:
                f = _Unreadable(FSError(errno.EISDIR, name))
            except FSError as e:
                if e.errno != errno.EISDIR:  # util.c's fprinter
                    self.out.flush_blocks()
                    self.ctx.stderr.write(f"jq: error: Could not open file {name}: {e.strerror}\n"
                                          .encode("utf-8", "surrogateescape"))
                    self.exit_code = 2
                    self.input_failures += 1
                    continue
                f = _Unreadable(e)
            yield name, f

    def _read_failed(self, err: FSError) -> None:
        """A read of the current input failed (``jq . < dir``): counted, its message kept
        for jq's next read_more."""
        self.input_failures += 1
        self.read_error = f"jq: error: {err.strerror}\n"
        self.read_error_fresh = True

    def _report_read_error(self) -> None:
        """read_more on a stream whose read failed: the message; the stream is dropped, so
        the position and ``input_filename`` are unknown until the next one."""
        if self.read_error is None:
            return
        self._stderr(encode_text(self.read_error))
        self.read_error = None
        self.read_error_fresh = False
        self.filename = None
        self.position_known = False

    def _raw_values(self) -> Iterator[Any]:
        if "slurp" in self.opts.flags:
            chunks = []
            total = 0
            for name, f in self._streams():
                self.filename = name
                self.position_known = True
                while True:
                    try:
                        data = f.read(1 << 16)
                    except FSError as e:
                        self._read_failed(e)
                        break
                    if not data:
                        break
                    total += len(data)
                    I.check_str(total)
                    chunks.append(data)
            yield b"".join(chunks).decode("utf-8", "replace")
            return
        for name, f in self._streams():
            self.filename = name
            self.position_known = True
            self.reader = InputReader(f, self.ctx.budget)
            pending = b""
            try:
                for line in f:
                    self.reader.lines += 1 if line.endswith(b"\n") else 0
                    if pending:
                        line = pending + line
                        pending = b""
                    if line.endswith(b"\n"):
                        yield line[:-1].decode("utf-8", "replace")
                    else:
                        pending = line
            except FSError as e:
                self._read_failed(e)
            if pending:
                yield pending.decode("utf-8", "replace")

    def _json_values(self) -> Iterator[Any]:
        for name, f in self._streams():
            self.filename = name
            self.position_known = True
            try:
                if "seq" in self.opts.flags:
                    yield from self._seq_values(f)
                    continue
                self.reader = self._reader(f)
                yield from self.reader.values()
            except FSError as e:
                self._read_failed(e)

    def _reader(self, f: Any) -> InputReader:
        """The parser of one input: jq 1.8 main.c sets JV_PARSE_STREAMING for ``--stream``,
        and JV_PARSE_STREAM_ERRORS as well for ``--stream-errors``."""
        flags = self.opts.flags
        return InputReader(f, self.ctx.budget, streaming="stream" in flags,
                           stream_errors="stream-errors" in flags)

    def _seq_values(self, f: Any) -> Iterator[Any]:
        """RFC 7464 input (``--seq``): texts start with RS; text outside them is ignored."""
        data = f.read()
        segments = data.split(b"\x1e")
        if segments[0].strip():
            self._stderr(b"jq: ignoring parse error: Unfinished abandoned text at EOF at line 1, column 0\n")
        for seg in segments[1:]:
            self.reader = self._reader(io.BytesIO(seg))
            try:
                for v in self.reader.values():
                    yield v
            except JSONParseError as e:
                self._stderr(f"jq: ignoring parse error: {e}\n".encode())

    def inputs(self) -> Iterator[Any]:
        """The input values after -R / -s handling."""
        if "raw-input" in self.opts.flags:
            yield from self._raw_values()
            return
        if "slurp" in self.opts.flags:
            items: list[Any] = []
            r = I.rt()
            for v in self._json_values():
                items.append(v)
                if len(items) > r.max_items:
                    I.check_items(len(items))
            yield items
            return
        yield from self._json_values()

    def position(self) -> str:
        """``<stdin>:N`` as jq prints in runtime errors."""
        if not self.position_known:
            return "<unknown>"
        name = self.filename if self.filename is not None else "<stdin>"
        lines = self.reader.lines if self.reader is not None else 0
        return f"{name}:{lines}"

    # -- output ------------------------------------------------------------------------------

    def emit(self, v: Any) -> None:
        """Write one result."""
        flags = self.opts.flags
        if "seq" in flags:
            self.out.write(b"\x1e")
        if "raw-output" in flags and type(v) is str:
            if "ascii-output" in flags:
                text = dumps(v, ascii=True)
            else:
                if "raw-output0" in flags and "\x00" in v:
                    raise JQError("Cannot dump a string containing NUL with --raw-output0 option")
                text = v
        else:
            text = dumps(v, self.opts.indent, "sort-keys" in flags, "ascii-output" in flags)
        self.out.write(encode_text(text))
        if "raw-output0" in flags:
            self.out.write(b"\x00")
        elif "join-output" not in flags:
            self.out.write(b"\n")
        self.last_output = v
        self.any_output = True

    def error(self, e: JQError) -> None:
        """Report an uncaught runtime error (exit status 5)."""
        self.out.flush_blocks()
        val = e.value
        if type(val) is str:
            msg = f"jq: error (at {self.position()}): {val}\n"
        else:
            msg = f"jq: error (at {self.position()}) (not a string): {dumps(val)}\n"
        self.ctx.stderr.write(encode_text(msg))
        self.exit_code = 5

    # -- main loop ---------------------------------------------------------------------------

    def main(self) -> int:
        """Compile, run over every input, flush, and return the exit status."""
        runtime = I.Runtime(self.ctx.budget, dict(self.ctx.env))
        limits = self.ctx.budget.limits
        runtime.max_string = limits.string_length
        runtime.max_items = max(1_000_000, limits.string_length // 8)
        runtime.stderr = self._stderr
        runtime.named_args = self.opts.named
        prev = I.rt()
        I.set_runtime(runtime)
        try:
            return self._main(runtime)
        except (LimitExceeded, BrokenPipe):
            self.out.flush()
            raise
        except OutputFailed as e:
            self.ctx.stderr.write(f"jq: error: writing output failed: {e}\n".encode())
            return 2
        except MemoryError:
            self.out.flush()
            raise LimitExceeded("memory", "jq: out of memory; process the input in smaller pieces")
        except RecursionError:
            self.out.flush()
            raise LimitExceeded("recursion_depth", "jq: recursion too deep; the filter recurses without end or the data is nested too deeply")
        except Exception as e:  # a bug of ours: one line, never a traceback or a host path
            self.out.flush()
            self.ctx.stderr.write(f"jq: error: internal error ({type(e).__name__}); please report the filter\n".encode())
            return 5
        finally:
            I.set_runtime(prev if prev is not I._DEFAULT_RT else None)

    def _stderr(self, data: bytes) -> None:
        self.out.flush_blocks()
        self.ctx.stderr.write(data)

    def _main(self, runtime: I.Runtime) -> int:
        try:
            prog = self.compile()
        except JQSyntaxError as e:
            return self.compile_error(str(e))
        source = self.inputs()
        runtime.next_input = lambda: self._next_input(source, runtime)
        runtime.filename_source = self.current_filename
        runtime.line_source = self.current_line
        status: int | None = None
        try:
            if "null-input" in self.opts.flags:
                self.run_fast(prog, iter((None,)))
            else:
                self.run_fast(prog, source)
        except JSONParseError as e:
            self.out.flush_blocks()
            self.ctx.stderr.write(encode_text(f"jq: parse error: {e}\n"))
            status = 5  # jq 1.7 main.c: ret = JQ_ERROR_UNKNOWN
        except Halt as h:
            self.out.flush_blocks()
            if h.message is not None:
                self.ctx.stderr.write(h.message)
            self.out.flush()
            return h.status
        self.out.flush()
        if self.input_failures:  # main.c: ``if (jq_util_input_errors(...)) ret = 2``
            return 2
        if status is not None:
            return status
        if self.exit_code:
            return self.exit_code
        if "exit-status" in self.opts.flags:
            if not self.any_output:
                return 4
            if self.last_output is None or self.last_output is False:
                return 1
        return 0

    def _pull(self, source: Iterator[Any]) -> Any:
        """The next input; StopIteration at the end (a read after the one that found a
        failed read at the end prints that failure's message first)."""
        try:
            return next(source)
        except StopIteration:
            if self.read_error_fresh:
                self.read_error_fresh = False
            else:
                self._report_read_error()
            raise

    def _next_input(self, source: Iterator[Any], runtime: I.Runtime) -> Any:
        try:
            v = self._pull(source)
        except StopIteration:
            raise JQError("No more inputs")
        except JSONParseError as e:
            raise JQError(str(e))
        return v

    def current_filename(self) -> Any:
        """``input_filename``: the operand being read, as typed (null for stdin)."""
        return self.filename

    def current_line(self) -> int:
        """``input_line_number``: newlines consumed so far."""
        return self.reader.lines if self.reader is not None else 0

    def make_emitter(self):
        """A function from a result to the bytes jq prints for it (options resolved once)."""
        flags = self.opts.flags
        indent = self.opts.indent
        sort_keys = "sort-keys" in flags
        ascii_out = "ascii-output" in flags
        raw = "raw-output" in flags
        seq = b"\x1e" if "seq" in flags else b""
        if "raw-output0" in flags:
            end = b"\x00"
        elif "join-output" in flags:
            end = b""
        else:
            end = b"\n"
        from json.encoder import encode_basestring

        def emit(v: Any) -> bytes:
            if type(v) is str:
                if raw and not ascii_out:
                    if end == b"\x00" and "\x00" in v:
                        raise JQError("Cannot dump a string containing NUL with --raw-output0 option")
                    text = v
                elif not ascii_out:
                    text = encode_basestring(v)
                    if "\x7f" in text:
                        text = text.replace("\x7f", "\\u007f")
                else:
                    text = dumps(v, None, False, True)
            else:
                text = dumps(v, indent, sort_keys, ascii_out)
            try:
                data = text.encode("utf-8")
            except UnicodeEncodeError:
                data = encode_text(text)
            return seq + data + end if seq else data + end

        return emit

    def run_fast(self, prog: I.Node, source: Iterator[Any]) -> None:
        """The main loop over inputs: evaluate, format, buffer output."""
        emit = self.make_emitter()
        out = self.out
        parts = out.parts
        limit = out.limit
        simple = prog.simple
        one = prog.one
        ev = prog.ev
        last = None
        have = False
        for v in source:
            if self.exit_code == 5:
                self.exit_code = 0
            try:
                if simple:
                    last = one(v, None)
                    data = emit(last)
                    have = True
                    parts.append(data)
                    out.size += len(data)
                    if out.size >= limit:
                        out.spill()
                else:
                    for last in ev(v, None):
                        data = emit(last)
                        have = True
                        parts.append(data)
                        out.size += len(data)
                        if out.size >= limit:
                            out.spill()
            except JQError as e:
                self.error(e)
            except Break:
                self.error(JQError("break"))
            if self.input_failures:  # main.c: ``while (jq_util_input_errors(...) == 0 && ...)``
                break
        if have:
            self.any_output = True
            self.last_output = last

    def _run_one(self, prog: I.Node, v: Any) -> None:
        env = None
        # like jq's main loop, the status reflects the last input processed
        if self.exit_code == 5:
            self.exit_code = 0
        try:
            if prog.simple:
                self.emit(prog.one(v, env))
            else:
                for out in prog.ev(v, env):
                    self.emit(out)
        except JQError as e:
            self.error(e)
        except Break:
            self.error(JQError("break"))

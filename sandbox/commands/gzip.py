"""``gzip``: compress or decompress files inside the jail (GNU gzip 1.12).

Options: ``-c -d -f -k -l -n -N -q -r -t -v -1..-9 --fast --best -S SUF``, their long forms,
``-a`` (ignored, with GNU's notice), ``-m``/``-M``, ``--synchronous``, ``-h``/``-L``/``-V``;
stdin/stdout with no file or ``-``. The program follows gzip.c's ``treat_file``,
``treat_stdin``, ``make_ofname``, ``get_method``, ``do_list`` and ``unzip``: the same messages
(with GNU's leading newline on decoding errors), the same exit statuses (1 error, 2 warning),
the same order of effects (``gzip f`` writes ``f.gz`` with ``f``'s mtime, then removes ``f``;
``-f`` removes an existing output first; an error while decoding ends the whole run, removing
the output file). The output file is written atomically once complete; its size is checked
against the run's write limit while it is produced, so a small file that inflates to
gigabytes ends with the limit's one-line error, holding at most the limit in memory.

Compressed bytes: zlib at ``memLevel`` 8 makes gzip's LZ77 parse and Huffman trees; past
16383 symbols ``_gzipfmt.gzip_deflate`` re-splits the parse into gzip's blocks (trees.c's
port; where zlib stored a block, deflate.c's own parse, ``gzip_parse``), so the output is
gzip 1.12's byte for byte (measured: 400 of 400 generated inputs up to 300 KB, every level;
2.3 MB of JSON lines at -1/-6/-9). Differences left: inputs past 4 MiB (streamed through
zlib, blocks split at 16383 symbols; still valid) and incompressible data past 1 MiB (zlib's
stored blocks); ``--rsyncable`` is refused when compressing; ``.Z``/pack/lzh/zip inputs are
refused with one line; permission bits of the
input are not copied (the jail keeps new files private); ``-r`` walks directories in sorted
order (GNU: the host's directory order); ``gzip < file`` stores MTIME 0 (GNU: the file's,
as stdin is a regular file there; the jail's stdin is always a stream).
"""

from __future__ import annotations

import errno

from sandbox.commands import _gzipfmt as fmt
from sandbox.commands._dirorder import in_directory_order
from sandbox.commands._writing import operands_of
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse
from sandbox.errors import BrokenPipe
from sandbox.fs.base import FileStat, FSError, Timestamp, mtime_ns_of

#: gzip's options, in gzip.c's ``longopts`` order (ambiguity messages list them so).
SPEC = OptionSpec(
    short="ab:cdfhH?klLmMnNqrS:tvVZ123456789",
    long={
        "ascii": (NO_ARG, "a"),
        "to-stdout": (NO_ARG, "c"),
        "stdout": (NO_ARG, "c"),
        "decompress": (NO_ARG, "d"),
        "uncompress": (NO_ARG, "d"),
        "force": (NO_ARG, "f"),
        "help": (NO_ARG, "h"),
        "keep": (NO_ARG, "k"),
        "list": (NO_ARG, "l"),
        "license": (NO_ARG, "L"),
        "no-name": (NO_ARG, "n"),
        "name": (NO_ARG, "N"),
        "quiet": (NO_ARG, "q"),
        "silent": (NO_ARG, "q"),
        "synchronous": (NO_ARG, "synchronous"),
        "recursive": (NO_ARG, "r"),
        "suffix": (REQUIRED, "S"),
        "test": (NO_ARG, "t"),
        "verbose": (NO_ARG, "v"),
        "version": (NO_ARG, "V"),
        "fast": (NO_ARG, "1"),
        "best": (NO_ARG, "9"),
        "lzw": (NO_ARG, "Z"),
        "bits": (REQUIRED, "b"),
        "rsyncable": (NO_ARG, "rsyncable"),
    },
)

HELP_LINES = [
    "Compress or uncompress FILEs (by default, compress FILES in-place).",
    "",
    "Mandatory arguments to long options are mandatory for short options too.",
    "",
    "  -c, --stdout      write on standard output, keep original files unchanged",
    "  -d, --decompress  decompress",
    "  -f, --force       force overwrite of output file and compress links",
    "  -h, --help        give this help",
    "  -k, --keep        keep (don't delete) input files",
    "  -l, --list        list compressed file contents",
    "  -L, --license     display software license",
    "  -n, --no-name     do not save or restore the original name and timestamp",
    "  -N, --name        save or restore the original name and timestamp",
    "  -q, --quiet       suppress all warnings",
    "  -r, --recursive   operate recursively on directories",
    "      --rsyncable   make rsync-friendly archive",
    "  -S, --suffix=SUF  use suffix SUF on compressed files",
    "      --synchronous synchronous output (safer if system crashes, but slower)",
    "  -t, --test        test compressed file integrity",
    "  -v, --verbose     verbose mode",
    "  -V, --version     display version number",
    "  -1, --fast        compress faster",
    "  -9, --best        compress better",
    "",
    "With no FILE, or when FILE is -, read standard input.",
    "",
    "Report bugs to <bug-gzip@gnu.org>.",
]

LICENSE = """gzip 1.12
Copyright (C) 2018 Free Software Foundation, Inc.
Copyright (C) 1993 Jean-loup Gailly.
This is free software.  You may redistribute copies of it under the terms of
the GNU General Public License <https://www.gnu.org/licenses/gpl.html>.
There is NO WARRANTY, to the extent permitted by law.
"""

PROGRAM = "gzip"
OK, ERROR, WARNING = 0, 1, 2
MAX_SUFFIX = 30
MAX_PATH_LEN = 1024
#: ``INT_STRLEN_BOUND (off_t) - 1``: the width of gzip -l's size columns.
OFF_WIDTH = 19
_KNOWN_SUFFIXES = [".gz", ".z", ".taz", ".tgz", "-gz", "-z", "_z"]
_MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


class _Exit(Exception):
    """gzip's ``do_exit``: the run ends with ``code``."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def writes(args: list[str], decompress: bool = False) -> list[str]:
    """The files a ``gzip`` command line may write or remove: each operand and its output
    name (nothing for ``-c``, ``-l``, ``-t`` or stdin)."""
    opts, operands = operands_of(SPEC, args)
    keys = {k for k, _ in opts}
    if keys & {"c", "l", "t", "h", "L", "V"}:
        return []
    decompress = decompress or "d" in keys
    suffix = next((v for k, v in reversed(opts) if k == "S" and v), ".gz")
    found: list[str] = []
    for op in operands:
        if op == "-":
            continue
        found.append(op)
        if decompress:
            base = op.rsplit("/", 1)[-1]
            low = op.lower()
            for s in [suffix.lower()] + _KNOWN_SUFFIXES:
                if low.endswith(s) and len(base) > len(s):
                    found.append(op[: -len(s)] + (".tar" if s in (".tgz", ".taz") else ""))
            found.append(op + suffix)
        else:
            found.append(op + suffix)
    return list(dict.fromkeys(found))


def run(ctx: CommandContext) -> int:
    """Run gzip with ``ctx.args``."""
    return Gzip(ctx).main(ctx.args)


def _ratio(num: int, den: int) -> str:
    """``display_ratio``: ``%5.1f%%`` of num/den (0 when den is 0)."""
    return "%5.1f%%" % (0 if den == 0 else 100.0 * num / den)


class Gzip:
    """One gzip process: the options and the globals gzip.c keeps across files."""

    def __init__(self, ctx: CommandContext, decompress: bool = False, to_stdout: bool = False):
        self.ctx = ctx
        self.decompress = decompress
        self.to_stdout = to_stdout
        self.force = 0
        self.keep = False
        self.no_name = -1
        self.no_time = -1
        self.recursive = False
        self.list = False
        self.verbose = 0
        self.quiet = False
        self.test = False
        self.level = 6
        self.exit_code = OK
        self.save_orig_name = False
        self.z_suffix = ".gz"
        self.ascii = False
        self.rsync = False
        # per-file state
        self.ifname = ""
        self.ofname = ""
        self.bytes_out = 0
        self.header_bytes = 0
        self.total_in = 0
        self.total_out = 0
        self.part_nb = 0
        self.last_member = False
        self.method = 8
        self.time_sec = 0
        self.time_nsec = -1
        self.ifile_size = -1
        self.unzip_crc = 0
        self.first_time = True
        self.inp: fmt.GzipInput | None = None
        self.emit = self._discard
        self.out_pieces: list[bytes] = []
        self.out_size = 0
        self.out_name_file: str | None = None
        self.copy_mode = False
        self.slide = bytearray(fmt.WSIZE)

    # -- messages ------------------------------------------------------------------------

    def err(self, text: str) -> None:
        """Write ``text`` to stderr as it is."""
        self.ctx.stderr.write(text.encode("utf-8", "surrogateescape"))

    def warn(self, text: str) -> None:
        """gzip's ``WARN``: print unless quiet; the exit status becomes 2 if it was 0."""
        if not self.quiet:
            self.err(text)
        if self.exit_code == OK:
            self.exit_code = WARNING

    def progerror(self, name: str, e: FSError) -> None:
        """``progerror``: ``gzip: NAME: strerror``, exit status 1."""
        self.err(f"{PROGRAM}: {name}: {e.strerror}\n")
        self.exit_code = ERROR

    def try_help(self) -> None:
        """GNU gzip's usage hint (with its backquote); ends the run with status 1."""
        self.err(f"Try `{PROGRAM} --help' for more information.\n")
        raise _Exit(ERROR)

    def abort(self) -> None:
        """``abort_gzip``: drop the output file and end the run with status 1."""
        self.out_pieces = []
        raise _Exit(ERROR)

    def gzip_error(self, message: str) -> None:
        """``gzip_error``: ``\\ngzip: IFNAME: MESSAGE`` and abort."""
        self.err(f"\n{PROGRAM}: {self.ifname}: {message}\n")
        self.abort()

    def read_error(self) -> None:
        """``read_error`` at the end of the input."""
        self.gzip_error("unexpected end of file")

    # -- command line ----------------------------------------------------------------------

    def main(self, args: list[str]) -> int:
        """Parse ``args`` and treat every operand; return the exit status."""
        try:
            return self._main(args)
        except _Exit as e:
            return e.code
        except FSError as e:  # a read or write the jail refused midway (gzip's read_error)
            self.err(f"\n{PROGRAM}: {self.ifname}: {e.strerror}\n")
            return ERROR
        except BrokenPipe:
            if self.quiet:  # gzip -q exits with status 2 on SIGPIPE (its exiting_signal)
                return WARNING
            raise

    def _main(self, args: list[str]) -> int:
        ctx = self.ctx
        env_words = ctx.env.get("GZIP", "").replace("\t", " ").split()
        if env_words:
            self._env_options(env_words)
        try:
            opts, operands = parse(SPEC, args)
        except UsageError as e:
            self.err(f"{PROGRAM}: {e}\n")
            self.try_help()
            raise AssertionError("unreachable")
        for key, value in opts:
            self._option(key, value)
        if self.no_time < 0:
            self.no_time = int(self.decompress)
        if self.no_name < 0:
            self.no_name = int(self.decompress)
        if self.ascii and not self.quiet:
            self.err(f"{PROGRAM}: option --ascii ignored on this system\n")
        if len(self.z_suffix) == 0 or len(self.z_suffix) > MAX_SUFFIX:
            self.err(f"{PROGRAM}: invalid suffix '{self.z_suffix}'\n")
            raise _Exit(ERROR)
        if self.rsync and not self.decompress:
            self.err(f"{PROGRAM}: --rsyncable is not supported in this sandbox; compress without it\n")
            raise _Exit(ERROR)
        self.file_count = len(operands)
        if operands:
            for op in operands:
                self.treat_file(op)
        else:
            self.treat_stdin()
        if self.list and not self.quiet and self.file_count > 1:
            self.do_list(-1)
        return self.exit_code

    def _env_options(self, words: list[str]) -> None:
        """Options from the GZIP environment variable (only the harmless ones are valid)."""
        for word in words:
            if word == "--":
                self.err(f"{PROGRAM}: --: option not valid in GZIP environment variable\n")
                self.try_help()
            if not word.startswith("-") or word == "-":
                self.err(f"{PROGRAM}: {word}: non-option in GZIP environment variable\n")
                self.try_help()
            try:
                opts, _ = parse(SPEC, [word])
            except UsageError as e:
                self.err(f"{PROGRAM}: {e}\n")
                self.try_help()
                return
            for key, value in opts:
                if key not in "nNqv123456789" and key != "rsyncable":
                    shown = f"-{key}" if not word.startswith("--") else word.split("=")[0]
                    self.err(f"{PROGRAM}: {shown}: option not valid in GZIP environment variable\n")
                    self.try_help()
                self._option(key, value)
        if not self.quiet:
            self.err(f"{PROGRAM}: warning: GZIP environment variable is deprecated; use an alias or script\n")

    def _option(self, key: str, value: str | None) -> None:
        out = self.ctx.stdout
        if key == "a":
            self.ascii = True
        elif key == "b":
            if not (value or "").isdigit() and value != "":
                self.err(f"{PROGRAM}: -b operand is not an integer\n")
                self.try_help()
        elif key == "c":
            self.to_stdout = True
        elif key == "d":
            self.decompress = True
        elif key == "f":
            self.force += 1
        elif key in ("h", "H"):
            out.write(f"Usage: {PROGRAM} [OPTION]... [FILE]...\n".encode())
            out.write(("\n".join(HELP_LINES) + "\n").encode())
            raise _Exit(OK)
        elif key == "k":
            self.keep = True
        elif key == "l":
            self.list = self.decompress = self.test = self.to_stdout = True
        elif key == "L":
            out.write(LICENSE.encode())
            raise _Exit(OK)
        elif key == "m":
            self.no_time = 1
        elif key == "M":
            self.no_time = 0
        elif key == "n":
            self.no_name = self.no_time = 1
        elif key == "N":
            self.no_name = self.no_time = 0
        elif key == "q":
            self.quiet = True
            self.verbose = 0
        elif key == "r":
            self.recursive = True
        elif key == "rsyncable":
            self.rsync = True
        elif key == "S":
            self.z_suffix = value or ""
        elif key == "t":
            self.test = self.decompress = self.to_stdout = True
        elif key == "v":
            self.verbose += 1
            self.quiet = False
        elif key == "V":
            out.write((LICENSE + "\nWritten by Jean-loup Gailly.\n").encode())
            raise _Exit(OK)
        elif key == "Z":
            self.err(f"{PROGRAM}: -Z not supported in this version\n")
            self.try_help()
        elif key.isdigit():
            self.level = int(key)
        elif key == "?":
            self.try_help()

    # -- file names --------------------------------------------------------------------------

    def get_suffix(self, name: str) -> int | None:
        """Where the 'z' suffix of ``name`` starts, or None (gzip's ``get_suffix``)."""
        z = self.z_suffix
        of_builtin = any(len(z) < len(s) and s.endswith(z) for s in _KNOWN_SUFFIXES)
        suffixes = _KNOWN_SUFFIXES + [z.lower()] if of_builtin else [z.lower()] + _KNOWN_SUFFIXES
        tail = name[-(MAX_SUFFIX + 2):].lower()
        for s in suffixes:
            n = len(s)
            if len(tail) > n and tail[len(tail) - n - 1] != "/" and tail.endswith(s):
                return len(name) - n
        return None

    def make_ofname(self) -> int:
        """Set ``ofname`` from ``ifname``; OK, or WARNING when the file is skipped."""
        name = self.ifname
        at = self.get_suffix(name)
        if self.decompress:
            if at is None:
                if not self.recursive and self.test:
                    self.ofname = name
                    return OK
                if self.verbose or (not self.recursive and not self.quiet):
                    self.warn(f"{PROGRAM}: {name}: unknown suffix -- ignored\n")
                return WARNING
            suff = name[at:].lower()
            self.ofname = name[:at] + (".tar" if suff in (".tgz", ".taz") else "")
            return OK
        if at is not None and not self.force:
            if self.verbose or (not self.recursive and not self.quiet):
                self.err(f"{PROGRAM}: {name} already has {name[at:]} suffix -- unchanged\n")
            return WARNING
        self.save_orig_name = False
        if len(name) + len(self.z_suffix) >= MAX_PATH_LEN:
            self.warn(f"{PROGRAM}: {name}: file name too long\n")
            return WARNING
        self.ofname = name + self.z_suffix
        return OK

    def open_input_file(self, iname: str) -> FileStat | None:
        """Stat ``iname`` (trying the suffixes when decompressing); the stat or None."""
        if len(iname) >= MAX_PATH_LEN - 1:
            self.err(f"{PROGRAM}: {iname}: file name too long\n")
            self.exit_code = ERROR
            return None
        self.ifname = iname
        try:
            return self._stat(iname)
        except FSError as e:
            if not self.decompress or e.errno != errno.ENOENT:
                self.progerror(iname, e)
                return None
            first = e
        if self.get_suffix(iname) is not None:
            self.progerror(iname, first)
            return None
        suffixes = [self.z_suffix, ".gz", ".z", "-z", ".Z"]
        if self.z_suffix == ".gz":
            suffixes = suffixes[1:]
        for s in suffixes:
            name = iname + s
            try:
                st = self._stat(name)
                self.ifname = name
                return st
            except FSError as e:
                if e.errno != errno.ENOENT:
                    self.ifname = name
                    self.progerror(name, e)
                    return None
        self.ifname = iname + self.z_suffix
        self.progerror(self.ifname, FSError(errno.ENOENT, ""))
        return None

    def _stat(self, name: str) -> FileStat:
        st = self.ctx.stat(name)
        if name.endswith("/") and not st.is_dir:
            raise FSError(errno.ENOTDIR, name)
        return st

    # -- treating operands ---------------------------------------------------------------------

    def treat_stdin(self) -> None:
        """Compress or decompress standard input to standard output."""
        self.ifname = "stdin"
        self.ofname = "stdout"
        self.ifile_size = -1
        self.time_nsec = -1
        self._clear()
        self.to_stdout = True
        self.part_nb = 0
        self.emit = self._to_stdout
        self.inp = fmt.GzipInput(self.ctx.stdin, self.ctx.budget.check_time)
        if self.decompress:
            self.method = self.get_method()
            if self.method < 0:
                raise _Exit(self.exit_code)
        while True:
            if not self.work():
                return
            if self.input_eof():
                break
            self.method = self.get_method()
            if self.method < 0:
                return
            self.bytes_out = 0
        if self.list:
            self.do_list(self.method)
            return
        if self.verbose:
            if self.test:
                self.err(" OK\n")
            elif not self.decompress:
                self.err(_ratio(self.bytes_in - (self.bytes_out - self.header_bytes), self.bytes_in) + "\n")

    def treat_file(self, iname: str) -> None:
        """gzip's ``treat_file`` for one operand."""
        if iname == "-":
            cflag = self.to_stdout
            self.treat_stdin()
            self.to_stdout = cflag
            return
        st = self.open_input_file(iname)
        if st is None:
            return
        if st.is_dir:
            if self.recursive:
                self.treat_dir(iname)
                return
            self.warn(f"{PROGRAM}: {self.ifname} is a directory -- ignored\n")
            return
        if not self.to_stdout:
            if not st.is_file:
                self.warn(f"{PROGRAM}: {self.ifname} is not a directory or a regular file - ignored\n")
                return
            if not self.force and st.nlink >= 2:
                others = st.nlink - 1
                self.warn(f"{PROGRAM}: {self.ifname} has {others} other link{'' if others == 1 else 's'} -- file ignored\n")
                return
        self.ifile_size = st.size if st.is_file else -1  # (a pipe's size is unknown)
        self.time_nsec = -1
        if not self.no_time or self.list:
            ns = mtime_ns_of(st)
            self.time_sec, self.time_nsec = divmod(ns, 1_000_000_000)
        self.in_mtime_ns = mtime_ns_of(st)
        if self.to_stdout and not self.test:
            self.ofname = "stdout"
        elif self.make_ofname() != OK:
            return
        self._clear()
        self.part_nb = 0
        try:
            stream = self.ctx.open_read(self.ifname)
        except FSError as e:
            self.progerror(self.ifname, e)
            return
        with stream:
            self._treat_open_file(stream)

    def _treat_open_file(self, stream) -> None:
        ctx = self.ctx
        self.inp = fmt.GzipInput(stream, ctx.budget.check_time)
        self.out_pieces = []
        self.out_size = 0
        self.emit = self._to_stdout if self.to_stdout else self._to_file
        if self.decompress:
            self.method = self.get_method()
            if self.method < 0:
                return
        if not self.to_stdout:
            if not self.create_outfile():
                return
        if not self.save_orig_name:
            self.save_orig_name = not self.no_name
        if self.verbose and not self.list:
            self.err(f"{self.ifname}:\t")
        while True:
            if not self.work():
                self.method = -1
                break
            if self.input_eof():
                break
            self.method = self.get_method()
            if self.method < 0:
                break
            self.bytes_out = 0
        if self.list:
            self.do_list(self.method)
            return
        if not self.to_stdout:
            self._write_output()
            self.copy_stat()
            if not self.keep:
                try:
                    ctx.remove(self.ifname)
                except FSError as e:
                    self.warn(f"{PROGRAM}: {self.ifname}: {e.strerror}\n")
        if self.method == -1:
            if not self.to_stdout and self.keep:  # gzip forgets its output once the input is gone
                try:
                    ctx.remove(self.ofname)
                except FSError:
                    pass
            return
        if self.verbose:
            if self.test:
                self.err(" OK")
            elif self.decompress:
                self.err(_ratio(self.bytes_out - (self.bytes_in - self.header_bytes), self.bytes_out))
            else:
                self.err(_ratio(self.bytes_in - (self.bytes_out - self.header_bytes), self.bytes_in))
            if not self.test:
                self.err(f" -- {'created' if self.keep else 'replaced with'} {self.ofname}")
            self.err("\n")

    def treat_dir(self, dirname: str) -> None:
        """Treat every entry of a directory (``-r``)."""
        try:
            names = in_directory_order(self.ctx.fs, self.ctx.path(dirname), self.ctx.listdir(dirname))
        except FSError as e:
            self.progerror(dirname, e)
            return
        for name in names:
            self.ctx.budget.check_time()
            if name in (".", ".."):
                continue
            path = dirname + name if dirname.endswith("/") else f"{dirname}/{name}"
            if len(path) < MAX_PATH_LEN - 1:
                self.treat_file(path)
            else:
                self.err(f"{PROGRAM}: {dirname}/{name}: pathname too long\n")
                self.exit_code = ERROR

    def create_outfile(self) -> bool:
        """Check the output name is free (``check_ofname``: ``-f`` removes what is there)."""
        ctx = self.ctx
        try:
            ctx.check_write(self.ofname)
        except FSError as e:
            self.progerror(self.ofname, e)
            return False
        try:
            exists = ctx.exists(self.ofname)
        except FSError:
            exists = False
        if exists:
            if not self.force:
                self.err(f"{PROGRAM}: {self.ofname} already exists;\tnot overwritten\n")
                if self.exit_code == OK:
                    self.exit_code = WARNING
                return False
            try:
                ctx.remove(self.ofname)
            except FSError as e:
                if e.errno == errno.EPERM:
                    e = FSError(errno.EISDIR, self.ofname)
                self.progerror(self.ofname, e)
                return False
        parent = self.ofname.rsplit("/", 1)[0] if "/" in self.ofname else "."
        try:
            if not ctx.stat(parent or "/").is_dir:
                raise FSError(errno.ENOTDIR, parent)
        except FSError as e:
            self.progerror(self.ofname, e)
            return False
        return True

    def _write_output(self) -> None:
        data = b"".join(self.out_pieces)
        self.out_pieces = []
        try:
            self.ctx.write_bytes(self.ofname, data)
        except FSError as e:  # gzip's write_error
            self.err(f"\n{PROGRAM}: {self.ofname}: {e.strerror}\n")
            raise _Exit(ERROR) from None

    def copy_stat(self) -> None:
        """Give the output the input's mtime (or, decompressing with -N, the stored one)."""
        ns = self.in_mtime_ns
        restoring = (self.decompress and self.time_nsec >= 0
                     and self.time_sec * 1_000_000_000 + self.time_nsec != ns)
        if restoring:
            ns = self.time_sec * 1_000_000_000 + self.time_nsec
        try:
            self.ctx.set_mtime(self.ofname, Timestamp(ns))
            if restoring and self.verbose > 1:
                self.err(f"{self.ofname}: timestamp restored\n")
        except FSError as e:
            self.warn(f"{PROGRAM}: {self.ofname}: {e.strerror}\n")

    # -- output ----------------------------------------------------------------------------------

    @property
    def bytes_in(self) -> int:
        """Compressed (or, compressing, input) bytes read so far from the current input."""
        return self.inp.bytes_in if self.inp is not None else 0

    def _clear(self) -> None:
        self.inp = None
        self.bytes_out = 0

    def _discard(self, data: bytes) -> None:
        self.bytes_out += len(data)

    def _to_stdout(self, data: bytes) -> None:
        self.bytes_out += len(data)
        if not self.test:
            self.ctx.stdout.write(data)

    def _to_file(self, data: bytes) -> None:
        self.bytes_out += len(data)
        if self.test:
            return
        budget = self.ctx.budget
        if budget.written + self.out_size + len(data) > budget.limits.written_bytes:
            self.out_pieces = []
            budget.charge_write(self.out_size + len(data))  # raises the limit's error
        self.out_pieces.append(data)
        self.out_size += len(data)

    # -- the work ----------------------------------------------------------------------------------

    def work(self) -> bool:
        """Compress the input, or decompress one member (``zip``/``unzip``/``copy``)."""
        if not self.decompress:
            return self.zip()
        if self.copy_mode:
            return self.copy()
        return self.unzip()

    def input_eof(self) -> bool:
        """True when no member follows."""
        if not self.decompress or self.last_member:
            return True
        assert self.inp is not None
        return self.inp.at_eof()

    def zip(self) -> bool:
        """Compress the whole input (gzip's ``zip``)."""
        assert self.inp is not None
        inp = self.inp
        self.method = 8
        if self.time_nsec < 0:
            stamp = 0
        elif 0 < self.time_sec <= 0xFFFFFFFF:
            stamp = self.time_sec
        else:
            self.warn(f"{PROGRAM}: {self.ifname}: warning: file timestamp out of range for gzip format\n")
            stamp = 0
        name = None
        if self.save_orig_name:
            name = self.ifname.rstrip("/").rsplit("/", 1)[-1] if "/" in self.ifname else self.ifname
            name_bytes = name.encode("utf-8", "surrogateescape")
        head = fmt.header(name_bytes if name is not None else None, stamp, self.level)
        self.emit(head)
        self.header_bytes = len(head)

        def chunks():
            while True:
                data = inp._read_full()
                if not data:
                    return
                inp.bytes_in += len(data)
                yield data

        crc, size = fmt.deflate_bytes(chunks(), self.level, self.emit, self.ctx.budget.check_time)
        if self.ifile_size != -1 and self.bytes_in != self.ifile_size:
            self.err(f"{PROGRAM}: {self.ifname}: file size changed while zipping\n")
        self.emit(fmt.trailer(crc, size))
        self.header_bytes += 8
        return True

    def copy(self) -> bool:
        """``zcat -f`` of data that is not compressed: pass it on."""
        assert self.inp is not None
        inp = self.inp
        while True:
            rest = inp.take_rest()
            if not rest:
                break
            self.emit(rest)
            data = inp._read_full()
            inp.buf = data
            inp.pos = 0
            inp.bytes_in += len(data)
            if not data:
                break
        return True

    def get_method(self) -> int:
        """Read a member header (gzip's ``get_method``): the method, or -1 error, -2
        trailing garbage, -3 trailing zeros."""
        assert self.inp is not None
        inp = self.inp
        try:
            return self._get_method(inp)
        except fmt.InputEOF:
            self.read_error()
            return -1

    def _get_method(self, inp: fmt.GzipInput) -> int:
        self.copy_mode = False
        if self.force and self.to_stdout:
            imagic0 = inp.try_byte()
            imagic1 = inp.try_byte()
            magic = bytes([imagic0 & 0xFF, imagic1 & 0xFF])
        else:
            m0 = inp.get_byte()
            imagic0 = 0
            if m0:
                m1 = inp.get_byte()
                imagic1 = 0
            else:
                imagic1 = inp.try_byte()
                m1 = imagic1 & 0xFF
            magic = bytes([m0, m1])
        self.method = -1
        self.part_nb += 1
        self.header_bytes = 0
        self.last_member = False
        if magic in (fmt.GZIP_MAGIC, fmt.OLD_GZIP_MAGIC):
            return self._gzip_header(inp)
        if (magic == fmt.PKZIP_MAGIC[:2] and inp.pos == 2 and inp.buf[:4] == fmt.PKZIP_MAGIC) \
                or magic in (fmt.PACK_MAGIC, fmt.LZW_MAGIC, fmt.LZH_MAGIC):
            self.err(f"{PROGRAM}: {self.ifname}: zip, pack, compress and lzh formats are not "
                     "supported in this sandbox; only gzip\n")
            self.exit_code = ERROR
            return -1
        if self.force and self.to_stdout and not self.list:
            self.copy_mode = True
            if imagic1 != fmt.EOF:
                inp.pos -= 1
            self.last_member = True
            if imagic0 != fmt.EOF:
                self.emit(magic[:1])
            self.method = 0
            return 0
        if self.part_nb == 1:
            self.err(f"\n{PROGRAM}: {self.ifname}: not in gzip format\n")
            self.exit_code = ERROR
            return -1
        if magic[0] == 0:
            inbyte = imagic1
            while inbyte == 0:
                inbyte = inp.try_byte()
            if inbyte == fmt.EOF:
                if self.verbose:
                    self.warn(f"\n{PROGRAM}: {self.ifname}: decompression OK, trailing zero bytes ignored\n")
                return -3
        self.warn(f"\n{PROGRAM}: {self.ifname}: decompression OK, trailing garbage ignored\n")
        return -2

    def _gzip_header(self, inp: fmt.GzipInput) -> int:
        import zlib

        method = inp.get_byte()
        if method != 8:
            self.err(f"{PROGRAM}: {self.ifname}: unknown method {method} -- not supported\n")
            self.exit_code = ERROR
            return -1
        flags = inp.get_byte()
        if flags & fmt.ENCRYPTED:
            self.err(f"{PROGRAM}: {self.ifname} is encrypted -- not supported\n")
            self.exit_code = ERROR
            return -1
        if flags & fmt.RESERVED:
            self.err(f"{PROGRAM}: {self.ifname} has flags 0x{flags:x} -- not supported\n")
            self.exit_code = ERROR
            if self.force <= 1:
                return -1
        sb = bytes(inp.get_byte() for _ in range(4))
        stamp = int.from_bytes(sb, "little")
        if stamp != 0 and not self.no_time:
            self.time_sec, self.time_nsec = stamp, 0
        xfl_os = bytes([inp.get_byte(), inp.get_byte()])
        hcrc = zlib.crc32(bytes([0x1F, 0x8B, 8, flags]) + sb + xfl_os) if flags & fmt.HEADER_CRC else 0

        def discard(count: int | None) -> None:
            nonlocal hcrc
            while True:
                if count is not None:
                    if count == 0:
                        return
                    count -= 1
                c = inp.get_byte()
                if flags & fmt.HEADER_CRC:
                    hcrc = zlib.crc32(bytes([c]), hcrc)
                if count is None and c == 0:
                    return

        if flags & fmt.EXTRA_FIELD:
            lb = bytes([inp.get_byte(), inp.get_byte()])
            length = int.from_bytes(lb, "little")
            if self.verbose:
                self.err(f"{PROGRAM}: {self.ifname}: extra field of {length} bytes ignored\n")
            if flags & fmt.HEADER_CRC:
                hcrc = zlib.crc32(lb, hcrc)
            discard(length)
        if flags & fmt.ORIG_NAME:
            if self.no_name or (self.to_stdout and not self.list) or self.part_nb > 1:
                discard(None)
            else:
                raw = bytearray()
                prefix_len = len(self.ofname) - len(self.ofname.rsplit("/", 1)[-1])
                while True:
                    c = inp.get_byte()
                    raw.append(c)
                    if c == 0:
                        break
                    if prefix_len + len(raw) >= MAX_PATH_LEN:
                        self.gzip_error("corrupted input -- file name too large")
                if flags & fmt.HEADER_CRC:
                    hcrc = zlib.crc32(bytes(raw), hcrc)
                base = bytes(raw[:-1]).decode("utf-8", "surrogateescape").rsplit("/", 1)[-1]
                self.ofname = self.ofname[:prefix_len] + base
        if flags & fmt.COMMENT:
            discard(None)
        if flags & fmt.HEADER_CRC:
            crc16 = hcrc & 0xFFFF
            header16 = inp.get_byte()
            header16 |= inp.get_byte() << 8
            if header16 != crc16:
                self.err(f"{PROGRAM}: {self.ifname}: header checksum 0x{header16:04x} != "
                         f"computed checksum 0x{crc16:04x}\n")
                self.exit_code = ERROR
                if self.force <= 1:
                    return -1
        if self.part_nb == 1:
            self.header_bytes = inp.pos + 8
        self.method = 8
        return 8

    def unzip(self) -> bool:
        """Decompress one member and check its trailer (gzip's ``unzip``)."""
        assert self.inp is not None
        inp = self.inp
        sink = fmt.WindowSink(self.emit)
        try:
            fmt.inflate_member(inp, sink, self.ctx.budget.check_time, self.slide)
        except fmt.InputEOF:
            self.read_error()
        except fmt.BadData:
            self.gzip_error("invalid compressed data--format violated")
        sink.flush()
        try:
            buf = bytes(inp.get_byte() for _ in range(8))
        except fmt.InputEOF:
            self.read_error()
            return False
        orig_crc = int.from_bytes(buf[:4], "little")
        orig_len = int.from_bytes(buf[4:], "little")
        ok = True
        if orig_crc != sink.crc:
            self.err(f"\n{PROGRAM}: {self.ifname}: invalid compressed data--crc error\n")
            ok = False
        if orig_len != sink.size & 0xFFFFFFFF:
            self.err(f"\n{PROGRAM}: {self.ifname}: invalid compressed data--length error\n")
            ok = False
        self.unzip_crc = orig_crc
        if ok:
            return True
        self.exit_code = ERROR
        if not self.test:
            self.abort()
        return False

    # -- listing ---------------------------------------------------------------------------------

    def do_list(self, method: int) -> None:
        """One ``-l`` line (or, with method < 0, the totals line)."""
        out: list[str] = []
        if self.first_time and method >= 0:
            self.first_time = False
            if self.verbose:
                out.append("method  crc     date  time  ")
            if not self.quiet:
                out.append("%*.*s %*.*s  ratio uncompressed_name\n" % (
                    OFF_WIDTH, OFF_WIDTH, "compressed", OFF_WIDTH, OFF_WIDTH, "uncompressed"))
        elif method < 0:
            if self.total_in <= 0 or self.total_out <= 0:
                return
            if self.verbose:
                out.append(" " * 28)
            if self.verbose or not self.quiet:
                out.append("%*d %*d " % (OFF_WIDTH, self.total_in, OFF_WIDTH, self.total_out))
            out.append(_ratio(self.total_out - (self.total_in - self.header_bytes), self.total_out))
            out.append(" (totals)\n")
            self.ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))
            return
        crc = 0xFFFFFFFF
        if method == 8 and not self.last_member:
            crc = self.unzip_crc
        if self.verbose:
            methods = {0: "store", 1: "compr", 2: "pack ", 3: "lzh  ", 8: "defla"}
            out.append("%5s %08x " % (methods.get(method, ""), crc))
            out.append(self._list_date())
        out.append("%*d %*d " % (OFF_WIDTH, self.bytes_in, OFF_WIDTH, self.bytes_out))
        self.total_in += self.bytes_in
        self.total_out += self.bytes_out
        out.append(_ratio(self.bytes_out - (self.bytes_in - self.header_bytes), self.bytes_out))
        out.append(f" {self.ofname}\n")
        self.ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))

    def _list_date(self) -> str:
        from datetime import datetime

        from sandbox.commands.date import resolve_zone

        zone, _ = resolve_zone(self.ctx.env.get("TZ"))
        try:
            tm = datetime.fromtimestamp(self.time_sec, zone)
        except (OverflowError, OSError, ValueError):
            return "??? ?? ??:?? "
        return "%s%3d %02d:%02d " % (_MONTHS[tm.month - 1], tm.day, tm.hour, tm.minute)


"""``file``: say what kind of data a file holds, as file 5.44 prints it, for a small set of
signatures (see ``sandbox.commands._filemagic``): empty, directory, very short files, text
(ASCII, UTF-8 with or without BOM, ISO-8859, non-ISO extended ASCII, with file's notes on
line terminators, very long lines, escapes and overstriking), JSON and newline-delimited
JSON, CSV, PNG, JPEG, PDF, gzip, zip, ``#!`` scripts (sh, bash, zsh, python, ruby, awk, perl,
node, and file's generic ``a NAME script``), HTML; anything else is ``data``.

Options: ``-b --brief``, ``-i --mime``, ``--mime-type``, ``--mime-encoding``, ``-E`` (a missing
file is an error, exit 1), ``-N --no-pad``, ``-F SEP --separator``, ``-0 --print0`` (a NUL after each name), ``-r --raw``
(names unescaped), ``-f FILE --files-from`` (``-`` for stdin; each list padded apart, before the
operands), ``-k -z -Z`` (accepted: one description per file, nothing compressed is looked into),
``-L -h`` (accepted: no symbolic links), ``-s --special-files`` (accepted:
the jail has only regular files and directories), ``-n --no-buffer`` and ``-p
--preserve-date`` (accepted: nothing to do), ``--``.
Names are padded to one column as file pads them; unprintable characters show as ``\\ooo``.
The first 1 MiB of a file is examined (file 5.44's default ``bytes`` limit is 7 MiB).

Deviations: file's other thousands of magic entries (source code, XML, SGML, mail, UTF-16,
archives other than gzip/zip, executables...) are not known: such files get the text or
``data`` description.
"""

from __future__ import annotations

from sandbox.commands import _filemagic, _wcwidth
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FIFO, FSError

SPEC = OptionSpec(
    "0bEf:F:hikLNnprsvzZ",
    {"brief": (NO_ARG, "b"), "special-files": (NO_ARG, "s"), "no-buffer": (NO_ARG, "n"),
     "preserve-date": (NO_ARG, "p"), "separator": (REQUIRED, "F"), "print0": (NO_ARG, "0"),
     "raw": (NO_ARG, "r"), "keep-going": (NO_ARG, "k"), "uncompress": (NO_ARG, "z"),
     "uncompress-noreport": (NO_ARG, "Z"), "files-from": (REQUIRED, "f"), "mime": (NO_ARG, "i"), "mime-type": (NO_ARG, "mime-type"),
     "mime-encoding": (NO_ARG, "mime-encoding"), "no-pad": (NO_ARG, "N"), "dereference": (NO_ARG, "L"),
     "no-dereference": (NO_ARG, "h"), "help": (NO_ARG, "help"), "version": (NO_ARG, "v")},
)
USAGE = """Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]
            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]
            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]
            <file> ...
       file -C [-m <magicfiles>]
       file [--help]
"""
#: ``file --help`` (file 5.44's own text).
HELP = r"""Usage: file [OPTION...] [FILE...]
Determine type of FILEs.

      --help                 display this help and exit
  -v, --version              output version information and exit
  -m, --magic-file LIST      use LIST as a colon-separated list of magic
                               number files
  -z, --uncompress           try to look inside compressed files
  -Z, --uncompress-noreport  only print the contents of compressed files
  -b, --brief                do not prepend filenames to output lines
  -c, --checking-printout    print the parsed form of the magic file, use in
                               conjunction with -m to debug a new magic file
                               before installing it
  -e, --exclude TEST         exclude TEST from the list of test to be
                               performed for file. Valid tests are:
                               apptype, ascii, cdf, compress, csv, elf,
                               encoding, soft, tar, json, text,
                               tokens
      --exclude-quiet TEST   like exclude, but ignore unknown tests
  -f, --files-from FILE      read the filenames to be examined from FILE
  -F, --separator STRING     use string as separator instead of `:'
  -i, --mime                 output MIME type strings (--mime-type and
                               --mime-encoding)
      --apple                output the Apple CREATOR/TYPE
      --extension            output a slash-separated list of extensions
      --mime-type            output the MIME type
      --mime-encoding        output the MIME encoding
  -k, --keep-going           don't stop at the first match
  -l, --list                 list magic strength
  -L, --dereference          follow symlinks (default if POSIXLY_CORRECT is set)
  -h, --no-dereference       don't follow symlinks (default if POSIXLY_CORRECT is not set) (default)
  -n, --no-buffer            do not buffer output
  -N, --no-pad               do not pad output
  -0, --print0               terminate filenames with ASCII NUL
  -p, --preserve-date        preserve access times on files
  -P, --parameter            set file engine parameter limits
                                   bytes 7340032 max bytes to look inside file
                               elf_notes     256 max ELF notes processed
                               elf_phnum    2048 max ELF prog sections processed
                               elf_shnum   32768 max ELF sections processed
                                encoding   65536 max bytes to scan for encoding
                                   indir      50 recursion limit for indirection
                                    name      50 use limit for name/use magic
                                   regex    8192 length limit for REGEX searches
  -r, --raw                  don't translate unprintable chars to \ooo
  -s, --special-files        treat special (block/char devices) files as
                             ordinary ones
  -S, --no-sandbox           disable system call sandboxing
  -C, --compile              compile file specified by -m
  -d, --debug                print debugging messages

Report bugs to https://bugs.astron.com/
"""
LIMIT = 1 << 20


def printable(name: str) -> str:
    """file's ``file_printable``: unprintable characters (and invalid bytes) as ``\\ooo``."""
    out = []
    data = name.encode("utf-8", "surrogateescape")
    i = 0
    while i < len(data):
        c = data[i]
        size = 1 if c < 0x80 else 2 if 0xC2 <= c <= 0xDF else 3 if 0xE0 <= c <= 0xEF else 4 if 0xF0 <= c <= 0xF4 else 0
        piece = data[i:i + max(size, 1)]
        try:
            ch = piece.decode("utf-8") if size else None
        except UnicodeDecodeError:
            ch = None
        if ch is not None and _wcwidth.is_printable(ord(ch)):
            out.append(ch)
            i += size
        else:
            out.append("\\%03o" % c)
            i += 1
    return "".join(out)


def _width(text: str) -> int:
    return sum(max(_wcwidth.width(ord(ch)), 0) for ch in text)


def run(ctx: CommandContext) -> int:
    """Run ``file``."""
    try:
        opts, operands = parse(SPEC, ctx.args)
    except UsageError as err:
        ctx.error(str(err))
        ctx.stderr.write(USAGE.encode())
        return 1
    keys = [k for k, _ in opts]
    if "help" in keys:
        ctx.stdout.write(HELP.encode())
        return 0
    if "v" in keys:
        ctx.stdout.write(b"file-5.44\nmagic file from /usr/share/misc/magic\n")
        return 0
    groups: list[list[str]] = []  # each -f list, then the operands: padded group by group
    for key, value in opts:
        if key == "f":
            try:
                data = ctx.stdin.read() if value == "-" else ctx.read_bytes(value or "")
            except FSError as e:
                ctx.error(f"Cannot open `{value}' ({e.strerror})")
                return 1
            names = [n for n in data.decode("utf-8", "surrogateescape").split("\n") if n]
            if names:
                groups.append(names)
    if operands:
        groups.append(operands)
    if not groups:
        if "f" in keys:
            return 0
        ctx.stderr.write(USAGE.encode())
        return 1
    mode = "describe"
    for key in keys:
        if key == "i":
            mode = "mime"
        elif key in ("mime-type", "mime-encoding"):
            mode = key
    brief, errors, pad = "b" in keys, "E" in keys, "N" not in keys
    separator = next((v for k, v in reversed(opts) if k == "F"), ":") or ""
    after_name = "\0" if "0" in keys else ""
    status = 0
    out = []
    for group in groups:
        shown = ["/dev/stdin" if o == "-" else o if "r" in keys else printable(o) for o in group]
        width = max(_width(s) for s in shown)
        for operand, name in zip(group, shown):
            ctx.budget.check_time()
            text, failed = _one(ctx, operand, name, mode, errors)
            if failed:
                status = 1
            if brief:
                out.append(text + "\n")
            else:
                fill = " " * (width - _width(name)) if pad else ""
                out.append(f"{name}{after_name}{separator}{fill} {text}\n")
    ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))
    return status


def _one(ctx: CommandContext, operand: str, name: str, mode: str, errors: bool) -> tuple[str, bool]:
    """(what to print for one operand, whether it is an error under -E)."""
    try:
        st = ctx.stat(operand) if operand != "-" else None
    except FSError as e:
        if errors:
            return f"ERROR: cannot stat `{operand}' ({e.strerror})", True  # file prints it raw here
        return f"cannot open `{name}' ({e.strerror})", False
    if st is not None and st.is_dir:
        return _render(mode, "directory", "inode/directory", "binary"), False
    if st is not None and st.kind == FIFO:  # (a process substitution's descriptor)
        return _render(mode, "fifo (named pipe)", "inode/fifo", "binary"), False
    try:
        if operand == "-":
            buf = ctx.stdin.read(LIMIT)
        else:
            with ctx.open_read(operand) as f:
                buf = f.read(LIMIT)
    except FSError as e:
        return f"cannot open `{name}' ({e.strerror})", errors
    if not buf:
        return _render(mode, "empty", "inode/x-empty", "binary"), False
    if len(buf) == 1:
        return _render(mode, "very short file (no magic)", "application/octet-stream", "binary"), False
    return _render(mode, *_filemagic.describe(buf)), False


def _render(mode: str, description: str, mime: str, charset: str) -> str:
    if mode == "mime":
        return f"{mime}; charset={charset}"
    if mode == "mime-type":
        return mime
    if mode == "mime-encoding":
        return charset
    return description

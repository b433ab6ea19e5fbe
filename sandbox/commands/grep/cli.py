"""grep's command line: the option table, ``Config`` and ``parse_args`` (GNU grep 3.8 rules)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox.commands.base import CommandContext
from sandbox.commands._textutil import ArgmatchError, argmatch
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, UsageError, parse
from sandbox.commands.grep.usage import HELP
from sandbox.fs.base import FSError


_SPEC = OptionSpec(
    short="EFGPe:f:iyvwxclLnhHoqsm:A:B:C:rRbZzaIUTVd:D:u0123456789",
    long={
        "extended-regexp": (NO_ARG, "E"),
        "fixed-strings": (NO_ARG, "F"),
        "basic-regexp": (NO_ARG, "G"),
        "perl-regexp": (NO_ARG, "P"),
        "regexp": (REQUIRED, "e"),
        "file": (REQUIRED, "f"),
        "ignore-case": (NO_ARG, "i"),
        "no-ignore-case": (NO_ARG, "no-ignore-case"),
        "invert-match": (NO_ARG, "v"),
        "word-regexp": (NO_ARG, "w"),
        "line-regexp": (NO_ARG, "x"),
        "count": (NO_ARG, "c"),
        "files-with-matches": (NO_ARG, "l"),
        "files-without-match": (NO_ARG, "L"),
        "line-number": (NO_ARG, "n"),
        "no-filename": (NO_ARG, "h"),
        "with-filename": (NO_ARG, "H"),
        "only-matching": (NO_ARG, "o"),
        "quiet": (NO_ARG, "q"),
        "silent": (NO_ARG, "q"),
        "no-messages": (NO_ARG, "s"),
        "max-count": (REQUIRED, "m"),
        "after-context": (REQUIRED, "A"),
        "before-context": (REQUIRED, "B"),
        "context": (REQUIRED, "C"),
        "group-separator": (REQUIRED, "group-separator"),
        "no-group-separator": (NO_ARG, "no-group-separator"),
        "recursive": (NO_ARG, "r"),
        "dereference-recursive": (NO_ARG, "R"),
        "include": (REQUIRED, "include"),
        "exclude": (REQUIRED, "exclude"),
        "exclude-dir": (REQUIRED, "exclude-dir"),
        "byte-offset": (NO_ARG, "b"),
        "null": (NO_ARG, "Z"),
        "null-data": (NO_ARG, "z"),
        "label": (REQUIRED, "label"),
        "initial-tab": (NO_ARG, "T"),
        "color": (OPTIONAL, "color"),
        "colour": (OPTIONAL, "color"),
        "text": (NO_ARG, "a"),
        "binary-files": (REQUIRED, "binary-files"),
        "line-buffered": (NO_ARG, "line-buffered"),
        "binary": (NO_ARG, "U"),
        "directories": (REQUIRED, "d"),
        "devices": (REQUIRED, "D"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "V"),
    },
)

_USAGE = "Usage: grep [OPTION]... PATTERNS [FILE]...\n"


class _Fatal(Exception):
    """A usage or pattern error: message already formatted, exit status ``status`` (2)."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


@dataclass
class Config:
    """The parsed command line."""

    syntax: str = "G"
    patterns: list[bytes] = field(default_factory=list)
    have_patterns: bool = False
    icase: bool = False
    invert: bool = False
    words: bool = False
    lines: bool = False
    count: bool = False
    list_files: str = ""  # "l", "L" or ""
    line_numbers: bool = False
    with_filename: bool | None = None
    only_matching: bool = False
    quiet: bool = False
    no_messages: bool = False
    max_count: int = -1
    after: int = -1
    before: int = -1
    group_separator: bytes | None = b"--"
    recursive: bool = False
    includes: list[str] = field(default_factory=list)
    excludes: list[str] = field(default_factory=list)
    exclude_dirs: list[str] = field(default_factory=list)
    byte_offset: bool = False
    null_after_name: bool = False
    null_data: bool = False
    label: str = "(standard input)"
    initial_tab: bool = False
    binary_files: str = "binary"
    directories: str = "read"
    color: bool = False  # --color=always


#: What ``-V`` prints (GNU grep 3.8's text, with PCRE2 10.42).
VERSION = """grep (GNU grep) 3.8
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Mike Haertel and others; see
<https://git.sv.gnu.org/cgit/grep.git/tree/AUTHORS>.
"""


def _context_number(value: str) -> int:
    try:
        n = int(value, 10)
        if n < 0 or not value.strip().lstrip("+").isdigit():
            raise ValueError
        return n
    except ValueError:
        raise _Fatal(f"{value}: invalid context length argument") from None


def _parse_args(ctx: CommandContext) -> tuple[Config, list[str]]:
    cfg = Config()
    try:
        opts, operands = parse(_SPEC, ctx.args)
    except UsageError as err:
        ctx.stderr.write(f"grep: {err}\n".encode("utf-8", "surrogateescape"))
        ctx.stderr.write(_USAGE.encode())
        ctx.stderr.write(b"Try 'grep --help' for more information.\n")
        raise _Fatal("") from None
    digits = ""
    matcher_set = False
    last_was_digit = False
    default_context = -1
    show_help = False
    for key, value in opts:
        if key.isdigit() and len(key) == 1:
            digits = digits + key if last_was_digit else key
            last_was_digit = True
            default_context = int(digits)
            continue
        last_was_digit = False
        if key in ("E", "F", "G", "P"):
            if matcher_set and cfg.syntax != key:
                raise _Fatal("conflicting matchers specified")
            cfg.syntax = key
            matcher_set = True
        elif key == "e":
            assert value is not None
            cfg.patterns.extend(value.encode("utf-8", "surrogateescape").split(b"\n"))
            cfg.have_patterns = True
        elif key == "f":
            assert value is not None
            if value == "-":
                data = ctx.stdin.read()  # GNU: "-f -" reads the patterns from standard input
            else:
                try:
                    data = ctx.read_bytes(value)
                except FSError as err:
                    raise _Fatal(f"{value}: {err.strerror}") from None
            if data == b"\n":
                cfg.patterns.append(b"")
            elif data:
                cfg.patterns.extend(data[:-1].split(b"\n") if data.endswith(b"\n")
                                    else data.split(b"\n"))
            cfg.have_patterns = True
        elif key in ("i", "y"):
            cfg.icase = True
        elif key == "no-ignore-case":
            cfg.icase = False
        elif key == "v":
            cfg.invert = True
        elif key == "w":
            cfg.words = True
        elif key == "x":
            cfg.lines = True
        elif key == "c":
            cfg.count = True
        elif key in ("l", "L"):
            cfg.list_files = key
        elif key == "n":
            cfg.line_numbers = True
        elif key == "h":
            cfg.with_filename = False
        elif key == "H":
            cfg.with_filename = True
        elif key == "o":
            cfg.only_matching = True
        elif key == "q":
            cfg.quiet = True
        elif key == "s":
            cfg.no_messages = True
        elif key == "m":
            assert value is not None
            try:
                cfg.max_count = int(value, 10)
            except ValueError:
                raise _Fatal("invalid max count") from None
        elif key == "A":
            cfg.after = _context_number(value or "")
        elif key == "B":
            cfg.before = _context_number(value or "")
        elif key == "C":
            default_context = _context_number(value or "")
        elif key == "group-separator":
            cfg.group_separator = (value or "").encode("utf-8", "surrogateescape")
        elif key == "no-group-separator":
            cfg.group_separator = None
        elif key in ("r", "R"):
            cfg.recursive = True
        elif key == "include":
            cfg.includes.append(value or "")
        elif key == "exclude":
            cfg.excludes.append(value or "")
        elif key == "exclude-dir":
            cfg.exclude_dirs.append(value or "")
        elif key == "b":
            cfg.byte_offset = True
        elif key == "Z":
            cfg.null_after_name = True
        elif key == "z":
            cfg.null_data = True
        elif key == "label":
            cfg.label = value or ""
        elif key == "T":
            cfg.initial_tab = True
        elif key == "color":
            # GNU compares ignoring ASCII case; auto (and a bare --color) colours a terminal
            # only, which a sandbox command's output never is. Anything else shows the help.
            word = "auto" if value is None else value.lower() if value.isascii() else value
            if word in ("always", "yes", "force"):
                cfg.color = True
            elif word in ("never", "no", "none", "auto", "tty", "if-tty"):
                cfg.color = False
            else:
                show_help = True
        elif key == "a":
            cfg.binary_files = "text"
        elif key == "I":
            cfg.binary_files = "without-match"
        elif key == "binary-files":
            if value not in ("binary", "text", "without-match"):
                raise _Fatal("unknown binary-files type")
            cfg.binary_files = value
        elif key == "d":
            try:  # GNU's XARGMATCH: a unique prefix is enough; else its list and usage, exit 1
                value = argmatch("--directories", value, ["read", "recurse", "skip"])
            except ArgmatchError as err:
                raise _Fatal(f"{err}\nUsage: grep [OPTION]... PATTERNS [FILE]...\n"
                             "Try 'grep --help' for more information.", 1) from None
            cfg.directories = value
            if value == "recurse":
                cfg.recursive = True
        elif key == "D":
            if value not in ("read", "skip"):
                raise _Fatal("unknown devices method")
        elif key in ("line-buffered", "U", "u"):
            pass
        elif key == "help":
            show_help = True
        elif key == "V":
            ctx.stdout.write(VERSION.encode())
            raise _Fatal("version")
    if show_help:
        ctx.stdout.write(HELP.encode())
        raise _Fatal("help")
    if default_context >= 0:
        if cfg.after < 0:
            cfg.after = default_context
        if cfg.before < 0:
            cfg.before = default_context
    if cfg.list_files:
        cfg.count = False  # GNU: -l / -L win over -c
    if not cfg.have_patterns:
        if not operands:
            ctx.stderr.write(_USAGE.encode())
            ctx.stderr.write(b"Try 'grep --help' for more information.\n")
            raise _Fatal("")
        cfg.patterns = operands[0].encode("utf-8", "surrogateescape").split(b"\n")
        operands = operands[1:]
    return cfg, operands



"""Reading an archive, shared by ``-t`` and ``-x``: opening it (compression detection as GNU's
``check_compressed_archive``), GNU's ``read_header`` (long names, pax records) and ``read_and``
(name operands, ``--exclude``, bad headers, lone zero blocks, names not found)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from sandbox.commands.tar.buffer import (PROGRAMS, SUFFIXES, Decompressed, Fatal, Reader,
                                         child_fatal, detect)
from sandbox.commands.tar.common import Tar
from sandbox.commands.tar.format import (BLOCK, DIRTYPE, LNKTYPE, LONGLINK, LONGNAME,
                                         PAX_GLOBAL, PAX_LOCAL, SYMTYPE, Header, checksum_ok,
                                         decode_header, parse_number, parse_pax)
from sandbox.commands.tar.names import (excluded, has_wildcards, name_match, quote,
                                        safer_name)
from sandbox.commands.tar.transform import LINK, REGFILE, SYMLINK
from sandbox.fs.base import FSError

#: Bytes of a long-name or pax header's data kept (the rest is read and dropped).
MAX_LONG_NAME = 16 << 20


@dataclass
class Member:
    """A member being read: its decoded header, the name as stored, and (once selected) the
    name GNU works with: transformed, made safe and stripped (``transform_stat_info``)."""

    header: Header
    orig_name: bytes
    #: The file name: ``--transform``, ``safer_name_suffix``, ``--strip-components``
    #: (empty when stripping leaves nothing); trailing slashes gone.
    name: bytes = b""
    #: The stored name ended in ``/`` (GNU's ``had_trailing_slash``).
    had_slash: bool = False
    #: A hard link's target, treated like ``name``; a symbolic link's, transformed only.
    link: bytes = b""
    #: The name listings show: as stored, or as transformed with ``--show-transformed-names``.
    shown: bytes = b""

    def resolve(self, tar: Tar) -> None:
        """Compute ``name`` and ``link`` as GNU's ``transform_stat_info``, with its warnings."""
        o = tar.opts
        orig = self.orig_name
        base = orig.rstrip(b"/")
        if not base:
            base = orig[:1]
        self.had_slash = len(base) < len(orig)
        xform = tar.transformer
        name = xform.apply(base, REGFILE) if xform else base
        name = safer_name(name, tar.warned, tar.warn, absolute=o.absolute)
        self.name = strip_components(name, o.strip) or b""
        h = self.header
        if h.typeflag == LNKTYPE:
            link = xform.apply(h.linkname, LINK) if xform else h.linkname
            link = safer_name(link, tar.warned, tar.warn, link_target=True, absolute=o.absolute)
            self.link = strip_components(link, o.strip) or b""
        elif h.typeflag == SYMTYPE:
            self.link = xform.apply(h.linkname, SYMLINK) if xform else h.linkname
        else:
            self.link = h.linkname
        self.shown = orig
        if o.show_transformed:
            self.shown = self.name + (b"/" if self.had_slash else b"")

    @property
    def data_size(self) -> int:
        """Bytes of data after the header (GNU's ``skip_member``: none for directories and
        hard links)."""
        if self.header.typeflag in (DIRTYPE, LNKTYPE):
            return 0
        return self.header.size


class _Prefixed:
    """A stream that gives ``head`` first, then the rest of ``inner`` (stdin after the magic
    check)."""

    def __init__(self, head: bytes, inner: object):
        self.head = head
        self.inner = inner

    def read(self, n: int = -1) -> bytes:
        """Up to ``n`` bytes."""
        if self.head:
            if n < 0:
                out, self.head = self.head + self.inner.read(), b""  # type: ignore[attr-defined]
                return out
            out, self.head = self.head[:n], self.head[n:]
            return out
        return self.inner.read(n)  # type: ignore[attr-defined]


def _read_head(stream: object) -> bytes:
    parts: list[bytes] = []
    got = 0
    while got < BLOCK:
        data = stream.read(BLOCK - got)  # type: ignore[attr-defined]
        if not data:
            break
        parts.append(data)
        got += len(data)
    return b"".join(parts)


def _filtered(source: object, kind: str, tar: Tar) -> Reader:
    """A reader of the archive through the filter ``kind`` (a pipe for GNU: never seeks)."""
    budget = tar.ctx.budget
    return Reader(Decompressed(source, kind, budget), False, budget)  # type: ignore[arg-type]


def open_archive(tar: Tar) -> Reader:
    """The archive for reading; ``Fatal`` when it cannot be opened or is compressed on stdin
    without the option GNU asks for."""
    o = tar.opts
    ctx = tar.ctx
    named = o.archive != "-"
    if named:
        shown = quote(o.archive, True)
        try:
            st = ctx.stat(o.archive)
            if st.is_dir:
                lines = (f"{shown}: Cannot read: Is a directory",
                         "At beginning of tape, quitting now")
                if o.compress is not None:
                    raise child_fatal(o.compress, *lines, filter_ran=True)
                raise Fatal(*lines)
            stream = ctx.open_read(o.archive)
        except FSError as err:
            line = f"{shown}: Cannot open: {err.strerror}"
            if o.compress is not None:
                raise child_fatal(o.compress, line) from None
            raise Fatal(line) from None
    else:
        stream = ctx.stdin
    if o.compress is not None:
        return Reader(Decompressed(stream, o.compress, ctx.budget), False, ctx.budget)
    head = _read_head(stream)
    seekable = False
    if named:
        try:
            stream.seek(0)
            source: object = stream
            seekable = True
        except (OSError, AttributeError, ValueError):
            source = _Prefixed(head, stream)
    else:
        source = _Prefixed(head, stream)
    is_tar = len(head) == BLOCK and checksum_ok(head)
    kind = None if is_tar else detect(head)
    if kind is None and named and not is_tar:
        kind = next((k for suffix, k in SUFFIXES.items() if o.archive.endswith(suffix)), None)
        if kind is not None:  # GNU's set_compression_program_by_suffix
            return _filtered(source, kind, tar)
    if kind is not None:
        if not named:
            raise Fatal(f"Archive is compressed. Use {PROGRAMS[kind]} option")
        return _filtered(source, kind, tar)
    if len(head) < BLOCK:
        tar.error("This does not look like a tar archive")
    return Reader(source, seekable, ctx.budget)  # type: ignore[arg-type]


def strip_components(name: bytes, count: int) -> bytes | None:
    """GNU ``stripped_prefix_len``: ``name`` without its first ``count`` components, or None
    when it has no more than that."""
    if count == 0:
        return name
    parts = name.split(b"/")
    seen = 0
    for i, part in enumerate(parts):
        if part:
            seen += 1
            if seen == count:
                rest = b"/".join(parts[i + 1 :]).lstrip(b"/")
                return rest or None
    return None


def field_text(field: bytes) -> str:
    """A numeric field GNU could not read, as its message quotes it (trailing NULs gone)."""
    return f"‘{quote(field.rstrip(bytes(1)))}’"


def read_header(tar: Tar, reader: Reader) -> tuple[str, Member | None]:
    """GNU ``read_header``: ("ok", member), ("zero", None), ("eof", None), ("bad", None)."""
    long_name: bytes | None = None
    long_link: bytes | None = None
    pax: dict[bytes, bytes] = {}
    while True:
        block = reader.block()
        if block is None:
            return "eof", None
        ok = checksum_ok(block)
        if ok is None:
            return "zero", None
        if not ok:
            return "bad", None
        typeflag = block[156:157]
        size = 0
        if typeflag != LNKTYPE:
            size = parse_number(block[124:136])
            if size is None:
                tar.error(f"Archive contains {field_text(block[124:136])} where numeric off_t "
                          "value expected")
                return "bad", None
            if size < 0:
                return "bad", None
        if typeflag in (LONGNAME, LONGLINK, PAX_LOCAL, PAX_GLOBAL, b"X"):
            reader.advance()
            data = _read_extension(tar, reader, size)
            if typeflag == LONGNAME:
                long_name = data.split(b"\0", 1)[0]
            elif typeflag == LONGLINK:
                long_link = data.split(b"\0", 1)[0]
            elif typeflag in (PAX_LOCAL, b"X"):
                pax.update(parse_pax(data))
            continue
        for start, end, kind in ((100, 108, "mode_t"), (108, 116, "uid_t"), (116, 124, "gid_t"),
                                 (136, 148, "time_t")):
            if parse_number(block[start:end]) is None:
                tar.error(f"Archive contains {field_text(block[start:end])} where numeric "
                          f"{kind} value expected")
        h = decode_header(block)
        if long_name is not None:
            h.name = long_name
        if long_link is not None:
            h.linkname = long_link
        _apply_pax(h, pax)
        return "ok", Member(h, h.name)


def _read_extension(tar: Tar, reader: Reader, size: int) -> bytes:
    """The data of a long-name or pax header (past ``MAX_LONG_NAME`` bytes it is read and
    dropped, so a hostile size costs time, not memory)."""
    parts: list[bytes] = []
    kept = 0
    left = size + (-size % BLOCK)
    while left > 0:
        chunk = reader.chunk(left)
        if chunk is None:
            tar.error("Unexpected EOF in archive")
            break
        if kept < MAX_LONG_NAME:
            parts.append(chunk)
            kept += len(chunk)
        left -= len(chunk)
    return b"".join(parts)[:size]


def _apply_pax(h: Header, pax: dict[bytes, bytes]) -> None:
    def number(key: bytes) -> int | None:
        """A numeric pax record (None when absent or malformed)."""
        try:
            return int(float(pax[key].decode("ascii")))
        except (KeyError, ValueError, UnicodeDecodeError):
            return None

    if b"path" in pax:
        h.name = pax[b"path"]
    if b"linkpath" in pax:
        h.linkname = pax[b"linkpath"]
    for key, attr in ((b"size", "size"), (b"mtime", "mtime"), (b"uid", "uid"), (b"gid", "gid")):
        value = number(key)
        if value is not None:
            setattr(h, attr, value)
    if b"uname" in pax:
        h.uname = pax[b"uname"]
    if b"gname" in pax:
        h.gname = pax[b"gname"]


class NameList:
    """Member operands of ``-t``/``-x`` and which of them matched (GNU ``name_match``)."""

    def __init__(self, tar: Tar):
        self.tar = tar
        self.names = [(op.name.rstrip("/") or op.name, op.wildcards, op.recursion)
                      for op in tar.opts.operands]
        self.found = [False] * len(self.names)

    def match(self, name: bytes) -> bool:
        """True if no operands were given or one matches ``name`` (the first such is marked
        found)."""
        if not self.names:
            return True
        text = name.decode("utf-8", "surrogateescape").rstrip("/") or "/"
        for i, (pattern, wild, recursion) in enumerate(self.names):
            if name_match(pattern, text, wild, recursion):
                self.found[i] = True  # only the first operand that matches counts, as GNU's
                return True
        return False

    def report(self) -> None:
        """``names_notfound``: the wildcard hint and "Not found in archive" for each miss."""
        for (pattern, wild, _), found in zip(self.names, self.found):
            if found or not pattern:
                continue
            if not wild and has_wildcards(pattern):
                self.tar.warn("Pattern matching characters used in file names")
                self.tar.warn("Use --wildcards to enable pattern matching, or --no-wildcards to "
                              "suppress this warning")
            self.tar.error(f"{quote(pattern, True)}: Not found in archive")


def read_and(tar: Tar, reader: Reader, action: Callable[[Member], None]) -> None:
    """GNU ``read_and``: call ``action`` for every selected member, skip the others."""
    names = NameList(tar)
    status = "unread"
    while True:
        prev = status
        status, member = read_header(tar, reader)
        if status == "ok":
            assert member is not None
            text = member.orig_name.decode("utf-8", "surrogateescape")
            if not names.match(member.orig_name) or excluded(tar.opts.excludes, text):
                reader.advance()
                reader.skip(member.data_size)
                continue
            member.resolve(tar)
            action(member)
            continue
        if status == "zero":
            reader.advance()
            status2, _ = read_header(tar, reader)
            if status2 != "zero":
                tar.warn(f"A lone zero block at {reader.ordinal()}")
            break
        if status == "eof":
            break
        reader.advance()
        if prev == "unread":
            tar.error("This does not look like a tar archive")
        if prev in ("unread", "zero", "ok"):
            tar.error("Skipping to next header")
        status = "bad"
    names.report()

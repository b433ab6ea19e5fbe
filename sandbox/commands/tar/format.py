"""The GNU tar header (``--format=gnu``, tar 1.34's default): building and decoding 512-byte
blocks, numeric fields (octal, base-256 past the octal range), checksums and mode strings."""

from __future__ import annotations

from dataclasses import dataclass

BLOCK = 512
#: GNU's default blocking factor 20: every archive is a whole number of 10240-byte records.
RECORD = 20 * BLOCK

REGTYPE, AREGTYPE, LNKTYPE, SYMTYPE = b"0", b"\0", b"1", b"2"
CHRTYPE, BLKTYPE, DIRTYPE, FIFOTYPE, CONTTYPE = b"3", b"4", b"5", b"6", b"7"
LONGNAME, LONGLINK, PAX_LOCAL, PAX_GLOBAL = b"L", b"K", b"x", b"g"
#: GNU's magic and version: ``"ustar  \0"``.
GNU_MAGIC = b"ustar  \0"
LONGLINK_NAME = b"././@LongLink"
ZERO_BLOCK = bytes(BLOCK)


def _base256(value: int, width: int) -> bytes:
    """GNU's base-256 encoding (first byte 0x80 or 0xff), two's complement for negatives."""
    raw = (value % (1 << (8 * width))).to_bytes(width, "big")
    return bytes([raw[0] | 0x80 if value >= 0 else raw[0]]) + raw[1:]


def number_field(value: int, width: int) -> bytes:
    """A numeric field as GNU writes it: ``width - 1`` octal digits and a NUL, or base-256
    when the value does not fit (negative times, huge sizes)."""
    if 0 <= value < 8 ** (width - 1):
        return b"%0*o\0" % (width - 1, value)
    return _base256(value, width)


def parse_number(field: bytes) -> int | None:
    """GNU ``from_header``: leading blanks, octal digits up to a blank or NUL, or base-256;
    None when the field holds anything else."""
    if field and field[0] in (0x80, 0xFF):
        value = int.from_bytes(field[1:], "big")
        if field[0] == 0xFF:
            value -= 1 << (8 * (len(field) - 1))
        return value
    i = 0
    while i < len(field) and field[i] in b" \t\n\v\f\r":
        i += 1
    j = i
    while j < len(field) and 0x30 <= field[j] <= 0x37:
        j += 1
    if j == i or (j < len(field) and field[j] not in (0, 0x20)):
        return None
    return int(field[i:j], 8)


def _cstring(field: bytes) -> bytes:
    return field.split(b"\0", 1)[0]


def checksum_ok(block: bytes) -> bool | None:
    """None for a block of zeros (end of archive), else whether the checksum matches (the
    unsigned or the signed sum, as GNU accepts either)."""
    unsigned = sum(block)
    if unsigned == 0:
        return None
    signed = sum(b - 256 if b > 127 else b for b in block)
    field = block[148:156]
    unsigned += 8 * 32 - sum(field)
    signed += 8 * 32 - sum(b - 256 if b > 127 else b for b in field)
    recorded = parse_number(field)
    return recorded is not None and recorded in (unsigned, signed)


def build_header(name: bytes, mode: int, uid: int, gid: int, size: int, mtime: int,
                 typeflag: bytes, uname: bytes, gname: bytes, linkname: bytes = b"") -> bytes:
    """One 512-byte header block (``name`` already at most 100 bytes)."""
    head = bytearray(BLOCK)
    head[0:len(name[:100])] = name[:100]
    head[100:108] = number_field(mode, 8)
    head[108:116] = number_field(uid, 8)
    head[116:124] = number_field(gid, 8)
    head[124:136] = number_field(size, 12)
    head[136:148] = number_field(mtime, 12)
    head[148:156] = b" " * 8
    head[156:157] = typeflag
    head[157:157 + len(linkname[:100])] = linkname[:100]
    head[257:265] = GNU_MAGIC
    head[265:265 + len(uname[:31])] = uname[:31]
    head[297:297 + len(gname[:31])] = gname[:31]
    head[148:156] = b"%06o\0 " % sum(head)
    return bytes(head)


def long_name_blocks(name: bytes, typeflag: bytes = LONGNAME) -> bytes:
    """The ``././@LongLink`` header and data blocks GNU writes before a member whose name
    (or, with ``K``, link target) is longer than 100 bytes."""
    data = name + b"\0"
    head = build_header(LONGLINK_NAME, 0o644, 0, 0, len(data), 0, typeflag, b"root", b"root")
    return head + padded(data)


def padded(data: bytes) -> bytes:
    """``data`` with NULs up to a whole number of blocks."""
    rest = len(data) % BLOCK
    return data + bytes(BLOCK - rest) if rest else data


def member_blocks(name: bytes, mode: int, uid: int, gid: int, size: int, mtime: int,
                  typeflag: bytes, uname: bytes, gname: bytes, linkname: bytes = b"") -> bytes:
    """Header blocks of one member: a LongLink pair first when the name exceeds 100 bytes."""
    prefix = long_name_blocks(name) if len(name) > 100 else b""
    return prefix + build_header(name, mode, uid, gid, size, mtime, typeflag, uname, gname,
                                 linkname)


@dataclass
class Header:
    """A decoded member header (long names and pax records already applied)."""

    name: bytes
    mode: int
    uid: int
    gid: int
    size: int
    mtime: int
    typeflag: bytes
    linkname: bytes
    uname: bytes
    gname: bytes
    devmajor: int
    devminor: int


def decode_header(block: bytes) -> Header:
    """The fields of a header block whose checksum is valid (names before extensions)."""
    ustar = block[257:262] == b"ustar"
    name = _cstring(block[0:100])
    if ustar and block[257:263] == b"ustar\0" and block[345]:
        name = _cstring(block[345:500]) + b"/" + name  # POSIX ustar prefix field
    return Header(
        name=name,
        mode=(parse_number(block[100:108]) or 0) & 0o7777,
        uid=parse_number(block[108:116]) or 0,
        gid=parse_number(block[116:124]) or 0,
        size=max(0, parse_number(block[124:136]) or 0),
        mtime=parse_number(block[136:148]) or 0,
        typeflag=block[156:157],
        linkname=_cstring(block[157:257]),
        uname=_cstring(block[265:297]) if ustar else b"",
        gname=_cstring(block[297:329]) if ustar else b"",
        devmajor=(parse_number(block[329:337]) or 0) if ustar else 0,
        devminor=(parse_number(block[337:345]) or 0) if ustar else 0,
    )


def parse_pax(data: bytes) -> dict[bytes, bytes]:
    """Records ``"LEN key=value\\n"`` of a pax extended header (malformed ones end it)."""
    records: dict[bytes, bytes] = {}
    pos = 0
    while pos < len(data):
        space = data.find(b" ", pos)
        if space < 0 or not data[pos:space].isdigit():
            break
        length = int(data[pos:space])
        if length <= 0 or pos + length > len(data):
            break
        key, _, value = data[space + 1 : pos + length - 1].partition(b"=")
        records[key] = value
        pos += length
    return records


def mode_string(typeflag: bytes, mode: int, name: bytes) -> str:
    """``ls``-style mode letters as ``tar -tv`` prints them (GNU ``pax_decode_mode``)."""
    kinds = {LNKTYPE: "h", SYMTYPE: "l", CHRTYPE: "c", BLKTYPE: "b", DIRTYPE: "d",
             FIFOTYPE: "p", CONTTYPE: "C", b"D": "d", b"V": "V", b"M": "M",
             LONGNAME: "L", LONGLINK: "L"}
    kind = kinds.get(typeflag, "?")
    if typeflag in (REGTYPE, AREGTYPE, b"S"):
        kind = "d" if name.endswith(b"/") else "-"
    chars = []
    for shift, special, set_char in ((6, 0o4000, "s"), (3, 0o2000, "s"), (0, 0o1000, "t")):
        bits = (mode >> shift) & 7
        chars.append("r" if bits & 4 else "-")
        chars.append("w" if bits & 2 else "-")
        x = bits & 1
        if mode & special:
            chars.append(set_char if x else set_char.upper())
        else:
            chars.append("x" if x else "-")
    return kind + "".join(chars)

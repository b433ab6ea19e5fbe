"""The legacy checksums of ``cksum`` and ``sum`` (GNU coreutils 9.1): POSIX CRC-32 (``cksum``),
the BSD rotating checksum (``sum -r``, ``cksum -a bsd``) and the System V sum (``sum -s``,
``cksum -a sysv``). Each takes a stream and returns (checksum, byte count).

The CRC runs at C speed: the POSIX CRC is the bit-mirror of zlib's reflected CRC-32 over
bit-reversed bytes, so each block is translated with a 256-byte table and fed to
``zlib.crc32``. The BSD checksum is sequential by nature (a Python loop: slow on large files,
bounded by the run's time limit).
"""

from __future__ import annotations

import zlib
from typing import BinaryIO

from sandbox.commands.base import CommandContext
from sandbox.fs.base import FSError

BLOCK = 1 << 20
_REV = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _blocks(ctx: CommandContext, stream: BinaryIO, count: list[int]):
    """The stream's blocks; ``count[0]`` accumulates their length."""
    while True:
        block = stream.read(BLOCK)
        if not block:
            return
        count[0] += len(block)
        yield block
        ctx.budget.check_time()


def _rev32(x: int) -> int:
    return int(f"{x:032b}"[::-1], 2)


def crc_posix(ctx: CommandContext, stream: BinaryIO) -> tuple[int, int]:
    """POSIX ``cksum`` CRC of the stream (length bytes appended), and its length."""
    z = 0xFFFFFFFF
    count = [0]
    try:
        for block in _blocks(ctx, stream, count):
            z = zlib.crc32(block.translate(_REV), z)
    except FSError:  # GNU's cksum takes a failed fread for the end (``cksum < dir``)
        pass
    total = n = count[0]
    tail = bytearray()
    while n:
        tail.append(n & 0xFF)
        n >>= 8
    z = zlib.crc32(bytes(tail).translate(_REV), z)
    raw = ~z & 0xFFFFFFFF
    return ~_rev32(raw) & 0xFFFFFFFF, total


def bsd_sum(ctx: CommandContext, stream: BinaryIO) -> tuple[int, int]:
    """The BSD 16-bit rotating checksum, and the byte count."""
    checksum = 0
    count = [0]
    for block in _blocks(ctx, stream, count):
        for c in block:
            checksum = ((checksum >> 1) + ((checksum & 1) << 15) + c) & 0xFFFF
    return checksum, count[0]


def sysv_sum(ctx: CommandContext, stream: BinaryIO) -> tuple[int, int]:
    """The System V checksum, and the byte count."""
    s = 0
    count = [0]
    for block in _blocks(ctx, stream, count):
        s += sum(block)
    r = (s & 0xFFFF) + ((s & 0xFFFFFFFF) >> 16)
    return (r & 0xFFFF) + (r >> 16), count[0]


def bsd_line(checksum: int, total: int) -> str:
    """``sum -r``'s text: checksum and 1 KiB blocks (rounded up)."""
    return "%05d %5d" % (checksum, -(-total // 1024))


def sysv_line(checksum: int, total: int) -> str:
    """``sum -s``'s text: checksum and 512-byte blocks (rounded up)."""
    return "%d %d" % (checksum, -(-total // 512))

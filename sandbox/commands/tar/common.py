"""State shared by tar's modes: the command context, the options, messages (GNU's ``WARN``,
``ERROR`` and the exit status they leave), the verbose listing stream, the ``--transform``
expressions and the ``--totals`` counts."""

from __future__ import annotations

from sandbox.commands.base import CommandContext
from sandbox.commands.date import DateError, Moment, resolve_zone, strftime
from sandbox.commands.tar.cli import Options
from sandbox.commands.tar.format import (BLKTYPE, CHRTYPE, LNKTYPE, SYMTYPE, Header,
                                         mode_string)
from sandbox.commands.tar.names import quote
from sandbox.commands.tar.totals import Totals
from sandbox.commands.tar.transform import Transformer


class Tar:
    """One run of tar."""

    def __init__(self, ctx: CommandContext, opts: Options):
        self.ctx = ctx
        self.opts = opts
        self.failed = False
        self.warned: set[bytes] = set()
        self.zone = resolve_zone(ctx.env.get("TZ"))
        #: GNU's ``ugswidth`` and ``datewidth``: they only grow during a run.
        self.ugswidth = 18
        self.datewidth = 16
        archive_is_stdout = opts.mode in ("c", "delete") and opts.archive == "-"
        self.listing = ctx.stderr if (opts.to_stdout or archive_is_stdout) else ctx.stdout
        #: ``--transform`` (raises ``CliError`` for a bad expression, as GNU's option parser).
        self.transformer = Transformer(opts.transforms, ctx.budget)
        self.totals = Totals()
        #: Bytes the run read and wrote, as ``--totals`` counts them.
        self.bytes_read = 0
        self.bytes_written = 0
        self.bytes_deleted = 0
        #: ``-d``: a difference was found (exit status 1 unless an error makes it 2).
        self.differs = False

    def warn(self, message: str) -> None:
        """``tar: message`` on stderr (no change to the exit status)."""
        self.ctx.error(message)

    def error(self, message: str) -> None:
        """``tar: message`` on stderr; the run will end with status 2."""
        self.ctx.error(message)
        self.failed = True

    def list_line(self, text: str) -> None:
        """One line of the verbose listing."""
        self.listing.write(text.encode("utf-8", "surrogateescape") + b"\n")

    def time_stamp(self, mtime: int) -> str:
        """``tartime``: ``YYYY-MM-DD HH:MM`` in the run's zone, the number when out of range."""
        try:
            return strftime("%Y-%m-%d %H:%M", Moment(mtime, 0, *self.zone))
        except (DateError, OverflowError, ValueError):
            return str(mtime)

    def full_time(self, mtime: int) -> str:
        """``tartime`` with full precision: ``YYYY-MM-DD HH:MM:SS``."""
        try:
            return strftime("%Y-%m-%d %H:%M:%S", Moment(mtime, 0, *self.zone))
        except (DateError, OverflowError, ValueError):
            return str(mtime)

    def print_header(self, h: Header, name: bytes, long: bool, link: bytes | None = None) -> None:
        """GNU ``simple_print_header``: the name alone, or the ``-v`` long line (``link``: the
        link target as transformed, when it differs from the header's)."""
        if not long:
            self.list_line(quote(name))
            return
        modes = mode_string(h.typeflag, h.mode, name)
        stamp = self.full_time(h.mtime) if self.opts.full_time else self.time_stamp(h.mtime)
        self.datewidth = max(self.datewidth, len(stamp))
        numeric = self.opts.numeric_owner
        user, group = str(h.uid), str(h.gid)
        if h.uname and not numeric:
            user = h.uname.decode("utf-8", "surrogateescape")
        if h.gname and not numeric:
            group = h.gname.decode("utf-8", "surrogateescape")
        size = f"{h.devmajor},{h.devminor}" if h.typeflag in (CHRTYPE, BLKTYPE) else str(h.size)
        pad = len(user) + 1 + len(group) + len(size)
        self.ugswidth = max(self.ugswidth, pad)
        line = (f"{modes} {user}/{group} {size:>{self.ugswidth - pad + len(size)}} "
                f"{stamp:<{self.datewidth}} {quote(name)}")
        target = h.linkname if link is None else link
        if h.typeflag == SYMTYPE:
            line += " -> " + quote(target)
        elif h.typeflag == LNKTYPE:
            line += " link to " + quote(target)
        elif h.typeflag not in (b"0", b"\0", b"3", b"4", b"5", b"6", b"7", b"S", b"D"):
            line += f" unknown file type ‘{h.typeflag.decode('latin-1')}’"
        self.list_line(line)

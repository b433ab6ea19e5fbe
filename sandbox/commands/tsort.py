"""``tsort``: topological sort of the pairs in FILE (GNU coreutils 9.1).

GNU's algorithm step by step (Knuth's T1-T8): items are visited in byte order (GNU's tree
walk), zero-count items are queued in that order, successors are kept newest first, and each
loop is reported as ``tsort: FILE: input contains a loop:`` followed by its members, one
relation of it removed, exit 1. Tokens are separated by spaces, tabs and newlines; an odd
count is GNU's ``input contains an odd number of tokens``.
"""

from __future__ import annotations

import errno
import re

from sandbox.commands._quoting import quote, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(short="", long={"help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

HELP = """Usage: tsort [OPTION] [FILE]
Write totally ordered list consistent with the partial ordering in FILE.

With no FILE, or when FILE is -, read standard input.

      --help        display this help and exit
      --version     output version information and exit

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/tsort>
or available locally via: info '(coreutils) tsort invocation'
"""

VERSION = "tsort (GNU coreutils) 9.1"
_TOKENS = re.compile(rb"[^ \t\n]+")


class Item:
    """A node: its name, in-count, successors (oldest first), queue link, printed flag."""

    __slots__ = ("name", "count", "succ", "qlink", "printed")

    def __init__(self, name: bytes):
        self.name = name
        self.count = 0
        self.succ: list[Item] = []
        self.qlink: Item | None = None
        self.printed = False


class _Sorter:
    """GNU tsort's state: the items in walk order and the loop being traced."""

    def __init__(self, ctx: CommandContext, items: list[Item], name: str):
        self.ctx = ctx
        self.items = items
        self.name = name
        self.loop: Item | None = None

    def run(self) -> bool:
        """Print the order; False if the input held a loop."""
        ok = True
        left = len(self.items)
        out: list[bytes] = []
        while left > 0:
            queue = [k for k in self.items if k.count == 0 and not k.printed]
            at = 0
            while at < len(queue):
                head = queue[at]
                at += 1
                out.append(head.name + b"\n")
                head.printed = True
                left -= 1
                for suc in reversed(head.succ):
                    suc.count -= 1
                    if suc.count == 0:
                        queue.append(suc)
                if len(out) >= 4096:
                    self.ctx.stdout.write(b"".join(out))
                    out.clear()
                    self.ctx.budget.check_time()
            if left > 0:
                self.ctx.stdout.write(b"".join(out))
                out.clear()
                self.ctx.error(f"{quotef(self.name)}: input contains a loop:")
                ok = False
                while True:
                    self._walk_detect()
                    if self.loop is None:
                        break
                    self.ctx.budget.check_time()
        self.ctx.stdout.write(b"".join(out))
        return ok

    def _walk_detect(self) -> None:
        for k in self.items:
            if self._detect(k):
                return

    def _detect(self, k: Item) -> bool:
        """GNU ``detect_loop`` on one item; True once a loop has been printed and broken."""
        if k.count <= 0:
            return False
        if self.loop is None:
            self.loop = k
            return False
        for index in range(len(k.succ) - 1, -1, -1):
            suc = k.succ[index]
            if suc is not self.loop:
                continue
            if k.qlink is not None:
                loop = self.loop
                while loop is not None:
                    nxt = loop.qlink
                    self.ctx.error(loop.name.decode("utf-8", "surrogateescape"))
                    if loop is k:
                        suc.count -= 1
                        del k.succ[index]
                        break
                    loop.qlink = None
                    loop = nxt
                while loop is not None:
                    nxt = loop.qlink
                    loop.qlink = None
                    loop = nxt
                self.loop = None
                return True
            k.qlink = self.loop
            self.loop = k
            break
        return False


def run(ctx: CommandContext) -> int:
    """Sort the pairs of the input topologically."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    _, operands = parsed
    if len(operands) > 1:
        return ctx.usage_error(f"extra operand {quote(operands[1])}")
    name = operands[0] if operands else "-"
    try:
        stream = ctx.stdin if name == "-" else ctx.open_read(name)
    except FSError as err:
        if err.errno != errno.EISDIR:  # GNU opens a directory; its reads fail (below)
            ctx.error(f"{quotef(name)}: {err}")
            return 1
        stream = None
    try:
        data = stream.read() if stream is not None else b""
    except FSError:  # GNU's readtoken takes a failed read for the end (``tsort < dir``)
        data = b""
    finally:
        if stream is not None and stream is not ctx.stdin:
            stream.close()
    tokens = _TOKENS.findall(data)
    table: dict[bytes, Item] = {}

    def item(token: bytes) -> Item:
        key = token.split(b"\0", 1)[0]  # GNU compares C strings
        found = table.get(key)
        if found is None:
            found = table[key] = Item(token)
        return found

    pending: Item | None = None
    for token in tokens:
        k = item(token)
        if pending is None:
            pending = k
            continue
        if pending is not k:
            k.count += 1
            pending.succ.append(k)  # GNU prepends: walked newest first below
        pending = None
    if len(tokens) % 2:
        ctx.error(f"{quotef(name)}: input contains an odd number of tokens")
        return 1
    items = [table[key] for key in sorted(table)]
    return 0 if _Sorter(ctx, items, name).run() else 1

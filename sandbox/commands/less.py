"""``less`` (less 590) as it behaves when stdout is not a terminal: it copies its input.

Options are scanned as less's ``scan_option`` does (the ``LESS`` environment variable first,
then the command-line words up to the first non-option or ``--``): letters cluster, a string or
number option takes the rest of its word or the next word, ``--name[=value]`` accepts any
unambiguous prefix (upper-case for the upper-case form of a two-way option), ``-NUM`` is
``-zNUM``, ``+cmd`` is taken and ignored. Their messages (``There is no bogus option ("less
--help" for help)``, ``Number is required after -b``, ``Value is required after -b
(--buffers)``...) go to stderr; ``-V`` prints the version, ``-?``/``--help`` put the help text
first. None of the paging options has an effect on a copy; ``-o``/``-O`` never write a log
file (less only logs to a terminal).

Each file is then copied once (names of the same file count once, as less's ifile list does);
messages about files go to stdout: ``nope: No such file or directory``, ``d is a directory``,
``NAME is not a regular file (use -f to see it)``. A file with more than five binary
characters in its first 256 bytes gets less's question ``"NAME" may be a binary file.  See it
anyway? `` answered by one byte of stdin (``y``/``Y`` shows it; end of input exits 1). Known
differences: ``-D`` colour strings and ``-k``/``--lesskey-src`` files are not validated the way
less does (a lesskey file is always refused).
"""

from __future__ import annotations

import base64
import zlib

from sandbox.commands._records import copy_stream
from sandbox.commands.base import CommandContext
from sandbox.fs.base import FSError

BOOL, TRIPLE, NUMBER, STRING, NOVAR = 1, 2, 4, 8, 16
#: The letter less gives its long-only options (``OLETTER_NONE``).
NONE = "\x01"

#: less 590's option table: (letter, long name, type, valid characters of a string value).
OPTIONS: list[tuple[str, str, int, str | None]] = [
    ("a", "search-skip-screen", TRIPLE, None), ("b", "buffers", NUMBER, None),
    ("B", "auto-buffers", BOOL, None), ("c", "clear-screen", TRIPLE, None),
    ("d", "dumb", BOOL, None), ("D", "color", STRING, None),
    ("e", "quit-at-eof", TRIPLE, None), ("f", "force", BOOL, None),
    ("F", "quit-if-one-screen", BOOL, None), ("g", "hilite-search", TRIPLE, None),
    ("h", "max-back-scroll", NUMBER, None), ("i", "ignore-case", TRIPLE, None),
    ("j", "jump-target", STRING, "0123456789.-"), ("J", "status-column", BOOL, None),
    ("k", "lesskey-file", STRING, None), (NONE, "lesskey-src", STRING, None),
    ("K", "quit-on-intr", BOOL, None), ("L", "no-lessopen", BOOL, None),
    ("m", "long-prompt", TRIPLE, None), ("n", "line-numbers", TRIPLE, None),
    ("o", "log-file", STRING, None), ("O", "LOG-FILE", STRING, None),
    ("p", "pattern", STRING, None), ("P", "prompt", STRING, None),
    ("q", "quiet", TRIPLE, None), ("r", "raw-control-chars", TRIPLE, None),
    ("s", "squeeze-blank-lines", BOOL, None), ("S", "chop-long-lines", BOOL, None),
    ("t", "tag", STRING, None), ("T", "tag-file", STRING, None),
    ("u", "underline-special", TRIPLE, None), ("V", "version", NOVAR, None),
    ("w", "hilite-unread", TRIPLE, None), ("x", "tabs", STRING, "0123456789,"),
    ("X", "no-init", BOOL, None), ("y", "max-forw-scroll", NUMBER, None),
    ("z", "window", NUMBER, None), ('"', "quotes", STRING, None),
    ("~", "tilde", BOOL, None), ("?", "help", NOVAR, None),
    ("#", "shift", STRING, "0123456789."), (NONE, "no-keypad", BOOL, None),
    (NONE, "old-bot", BOOL, None), (NONE, "follow-name", BOOL, None),
    (NONE, "use-backslash", BOOL, None), (NONE, "rscroll", STRING, None),
    (NONE, "no-histdups", BOOL, None), (NONE, "mouse", TRIPLE, None),
    (NONE, "wheel-lines", NUMBER, None), (NONE, "save-marks", BOOL, None),
    (NONE, "line-num-width", NUMBER, None), (NONE, "status-col-width", NUMBER, None),
    (NONE, "incsearch", BOOL, None), (NONE, "use-color", BOOL, None),
    (NONE, "file-size", BOOL, None),
]
#: Long names that are also spelled ``--silent`` (less's second name of ``-q``).
ALIASES = {"quiet": ["quiet", "silent"]}

VERSION = """less 590 (GNU regular expressions)
Copyright (C) 1984-2021  Mark Nudelman

less comes with NO WARRANTY, to the extent permitted by law.
For information about the terms of redistribution,
see the file named README in the less distribution.
Home page: https://greenwoodsoftware.com/less
"""

HELP_Z = (
    "eNq9Wm1T20gS/qrKr5jl9jZwx7B795EN2XNsAU6M7dgmyW6KUEIa2wqypOgFQ/b2fvt198zozSObpFJxYUDSzDM9/d49esI2"
    "P1NremldXlgX8NOxOhNr8rv1OxtZo1PrlA2sgW3ZMAR+WNfqwu1i5NAa9qwePHjyRCJ1o9XKCb2UrZzkVnhs7WdL9g+4emA3"
    "gsWJcIUHt28emMPCfHUjkkN2bQ2P1PRhlImU+SGLnUSE2VKkdOn5rpMJBteAsnTu/Chh/hwnMj9lC/9OhBqhw27FQ2MhF8Cy"
    "AiYlnG6WBDj0V7jKU/bhFSK5cJO/OsLNLBk73+BTz0/jALaSLWHwUgQxrvqJsWP4voY/8P3jDxpp3/sZPOTf7qM5bPyANEAs"
    "b6w3fasPMjmzznC4YOyDzdhH+DME0UwYSIKdRsnaSTzGolCwwIdfjO0DP5GZeJke4KYeYM7vjN0y5Az7MKapLxz3luZunTqH"
    "8afwfQN6Ne507c1V1yCKaG2YegPTXgDzpl1+JzfWXLV16ucNnrStCurJUtAHdZ1FiEQYaxOGcfl2DKRdbXsrHYfsJs+YF4VP"
    "M5ZmUcycjInQ49Gcz/1AIBSM/9DbuqWlE8x5k6bqzQphOaBdbt3cl6DhNg8Ym/iLZdZJEnj4D3VVQLHUTYQIYb8e+AAtsThK"
    "/cyPwrSA2WdsIOYKBWHwin0xzF+wvwo5mhqgOXDSjLlRkK9C5kkLFp6e9idMqyyvV4dpcz8p5uHoU5PhaXHMo0TcieRX0Mhb"
    "wfYyxw8Yn+/pVTbmDnDYKekASX+9hC2mwkncJfi+LBNJiA5pHuUhkZrg7pDUKshExI4fZopDOGxiorE+7BB5AB7R88MFrD+f"
    "iwT8pB/GeXZUuJiv8U+FkxRzJw8ytie1Zg/3gR5XyXEpUC5Hm8MrmkZzSPjR3Dj3O/lVCGwQ+mREhMh3bp3X/OvP11Z8bTnX"
    "VkY/4tpKrq2wZmBTKdJ5qSZsH/SXZ8sDCIqZu0QpoBdDhvz2aLwbbbfbAUOTQwN1EOBsIERCHIXQp7Rufy5NC5BY5Lp5AgHY"
    "FWRewy+AgdhNlpAK0DOIwmik2grCx2EcsjR2whA3gq4w1dOHj51eIeCI/dSCljf3dAmax/azaLEIxIHezhIULkClg/l65mVz"
    "ZjeAwW0zftotVJ1WRGHwUBdi+m1MstN0LTIfW/ihTNDQ14L0V+DEwOKOi3mQNsDtH6pqzIajIW+jEbINGFGq6QoM248DITnP"
    "9mMnRV+Q5Mwe9tjolJ32B/ZBZf4pzv8PzM+cJNNEg4hP+5PpjFCknv58gAPJsZc3f6sivVL/nGtxSMaKtBp4V9EdzH1l2+Mi"
    "oFQxtDft0eAcNGpin10OOhNmvxtP7Om0PxpOK+Pfqn/eTjrjwh7mLIzk2oU3/15Z4UvrpUzrx9a45rgWjD2Tuvys1MKzqIx6"
    "lNyBdkjmIqvxhg7+Z4w9l9OfN6eTSLbPjhn7+4Y3kbNJJclUwe8Xsynei8SFggBQicZAOqbM5JgkFEaNwjGG4h4yAYfscfbI"
    "OYVXUfMgUYBM5X0jG4NwxdwgAtW4ScAnQ8L0FztgVzgBEhLIkK4ME6IYYpke/yfAvteuBQzg2np2bbnX1r+urefFxb/xomXB"
    "6pgC58VjcGp0VMd/G69jO6Dze/MNivcgqaIqkS0ikRaxUQmgvrmKehdOpyam2h5A5/AhJlQ6BG6QUp3QoKSIqoqUGvZOSuqE"
    "K1JuoiyLVooagFgRmwOKA9WA8LxWzUHtLHlBUTgrNiS99bNAoBcnKV18FV6Fqk3Ip4+BlAbjFFZCgYsqfu1ICeqpwSuVtlaY"
    "WHXOh3cf3m0mYs5KMCdlT7WC79y3jMkOUfWtgihiYWbqhA8sj8ElcddJKXIG0VpfSU6WS3ZFAtVASJNhakLb9gToovCO6977"
    "A+iHcMKU1R0hsgpdXn3wj8VggVpdHfZd4ovMh2UPCMJKEV/YqXUKF0XXCBGOBXt/bc2vLV/KrOoUmX3vrFARHXDTa6aLX1CD"
    "N61qcExDjkODJ9dom/6f4sk8Ab0nU1CGr/3EcfxYsEJrdwDe7wCUkXa/yLoPdgF6Bin0BOibqBl3Owr8SqnyOgH+QhA/nleh"
    "xgkWiTWUEPj9PfIVSFFAZUBZQKlAa0B34EeqFlyOrBGkMbu6j5w8wpwUDLLtRcNhQeCnzB7bgVWWRDE6HvY+FYKNxjPM6MD6"
    "wJ4phnOJGhLkipzM80eDHmL3UbGQXe8ir+wtCmy8ZMr4jcgScAdpbYChibx/UuwHmE0ls++Fmysdgyw+Ze7KYwIDauavqmaL"
    "rlFIBfco2P1AoBHhrojOsLlAFTxdiiAotktx6cfpuT0YIIH/fWe92wk39mPpA0GE2Ro7BlqdIcJAJUgOHIAwANVWwxVSVnVR"
    "G57nTsgmiYx72k3dmdTZ9vxs0yTlht70p5edAcaMH+1efzaaIMobE4q0R6xkUUFlsxwFuIdC2PuOZQSYHBQQM2sGNgr/g9VV"
    "Gv5gvBG4MalSqW70u0snXEAyIGDPSHW44YsOi/nACvJWyB+Ik6RioJl5qjMsjkM4r8pKEVZflM4BMPGichYC4jrC5HKVHms6"
    "HIaglUgKdEK+BvG6cWLAD3FNh8yj9ohz0mz+G2NH6oNeAs8CDCzUJoiPoUbFXVZ5QDUMd+pQsm7k6a0fc9n2MgCr+hoHpYWW"
    "lW1A3qljTu3OpHvOp6/6Yz7tTmx7uAUTS++UfcxBqs4cWQM3FiIr4hC/wWA+vJJLILzsIqYndNuAPCx0V40kmBd1Gp08izSS"
    "iZVUg+MgyL591wkg44RfER0MqWnUn4jBB8gF3PoCLmaE7SzVXVIQMo1E7UscUpsMtBm5GwWBaupwr47twQ5NRMNtBiwEl+gE"
    "NK/H7q177ccC+p0AFNEXBVFysvnYKCotbUaz5H7BZ3G7lMqn3M+4k3EBfIfL15f9Ge/MuD06NSC+hsHqCELX3oQ5r+8TGOyK"
    "J8Y2uKvqpTAKeSIWeQDpd9FwwwZ4FYdo8+ccLLVdIkSTPweaMj9Rfn3ug25GoUqeKhq/aBikH/iZUMZkwC7bQtR0o7aFbtLo"
    "Vp4i/ayOfN4f9Ge2MqlWRS26gFQsqNbTJvayaUor555jGcqlurWaVHFwI8eBca7owJFxv06uvwijRFBpYoDp01NGhYsfFrSh"
    "xmOPDISJJyAhFTBU8eBIWqZfX6Z/NhxNbN7tTO3dy4Dd1tnwscmGj/kq5tLvtLJgKg1A147k8UtPJYFfNnxr5mR5yuWZzhZ/"
    "7TA5Up8aATMCPBYS3oIiS0XvbjcqG1oJo9iteKCzvJP6CMO6lynmUWpOaXyvDEYD1gVeyuQU8MhZRk/qwacxhEbshchT7S4h"
    "DuqIYUSEot22Sw1D8MCeTkdjewi2eOcnUbjCeHMHTtK5UbSu4HtRCjCIwgWPIeDFGV4ORsMzPp6MLsazFnemxqbZgwKE4g47"
    "/gUgyJTLJCglxP7Q5sPLixf2ZNpqhdiypbRZTSTgqEVi0eKR0upG8QP1OqOFalKCtoQeWqPMENGlyNg+Mq81GJ1xbH1/zVp5"
    "CAbpkcpTEIwgQ1wn4OzkijGuaDhwuMJ1Vfv/pGWISTTUiMdDFnVy0JbFjNW6ic7Q4f/silouUrQnpucmyVFrhIoKOZHgP8H3"
    "dS22iUxFNXtGpg3MAZ2EXAf4OpyZw4mQabmOyFjoybAMMZhPSvjEWXN0e+BaOaaIpHGTzlveHQ1nk9GAd887RrUb5RkqwB4A"
    "7DGFUCaZUv/Shk/6lAvxWfCbwAlvSc1N6c9UjipPVGh4xdNNG8nOMoqlEbYhdmEE288S0CdIoQ4YDpZ4tbRnnThxrLOeDIWc"
    "yQKWvDUulTmLk8ptU3aAfVdHN9L5rIJybaV1AyG8whBbRrW5UAwtqKX0spCzSEtXmsP3shRwHnoiIZeSxsL1QRXg5uWwZ0/I"
    "r0zHdrffGRi5hoUNg99eoApqDNdp7LhKEG/qglD125Zggxq5pcpjfG1MbfIwEY63NbWRSRJaEjlBmc2rdjuvxLC3xgzncjix"
    "O70vXwATHt3TxwM2jBW0zD1F+feHsMzVldScG1k0qHstoQGG0UsSkr/vNkKYH/rZ1hCA9u46McOBP3sC/wAgZvgS8sGUheEW"
    "dmVh+u2PjSTscxNRvtfQnstgQu9/puRCDiWYPYRx8XulQ8enHF+ROynvt6FRe4NGNx3Q/+oczPzAE63887SW4qhUibhZJfyt"
    "ud106c+zrbtdRon/GTPLQHPPWUU5ePD9X9iJ+eWfytFs2c9HGjiyzrBOp1YtekL6fdVsUtzG/2XU1rvZWAGIi9YcWwGGNWZL"
    "fI9Hx0PZ90jVebffhMcOGZTqgOSZVvJDt7Vg0SfwiOKksv+mY3LZxcBXbR5iep/HtIBOojjx82TYZnBLoV63Ugziw2oaBUSI"
    "gA7Jhg3Vaq4HEjWWHXaIeSOjx81Xj8rZYNqQDsdGJyeVM0VF1NYtx7YZuQF86aeZl8epsRlArwbA00C9M1pLe3BmlDyYcBPl"
    "MrpbeFvKC/ZPjKTGpI7FXvO1ihI9de4Ep5MkI9HVgyYgg0qBO2yRUJsMhIlBxYhbFEZfrBovG7XSI9QCdk1Fbgplt1HX85tU"
    "QMITln1FVJRiChlACjKXrGxbglojrdqXytYJ8l/cG/VvvRQikPmTkR90qOyCgtxqZkiFpnkU+lI21LJ88t36tQNrIA/jbMtm"
    "8O1ZPbiW7dvyFZDCewHBYDnADciebkShkYJ62HhudiMw0QFh0IuCZdtW9nT3qqXAHlYKlWPv2tt72DitvKB5ZPrQ2W6Az9gF"
    "GqCbJ2mUsKR4sbRQLBBY+drmUTvYcgOMKvkmFtXI1ddHcW7zer2FsHWUeBqn+j4pzmte37TTpGDORxd2y67Krf2yAYPHGlSw"
    "oanLdi2+aHW0C+lHE5IK8grnRaf7Sr7XfLTjo88kkb1UutLe5goZoHr2wJ5twSGS7lkTinL2EoU4XVIlOWukUqMgb40EEVSF"
    "KoJqXr9jTSgTQZestg22fzHlvdFUtgRYgyDV2FQcvoy3KbOi4paoAE+f+OKu8gZF47C4F63DnabxsY5Fh+QNnFnnxU55K8Qu"
    "1Oq0K0xR6NzkJ+Y+uJRTTc/7pzPeDkbk4GNmhNHvc2o4aWTsq6g6pENwbEEePfk/4NmHyQ=="
)


def help_text() -> bytes:
    """less 590's help file, as ``less --help`` copies it (overstruck headings)."""
    return zlib.decompress(base64.b64decode("".join(HELP_Z)))


class _Quit(Exception):
    """less's ``quit(status)``."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


def _opt_desc(opt: tuple[str, str, int, str | None]) -> str:
    letter, name = opt[0], opt[1]
    return f"--{name}" if letter == NONE else f"-{letter} (--{name})"


def _prchar(c: str) -> str:
    code = ord(c) if ord(c) < 0xDC80 or ord(c) > 0xDCFF else ord(c) - 0xDC00
    code &= 0xFF
    if code == 0x1B:
        return "ESC"
    if code < 32 or code == 127:
        return "^" + chr(code ^ 0x40)
    if code >= 128:
        return f"<{code:02X}>"
    return chr(code)


def _printable(text: str) -> str:
    """less_printf's rendering of a message: ASCII control characters as ``^X`` / ``ESC``."""
    return "".join(_prchar(c) if ord(c) < 32 or ord(c) == 127 else c for c in text)


def _findopt(c: str) -> tuple[str, str, int, str | None] | None:
    for opt in OPTIONS:
        if opt[0] == c or (opt[2] == TRIPLE and opt[0].upper() == c and opt[0] != NONE):
            return opt
    return None


def _sprefix(typed: str, name: str, uppercase: bool) -> int:
    length = 0
    for k, sc in enumerate(name):
        c = typed[k] if k < len(typed) else "\0"
        if uppercase:
            if length == 0 and "a" <= c <= "z":
                return 0
            if "A" <= c <= "Z":
                c = c.lower()
        if c != sc:
            break
        length += 1
    return length


def _is_optchar(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or c == "-"


def _findopt_name(typed: str) -> tuple[tuple[str, str, int, str | None] | None, int, bool]:
    """less 590's ``findopt_name``: (option, length matched, ambiguous). Every name is tried
    as typed and in its upper-case form (``--BUF`` is ``--buffers``), so ``--QUIT`` matches
    both ``quit-at-eof`` and ``quit-if-one-screen``: ambiguous."""
    best = None
    maxlen = 0
    ambig = exact = False
    for opt in OPTIONS:
        for name in ALIASES.get(opt[1], [opt[1]]):
            for uppercase in (False, True):
                length = _sprefix(typed, name, uppercase)
                nxt = typed[length] if length < len(typed) else ""
                if length > 0 and not _is_optchar(nxt):
                    if not exact and length == maxlen:
                        ambig = True
                    elif length > maxlen:
                        best, maxlen, ambig = opt, length, False
                        exact = length == len(name)
    if ambig:
        return None, 0, True
    return best, maxlen, False


def _skipsp(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t":
        i += 1
    return i


class _Options:
    """less's option state: only what matters to a copy, plus the pending option."""

    def __init__(self, ctx: CommandContext):
        self.ctx = ctx
        self.pending: tuple[str, str, int, str | None] | None = None
        self.force = False
        self.raw = 0
        self.dohelp = False

    def msg(self, text: str) -> None:
        """less's ``error()`` before any file is opened: a line on stderr."""
        self.ctx.stderr.write(_printable(text).encode("utf-8", "surrogateescape") + b"\n")

    def getnum(self, s: str, i: int, printopt: str | None) -> tuple[int | None, int]:
        """less's ``getnum``: (value or None after the message, index after the number)."""
        j = _skipsp(s, i)
        if j < len(s) and s[j] == "-":
            j += 1
        if not (j < len(s) and "0" <= s[j] <= "9"):
            if printopt is not None:
                self.msg(f"Number is required after {printopt}")
            return None, i
        k = j
        while k < len(s) and "0" <= s[k] <= "9":
            k += 1
        return int(s[j:k]) * (-1 if s[j - 1:j] == "-" else 1), k

    def number(self, opt: tuple[str, str, int, str | None], value: int | None) -> None:
        name = opt[1]
        if value is None:
            return
        if name == "line-num-width" and value > 16:
            self.msg("Line number width must not be larger than 16")
        elif name == "status-col-width" and value > 4:
            self.msg("Status column width must not be larger than 4")

    def handler(self, opt: tuple[str, str, int, str | None], value: str | None) -> None:
        """The INIT action of an option's handling function, as far as a copy sees it."""
        name = opt[1]
        if name == "version":
            self.ctx.stdout.write(VERSION.encode())
            raise _Quit(0)
        if name == "help":
            self.dohelp = True
        elif name == "lesskey-file":
            self.msg(f'Cannot use lesskey file "{value}"')
        elif name == "lesskey-src":
            self.msg(f'Cannot use lesskey source file "{value}"')
        elif name == "quotes" and value is not None and len(value) > 2:
            self.msg('-" must be followed by 1 or 2 chars')
        elif name in ("jump-target", "shift") and value is not None:
            what = "line" if name == "jump-target" else "column"
            if value.startswith("."):
                j = _skipsp(value, 1)
                if not (j < len(value) and "0" <= value[j] <= "9"):
                    self.msg(f"Invalid {what} fraction")
            else:
                j = _skipsp(value, 0)
                if j < len(value) and value[j] == "-":
                    j += 1
                if not (j < len(value) and "0" <= value[j] <= "9"):
                    self.msg(f"Invalid {what} number")

    def optstring(self, s: str, i: int, printopt: str, valid: str | None) -> tuple[str | None, int]:
        if i >= len(s):
            self.msg(f"Value is required after {printopt}")
            return None, i
        out = []
        while i < len(s):
            c = s[i]
            if c == "$" or (valid is not None and c not in valid):
                break
            out.append(c)
            i += 1
        return "".join(out), i

    def scan(self, s: str) -> None:
        """less's ``scan_option`` of one word (or of the whole ``LESS`` value)."""
        if self.pending is not None:
            opt, self.pending = self.pending, None
            if opt[2] == STRING:
                self.handler(opt, s)
            elif opt[2] == NUMBER:
                self.number(opt, self.getnum(s, 0, _opt_desc(opt))[0])
            return
        set_default = False
        i = 0
        while i < len(s):
            optc = s[i]
            i += 1
            longname = None
            if optc in " \t$":
                continue
            if optc == "-":
                if i < len(s) and s[i] == "-":
                    i += 1
                    longname = s[i:]
                else:
                    set_default = i < len(s) and s[i] == "+"
                    if set_default:
                        i += 1
                    continue
            elif optc == "+":
                value, i = self.optstring(s, i, "-+", None)
                if value is None:
                    return
                continue
            elif "0" <= optc <= "9":
                i -= 1
                optc = "z"
            if longname is None:
                printopt = "-" + _prchar(optc)
                lower = "a" <= optc <= "z"
                opt = _findopt(optc)
                ambig = False
            else:
                printopt = longname
                lower = "a" <= longname[:1] <= "z"
                opt, matched, ambig = _findopt_name(longname)
                i += matched
                if i < len(s) and s[i] not in " ":
                    if s[i] == "=":
                        if opt is not None and opt[2] not in (STRING, NUMBER):
                            self.msg(f"The {printopt} option should not be followed by =")
                            return
                        i += 1
                    else:
                        opt = None
            if opt is None:
                if ambig:
                    self.msg(f'{printopt} is an ambiguous abbreviation ("less --help" for help)')
                else:
                    self.msg(f'There is no {printopt} option ("less --help" for help)')
                return
            kind = opt[2]
            value = None
            if kind == BOOL:
                if opt[0] == "f":
                    self.force = not set_default
            elif kind == TRIPLE:
                if opt[0] == "r":
                    self.raw = 0 if set_default else (1 if lower else 2)
            elif kind == STRING:
                if i >= len(s):
                    self.pending = opt
                    return
                while i < len(s) and s[i] == " ":
                    i += 1
                value, i = self.optstring(s, i, printopt, opt[3])
                if value is None:
                    return
            elif kind == NUMBER:
                if i >= len(s):
                    self.pending = opt
                    return
                num, i = self.getnum(s, i, printopt)
                self.number(opt, num)
                continue
            if kind in (STRING, NOVAR):
                self.handler(opt, value)


_MID = set("0123456789:;[?!\"'#%()*+ ")


def _utf_len(b: int) -> int:
    if b & 0x80 == 0:
        return 1
    for mask, want, n in ((0xE0, 0xC0, 2), (0xF0, 0xE0, 3), (0xF8, 0xF0, 4), (0xFC, 0xF8, 5),
                          (0xFE, 0xFC, 6)):
        if b & mask == want:
            return n
    return 1


def _well_formed(data: bytes, p: int) -> bool:
    b = data[p]
    n = _utf_len(b)
    if p + n > len(data):
        return False
    if n == 1:
        return True
    if n == 2:
        if b < 0xC2:
            return False
    else:
        mask = (~((1 << (8 - n)) - 1)) & 0xFF
        if b == mask and (data[p + 1] & mask) == 0x80:
            return False
    return all(data[p + k] & 0xC0 == 0x80 for k in range(1, n))


def _decode(data: bytes, p: int) -> tuple[int, int]:
    n = _utf_len(data[p])
    if n == 1:
        return data[p], p + 1
    value = data[p] & ((1 << (7 - n)) - 1)
    for k in range(1, n):
        value = (value << 6) | (data[p + k] & 0x3F)
    return value, p + n


def _binary_char(c: int) -> bool:
    return (c <= 7 or c == 0x0B or 0x0E <= c <= 0x1F or 0x7F <= c <= 0x9F
            or c in _RANGE_ENDS)


#: less's ubin table lists the first and last code points of UnicodeData's surrogate and
#: private-use ranges (mkutable does not expand ``<..., First>``/``<..., Last>`` lines).
_RANGE_ENDS = {0xD800, 0xDB7F, 0xDB80, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xF8FF, 0xF0000,
               0xFFFFD, 0x100000, 0x10FFFD}


def is_binary(data: bytes, raw: int) -> bool:
    """less's ``bin_file`` in UTF-8 mode: more than 5 binary characters in ``data`` (the first
    256 bytes); with ``-R`` (raw == 2) ANSI escape sequences are not counted."""
    count = 0
    p = 0
    while p < len(data):
        if not _well_formed(data, p):
            count += 1
            p += 1
            while p < len(data) and data[p] & 0xC0 == 0x80:
                p += 1
            continue
        c, p = _decode(data, p)
        if raw == 2 and c == 0x1B:
            while p < len(data):
                c, p = _decode(data, p) if _well_formed(data, p) else (data[p], p + 1)
                if chr(c) not in _MID:
                    break
        elif _binary_char(c):
            count += 1
    return count > 5


def _ifiles(ctx: CommandContext, names: list[str]) -> list[str]:
    """The file list as less keeps it: one entry per real path, under its shortest name."""
    order: list[str] = []
    shown: dict[str, str] = {}
    for name in names:
        try:
            key = ctx.path(name) if name != "-" or ctx.exists(name) else name
            if not ctx.exists(name):
                key = name
        except FSError:
            key = name
        if key in shown:
            if len(name) < len(shown[key]):
                shown[key] = name
            continue
        shown[key] = name
        order.append(key)
    return [shown[k] for k in order]


def _is_device(ctx: CommandContext, name: str) -> bool:
    """``/dev/null`` and the other ``/dev`` entries are not regular files."""
    try:
        return ctx.path(name).startswith("/dev/")
    except FSError:
        return False


def _cat(ctx: CommandContext, opts: _Options, name: str) -> None:
    out = ctx.stdout

    def say(text: str) -> None:
        out.write(_printable(text).encode("utf-8", "surrogateescape") + b"\n")

    if name == "-":
        copy_stream(ctx, ctx.stdin)
        return
    try:
        st = ctx.stat(name)
    except FSError as e:
        say(f"{name}: {e.strerror}")
        return
    if st.is_dir and not opts.force:
        say(f"{name} is a directory")
        return
    regular = st.is_file and not _is_device(ctx, name)
    if not st.is_dir and not regular and not opts.force:
        say(f"{name} is not a regular file (use -f to see it)")
        return
    if st.is_dir:
        out.write(b"read error\n")
        return
    try:
        stream = ctx.open_read(name)
    except FSError as e:
        say(f"{name}: {e.strerror}")
        return
    try:
        head = stream.read(256)
        if not opts.force and head and is_binary(head, opts.raw):
            out.write(_printable(f'"{name}" may be a binary file.  See it anyway? ')
                      .encode("utf-8", "surrogateescape"))
            answer = ctx.stdin.read(1)
            if not answer:
                raise _Quit(1)
            out.write(b"\n")
            if answer not in (b"y", b"Y"):
                return
        out.write(head)
        copy_stream(ctx, stream)
    finally:
        stream.close()


def run(ctx: CommandContext) -> int:
    """Run ``less``."""
    opts = _Options(ctx)
    args = list(ctx.args)
    try:
        env = ctx.env.get("LESS")
        if env is not None:
            opts.scan(env)
        while args and ((len(args[0]) > 1 and args[0][0] in "-+") or opts.pending is not None):
            word = args.pop(0)
            if word == "--":
                break
            opts.scan(word)
        if opts.pending is not None:
            opts.msg(f"Value is required after {_opt_desc(opts.pending)}")
            return 0
        names = _ifiles(ctx, args)
        if opts.dohelp:
            ctx.stdout.write(help_text())
        for name in names or ([] if opts.dohelp else ["-"]):
            ctx.budget.check_time()
            _cat(ctx, opts, name)
    except _Quit as done:
        return done.status
    return 0

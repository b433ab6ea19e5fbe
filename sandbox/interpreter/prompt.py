"""``${v@P}``: the value expanded as bash expands a prompt string (bash 5.2's
``decode_prompt_string``, then ``promptvars``), with the sandbox's virtual identity.

First the backslash escapes: ``\\u`` (the virtual user), ``\\h`` ``\\H`` (the virtual host),
``\\w`` ``\\W`` ($PWD, ``~`` for $HOME), ``\\s`` (``bash``), ``\\v`` ``\\V`` (5.2, 5.2.15),
``\\d`` ``\\t`` ``\\T`` ``\\@`` ``\\A`` ``\\D{fmt}`` (the time, in the env's ``TZ`` as ``date``
uses it), ``\\$`` (``$``: the virtual user is not root), ``\\j`` (0 jobs), ``\\l`` (``tty``),
``\\!`` ``\\#`` (1 and 0, as in ``bash -c``), ``\\n`` ``\\r`` ``\\a`` ``\\e`` ``\\nnn``, ``\\\\``;
``\\[`` ``\\]`` go; any other ``\\c`` stays. The values put in are quoted for the second pass.
Then the text is expanded as inside double quotes (parameters, arithmetic; quotes stay as
they are). A command substitution in a prompt string is refused: it would run code that no
guard saw (bash runs it).
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import TYPE_CHECKING

from sandbox.commands._identity import HOSTNAME, USER
from sandbox.parse.ast import DQ, ArithSub, CmdSub, Param, ProcSub, Word

if TYPE_CHECKING:
    from sandbox.interpreter.core import Shell

_VERSION, _RELEASE = "5.2", "5.2.15"


def _quoted(text: str) -> str:
    """``text`` safe from the second pass (bash's ``sh_backslash_quote_for_double_quotes``)."""
    return "".join("\\" + c if c in '$`"\\' else c for c in text)


def _now(sh: "Shell") -> datetime:
    from sandbox.commands.date import resolve_zone
    zone, _ = resolve_zone(sh.get_var("TZ"))
    return datetime.fromtimestamp(time.time(), zone)


def _dir(sh: "Shell", base: bool) -> str:
    pwd = sh.get_var("PWD") or sh.cwd
    home = sh.get_var("HOME")
    if base and pwd != home:
        return pwd if pwd == "/" else pwd.rstrip("/").rsplit("/", 1)[-1]
    if home and len(home) > 1 and (pwd == home or pwd.startswith(home.rstrip("/") + "/")):
        return "~" + pwd[len(home.rstrip("/")):]
    return pwd


def decode(sh: "Shell", text: str) -> str:
    """The first pass: the backslash escapes replaced (values quoted for the second)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = text[i + 1]
        i += 2
        if e in "01234567":
            j = i - 1
            while j < n and j < i + 2 and text[j] in "01234567":
                j += 1
            out.append(chr(int(text[i - 1:j], 8) & 0xFF))
            i = j
        elif e == "D" and i < n and text[i] == "{":
            end = text.find("}", i)
            if end < 0:
                out.append("\\D")
                continue
            fmt = text[i + 1:end] or "%X"
            out.append(_quoted(_now(sh).strftime(fmt)))
            i = end + 1
        elif e in _TIME_FORMATS:
            out.append(_now(sh).strftime(_TIME_FORMATS[e]))
        elif e == "u":
            out.append(_quoted(USER))
        elif e == "h":
            out.append(_quoted(HOSTNAME.split(".")[0]))
        elif e == "H":
            out.append(_quoted(HOSTNAME))
        elif e in "wW":
            out.append(_quoted(_dir(sh, e == "W")))
        elif e == "s":
            out.append(_quoted(sh.arg0.rsplit("/", 1)[-1]))
        elif e in _FIXED:
            out.append(_FIXED[e])
        elif e in "[]":
            pass
        else:
            out.append("\\" + e)
    return "".join(out)


_TIME_FORMATS = {"d": "%a %b %d", "t": "%H:%M:%S", "T": "%I:%M:%S", "@": "%I:%M %p",
                 "A": "%H:%M"}
_FIXED = {"v": _VERSION, "V": _RELEASE, "$": "\\$", "j": "0", "l": "tty", "!": "1", "#": "0",
          "n": "\n", "r": "\r", "a": "\a", "e": "\x1b", "\\": "\\"}


def _runs_code(parts: list) -> bool:  # type: ignore[type-arg]
    for p in parts:
        if isinstance(p, (CmdSub, ProcSub)):
            return True
        if isinstance(p, DQ) and _runs_code(p.parts):
            return True
        if isinstance(p, ArithSub) and _runs_code(p.expr.parts):
            return True
        if isinstance(p, Param):
            for w in (p.arg, p.repl, p.index):
                if isinstance(w, Word) and _runs_code(w.parts):
                    return True
    return False


class PromptError(Exception):
    """A prompt string the sandbox does not expand (``str()`` is the message)."""


def expand(sh: "Shell", text: str) -> str:
    """``${v@P}`` of the value ``text``."""
    from sandbox.errors import UnsupportedSyntax
    from sandbox.parse.parser import parse_heredoc_text
    decoded = decode(sh, text)
    if "$" not in decoded and "`" not in decoded and "\\" not in decoded:
        return decoded
    try:
        word = parse_heredoc_text(decoded)
    except UnsupportedSyntax as exc:
        raise PromptError(str(exc)) from None
    if _runs_code(word.parts):
        raise PromptError("command substitution in a prompt string is not run by the "
                          "sandbox; expand the parts yourself")
    return sh.expander.heredoc(word)

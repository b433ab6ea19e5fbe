"""``set -x``: the trace lines bash 5.2 writes to stderr (``print_cmd.c``'s ``xtrace_*``).

Each line starts with ``$PS4`` expanded as a prompt string (``prompt.expand``; a command
substitution in it is not run: the text stays as written), its first character repeated once
more for each command or process substitution the line runs in (``++ echo hi`` inside
``$(...)``). Then:

* a simple command: its expanded words, each bare when it holds no shell metacharacter,
  single-quoted when it does (tabs and newlines stay raw inside the quotes), ``$'...'``
  when it holds only a character that doesn't print (``$'\\r'``, ``$'\\001'``);
* an assignment: ``name=value`` with the value quoted so (empty: ``x=``); ``a=(...)`` /
  ``a+=(...)`` and ``a[sub]=v`` as written, the value of the latter expanded;
* ``for x in WORDS`` (as written, ``"$@"`` when there are none) before each pass,
  ``select`` alike, ``case WORD in`` once;
* ``(( EXPR ))`` with the expression after ``$`` expansion, as written between the parentheses
  (``((  1  ))``); in ``for ((;;))`` each part without its leading blanks (``(( i=0 ))``);
* ``[[ ]]``: each test that is evaluated on its own line, operands expanded, unquoted, the
  right side of ``==``/``!=`` as the pattern (quoted characters backslashed) and of ``=~``
  as the regular expression (quoted specials backslashed); a ``!`` right above a test shows;
* ``declare``/``local``/``typeset``/``readonly``/``export`` with an array value: first the
  assignment with every element single-quoted (``c=('1' '2')``, ``m=(['k']='v')``), then the
  command without it; ``export``/``readonly`` with ``NAME=VALUE`` trace the assignment again
  after the command.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

#: Characters that make ``sh_contains_shell_metas`` true anywhere in a word.
_METAS = frozenset(" \t\n'\"\\|&;()<>!{}*[?]^$`")
_ANSIC = {"\x1b": "E", "\a": "a", "\v": "v", "\b": "b", "\f": "f", "\n": "n", "\r": "r",
          "\t": "t", "\\": "\\", "'": "'"}


def contains_metas(text: str) -> bool:
    """bash's ``sh_contains_shell_metas``: a metacharacter, ``~`` at the start or after ``=``
    or ``:``, or ``#`` at the start."""
    for i, c in enumerate(text):
        if c in _METAS:
            return True
        if c == "~" and (i == 0 or text[i - 1] in "=:"):
            return True
        if c == "#" and i == 0:
            return True
    return False


def _printable(c: str) -> bool:
    if "\udc80" <= c <= "\udcff":  # a byte that is no UTF-8 (surrogateescape)
        return False
    if c < "\x80":
        return " " <= c < "\x7f"
    return unicodedata.category(c) not in ("Cc", "Cs", "Co", "Cn")


def should_ansic_quote(text: str) -> bool:
    """bash's ``ansic_shouldquote``: a character that doesn't print."""
    return not all(_printable(c) for c in text)


def ansic_quote(text: str) -> str:
    """bash's ``ansic_quote``: ``$'...'`` with C escapes, other unprintables as ``\\ooo``."""
    out = ["$'"]
    for c in text:
        if c in _ANSIC:
            out.append("\\" + _ANSIC[c])
        elif _printable(c):
            out.append(c)
        else:
            data = (c.encode("utf-8", "surrogateescape") if not "\udc80" <= c <= "\udcff"
                    else bytes([ord(c) - 0xDC00]))
            out.extend(f"\\{b:03o}" for b in data)
    out.append("'")
    return "".join(out)


def single_quote(text: str) -> str:
    """bash's ``sh_single_quote`` (a lone ``'`` is ``\\'``)."""
    if text == "'":
        return "\\'"
    return "'" + text.replace("'", "'\\''") + "'"


def quote_word(word: str) -> str:
    """One word of a traced command, as ``xtrace_print_word_list`` writes it."""
    if word == "":
        return "''"
    if contains_metas(word):
        return single_quote(word)
    if should_ansic_quote(word):
        return ansic_quote(word)
    return word


def quote_value(value: str) -> str:
    """The value of a traced assignment (``xtrace_print_assignment``)."""
    if value == "":
        return value
    if contains_metas(value):
        return single_quote(value)
    if should_ansic_quote(value):
        return ansic_quote(value)
    return value


def prefix(sh: "Shell") -> str:
    """``$PS4`` expanded, its first character repeated for the substitution level."""
    from sandbox.interpreter import prompt
    raw = sh.get_var("PS4")
    if raw is None:
        text = "+ "
    else:
        try:
            text = prompt.expand(sh, raw)
        except Exception:  # noqa: BLE001 - a PS4 we don't expand is shown as written
            text = raw
    if text and sh.trace_level:
        text = text[0] * sh.trace_level + text
    return text


def line(sh: "Shell", io_: "IO", text: str) -> None:
    """Write one trace line (``text`` after the prefix)."""
    io_.stderr.write((prefix(sh) + text + "\n").encode("utf-8", "surrogateescape"))


def words(sh: "Shell", io_: "IO", argv: Iterable[str]) -> None:
    """A simple command's words."""
    line(sh, io_, " ".join(quote_word(w) for w in argv))


def assignment(sh: "Shell", io_: "IO", name: str, value: str, append: bool = False) -> None:
    """``name=value`` (``name+=value``)."""
    line(sh, io_, f"{name}{'+' if append else ''}={quote_value(value)}")


def array_literal(items: list[tuple[str | None, str]]) -> str:
    """``('1' '2')`` / ``(['k']='v')``: the elements of a declared array, each quoted."""
    inner = " ".join(single_quote(v) if k is None else f"[{single_quote(k)}]={single_quote(v)}"
                     for k, v in items)
    return f"({inner})"

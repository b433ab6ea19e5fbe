"""Command names the guard can know before the script runs: ``$V`` / ``"$V"`` of a variable
whose every possible value is a literal written in the script.

Under the default (static) policy the guard refuses a command name that is not a literal word.
A plain parameter expansion ``$V``, ``${V}``, ``"$V"`` or ``"${V}"`` (nothing else in the word)
is accepted when every value ``V`` can have is known, and the command is checked as if each of
them had been written out (``sandbox.guard`` calls ``fold``). Soundness comes first: when in
doubt nothing is folded and the name is refused as before.

The rules (``Analysis`` applies them to the whole script once):

1. Every site of the script that can set ``V`` is collected: all nodes, function bodies,
   command and process substitutions, here-documents. ``V`` is foldable only if each of them is
   a plain assignment ``V=WORD`` (also before a command, and as an argument of ``declare``,
   ``typeset``, ``local``, ``export`` or ``readonly`` with no flags but ``-g -x -r``) whose
   ``WORD`` is literal (``Word.literal()``). Any other site makes ``V`` unfoldable: ``V+=``,
   ``V=(...)``, ``V[i]=``, ``for V``, ``read``/``mapfile``/``readarray``/``getopts``/
   ``printf -v``/``wait -p`` naming ``V``, ``{V}>file``, ``${V=...}``/``${V:=...}``, any
   arithmetic that mentions ``V`` (``((...))``, ``$((...))``, ``let``, ``for ((...))``,
   subscripts, substring offsets, the arithmetic operators of ``[[ ]]``), and a declaration
   with any other flag (``-i -l -u -a -A -p``...) naming ``V``.
2. Nothing is folded at all if the script can set a variable whose name is not written in it:
   a nameref (``-n`` on ``declare``/``typeset``/``local``/``readonly``), ``unset -n``, a name
   argument that is not a literal word (``read "$v"``, ``declare "$x"``, a first argument of
   ``printf`` that is not literal: it could be ``-v NAME``), ``${!v=...}``, a ``trap`` that sets
   an action, ``set -k``, or a folded command name that can be one of those builtins
   (``R=read; $R V``).
   An assignment hidden in arithmetic that the guard cannot see (a variable whose *value* is
   ``V=5``) gives ``V`` an integer, which names no command of the sandbox (a function so named
   is checked anyway, with the rest of the script); an embedder command named like an
   integer turns folding off.
3. ``V`` is an ordinary variable: ``[A-Za-z_][A-Za-z0-9_]*``, not one the shell sets or reads
   itself (``SHELL_VARIABLES``: ``IFS PATH HOME PWD RANDOM BASH_* REPLY OPTARG _``...), and not
   one of the environment the script starts with (the names passed as ``env``; without them,
   only the shell's own initial variables are assumed).
4. The possible values are the literal assignment values plus the empty string (unset:
   always, as a use may come before any assignment). Quoted, a value is one command name (the
   empty one runs nothing but ``bash: : command not found``). Unquoted, it is split on the
   default IFS (space, tab, newline) -- only if ``IFS`` is set nowhere in the script (except as
   the temporary ``IFS=... read``) nor in the environment, and only if no value has a glob
   or extglob character (``* ? [ ] \\ ( )``); otherwise ``$V`` is not folded. The words lead
   the command; none (an empty value) makes the command's next word its name, checked the
   same way (recursively); with no next word the command runs nothing.
5. Each value is checked by the guard's own checks of a command name (allowlist,
   ``FORBIDDEN``, host programs, ``writes()``, ``runs()`` of xargs/find -exec, read-only,
   protected paths), on the same command with the name replaced; a refusal names the value:
   ``command name `$C` can be `rm`, which is not an allowed command``.
6. ``Policy(dynamic=True)`` checks names when they run: nothing here applies.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from sandbox.interpreter.cmdpath import standard_name
from sandbox.parse.ast import (
    DQ, ArithCmd, ArithFor, ArithSub, Assign, CondBinary, DeclAssign, For, Lit, Param, Quoted,
    Redirect, SimpleCommand, Word,
)

if TYPE_CHECKING:
    from sandbox.guard import _Walker

#: Variables the shell sets, computes or reads itself (never folded), beyond ``BASH*``.
SHELL_VARIABLES: frozenset[str] = frozenset(
    "IFS PATH HOME PWD OLDPWD CDPATH RANDOM SRANDOM SECONDS LINENO FUNCNAME PIPESTATUS SHELL "
    "SHELLOPTS SHLVL UID EUID PPID GROUPS OPTARG OPTIND OPTERR REPLY MAPFILE COPROC DIRSTACK "
    "HOSTNAME HOSTTYPE MACHTYPE OSTYPE EPOCHSECONDS EPOCHREALTIME HISTCMD HISTFILE HISTSIZE "
    "HISTFILESIZE HISTCONTROL HISTIGNORE HISTTIMEFORMAT PS0 PS1 PS2 PS3 PS4 PROMPT_COMMAND "
    "TIMEFORMAT TMOUT TMPDIR GLOBIGNORE GLOBSORT FIGNORE ENV POSIXLY_CORRECT COLUMNS LINES "
    "LANG LC_ALL LC_COLLATE LC_CTYPE LC_MESSAGES LC_NUMERIC LC_TIME TERM USER LOGNAME MAIL "
    "MAILCHECK MAILPATH INPUTRC READLINE_LINE READLINE_POINT READLINE_MARK COMP_WORDS "
    "COMP_CWORD COMP_LINE COMP_POINT COMP_TYPE COMP_KEY COMP_WORDBREAKS COMPREPLY "
    "EXECIGNORE CHILD_MAX _".split())

#: Builtins that declare variables (``name=value`` arguments; flags).
DECLARATIONS = frozenset({"declare", "typeset", "local", "export", "readonly"})
#: Builtins that can set a variable named by an argument: a folded command name that can be
#: one of them turns folding off for the whole script (rule 2).
SETTERS = DECLARATIONS | {"read", "mapfile", "readarray", "getopts", "printf", "wait", "unset",
                          "let", "trap", "set"}

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INTEGER_RE = re.compile(r"\s*[-+]?[0-9]+\s*\Z")
_IFS_SPLIT_RE = re.compile(r"[ \t\n]+")
#: An unquoted value holding one of these could glob (or extglob): ``$V`` is not folded.
_GLOB_CHARS = frozenset("*?[]\\()")
#: Flags of a declaration that leave a plain string variable plain.
_PLAIN_FLAGS = frozenset("gxr")
_ARITH_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
#: Option letters taking an argument (``getopt`` specs of the interpreter's builtins).
_READ_ARGS, _MAPFILE_ARGS = "adinNptu", "dnOsuCc"


def plain_param(w: Word) -> tuple[str, bool] | None:
    """(name, quoted) if ``w`` is only ``$V``/``${V}`` (unquoted) or ``"$V"``/``"${V}"``."""
    parts = w.parts
    quoted = False
    if len(parts) == 1 and isinstance(parts[0], DQ):
        parts, quoted = parts[0].parts, True
    if len(parts) != 1 or not isinstance(parts[0], Param):
        return None
    p = parts[0]
    if p.op or p.index is not None or p.indirect or p.arg is not None or p.repl is not None:
        return None
    if not _NAME_RE.match(p.name):
        return None
    return p.name, quoted


def _base(name: str) -> str:
    """``a[1]`` -> ``a``; ``C`` -> ``C``."""
    return name.split("[", 1)[0]


def _children(node: object) -> Iterator[object]:
    if isinstance(node, (list, tuple)):
        yield from node
    elif hasattr(node, "__dataclass_fields__"):
        for f in node.__dataclass_fields__:  # type: ignore[attr-defined]
            yield getattr(node, f)


def _walk(node: object) -> Iterator[object]:
    """Every dataclass node under ``node`` (itself included), depth first."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if hasattr(cur, "__dataclass_fields__"):
            yield cur
        stack.extend(reversed(list(_children(cur))))


class Analysis:
    """What the whole script tells about each variable: its literal values, whether it can be
    folded, and whether ``$V`` may be split (rules 1-4); the guard makes it when it first
    meets a ``$V`` command name."""

    def __init__(self, tree: object, env: Iterable[str] | None = None,
                 commands: Iterable[str] = ()):
        #: Literal values assigned to each name.
        self.values: dict[str, set[str]] = {}
        #: Names set somewhere in a way that is not a plain literal assignment.
        self.unfoldable: set[str] = set()
        #: Why nothing is folded (rule 2), or None.
        self.bail: str | None = None
        self._env = frozenset(env or ())
        self._ifs_set = "IFS" in self._env
        self._temp_ifs: set[int] = set()  # ids of `IFS=... read` assignments (temporary)
        self._commands: list[SimpleCommand] = []
        if any(_INTEGER_RE.match(c) for c in commands):
            self.bail = "an embedder command is named like an integer"
        for node in _walk(tree):
            self._visit(node)
        if self.bail is None:
            self._check_folded_heads()

    # -- collection (rules 1 and 2) -------------------------------------------------------

    def _no(self, name: str) -> None:
        self.unfoldable.add(_base(name))
        if _base(name) == "IFS":
            self._ifs_set = True

    def _stop(self, why: str) -> None:
        if self.bail is None:
            self.bail = why

    def _mentions(self, w: Word | None) -> None:
        """Arithmetic: every name it mentions may be assigned there."""
        if w is None:
            return
        for name in _IDENT_RE.findall(w.text):
            self._no(name)
        for node in _walk(w):
            if isinstance(node, Param):
                self._no(node.name)
            elif isinstance(node, (Lit, Quoted)):
                for name in _IDENT_RE.findall(node.text):
                    self._no(name)

    def _visit(self, node: object) -> None:
        if isinstance(node, Assign):
            if node.append or node.index is not None or node.array is not None:
                self._no(node.name)
                self._mentions(node.index)
                for key, _ in node.array or ():
                    self._mentions(key)
            else:
                value = node.value.literal()
                if value is None:
                    self._no(node.name)
                else:
                    self.values.setdefault(node.name, set()).add(value)
                    if node.name == "IFS" and id(node) not in self._temp_ifs:
                        self._ifs_set = True
        elif isinstance(node, For):
            self._no(node.var)
        elif isinstance(node, (ArithCmd, ArithSub)):
            self._mentions(node.expr)
        elif isinstance(node, ArithFor):
            for w in (node.init, node.cond, node.step):
                self._mentions(w)
        elif isinstance(node, CondBinary):
            if node.op in _ARITH_TESTS:
                self._mentions(node.left)
                self._mentions(node.right)
        elif isinstance(node, Param):
            if node.op in ("=", ":="):
                if node.indirect:
                    self._stop("`${!v=...}` assigns a variable named at run time")
                else:
                    self._no(node.name)
            self._mentions(node.index)
            if node.op == ":":
                self._mentions(node.arg)
                self._mentions(node.repl)
        elif isinstance(node, Redirect):
            if node.varname:
                self._no(node.varname)
        elif isinstance(node, SimpleCommand):
            self._command(node)

    def _command(self, node: SimpleCommand) -> None:
        if not node.words:
            return
        head = node.words[0].literal()
        if head is None:
            self._commands.append(node)  # its possible names are checked at the end
            return
        name = standard_name(head)
        args = node.words[1:]
        if name in ("read", "mapfile", "readarray"):
            for a in node.assigns:  # `IFS= read line`: IFS is set for the read only
                if a.name == "IFS" and not a.append and a.index is None and a.array is None:
                    self._temp_ifs.add(id(a))
            spec = _READ_ARGS if name == "read" else _MAPFILE_ARGS
            self._option_names(name, args, spec, "a" if name == "read" else "")
        elif name == "getopts":
            rest = args[1:] if args and args[0].literal() == "--" else args
            for w in rest[:2]:
                lit = w.literal()
                if lit is not None:
                    self._no(lit)
            if len(rest) >= 2 and rest[1].literal() is None:
                self._stop("getopts sets a variable named at run time")
        elif name == "printf":
            self._printf(args)
        elif name == "wait":
            for w in args:
                lit = w.literal()
                if lit is None:
                    self._stop("wait -p could set a variable named at run time")
                    return
                if not lit.startswith("-"):
                    self._no(lit)
                elif lit.startswith("-") and "p" in lit and not lit.endswith("p"):
                    self._no(lit[lit.index("p") + 1:])
        elif name == "let":
            for w in args:
                self._mentions(w)
        elif name == "unset":
            for w in args:
                lit = w.literal()
                if lit is not None and lit.startswith("-") and "n" in lit:
                    self._stop("unset -n")
        elif name == "trap":
            self._trap(args)
        elif name == "set":
            self._set(args)
        elif name in DECLARATIONS:
            self._declaration(name, args)

    def _option_names(self, prog: str, args: list[Word], takes: str, name_opts: str) -> None:
        """``read``/``mapfile``: the names (and ``-a NAME``) it sets, as its getopt sees them."""
        i = 0
        while i < len(args):
            lit = args[i].literal()
            if lit is None:
                self._stop(f"{prog} sets a variable named at run time")
                return
            if lit == "--":
                i += 1
                break
            if len(lit) < 2 or lit[0] != "-":
                break
            i += 1
            for k in range(1, len(lit)):
                c = lit[k]
                if c in takes:
                    if k + 1 < len(lit):
                        value: str | None = lit[k + 1:]
                    elif i < len(args):
                        value = args[i].literal()
                        i += 1
                    else:
                        value = ""
                    if c in name_opts:
                        if value is None:
                            self._stop(f"{prog} -{c} sets a variable named at run time")
                            return
                        self._no(value)
                    break
        for w in args[i:]:
            lit = w.literal()
            if lit is None:
                self._stop(f"{prog} sets a variable named at run time")
                return
            self._no(lit)

    def _printf(self, args: list[Word]) -> None:
        if not args:
            return
        first = args[0].literal()
        if first is None:  # the interpreter takes an expanded `-vNAME` as -v
            self._stop("printf's first argument is not literal (it could be `-v NAME`)")
        elif first.startswith("-v"):
            if len(first) > 2:
                self._no(first[2:])
            elif len(args) > 1:
                target = args[1].literal()
                if target is None:
                    self._stop("printf -v sets a variable named at run time")
                else:
                    self._no(target)

    def _trap(self, args: list[Word]) -> None:
        words = list(args)
        while words:
            lit = words[0].literal()
            if lit is None:
                break
            if lit == "--":
                words.pop(0)
                break
            if not lit.startswith("-") or lit == "-":
                break
            if "l" in lit or "p" in lit:
                return  # shows traps or signals
            words.pop(0)
        if not words:
            return
        lits = [w.literal() for w in words]
        if None in lits or (len(words) >= 2 and lits[0] not in ("", "-")):
            self._stop("a trap action is code that runs later")

    def _set(self, args: list[Word]) -> None:
        """``set -k`` (``-o keyword``): ``f C=rm`` would set ``C`` inside ``f``."""
        lits = [w.literal() for w in args]
        for i, lit in enumerate(lits):
            if lit is None or lit in ("-", "--") or lit[:1] not in ("-", "+"):
                return
            if lit[1:] == "o" and i + 1 < len(lits) and lits[i + 1] == "keyword" or (
                    lit[1:2] != "o" and "k" in lit[1:]):
                self._stop("set -k: arguments like `V=x` would assign")
                return

    def _declaration(self, prog: str, args: list[Word]) -> None:
        flags: set[str] = set()
        names: list[str] = []
        options = True
        for w in args:
            if len(w.parts) == 1 and isinstance(w.parts[0], DeclAssign):
                names.append(w.parts[0].assign.name)  # its value: an Assign, visited anyway
                continue
            lit = w.literal()
            if lit is None:
                self._stop(f"{prog} has an argument that is not a literal word")
                return
            if options and lit == "--":
                options = False
            elif options and lit[:1] in ("-", "+") and len(lit) > 1:
                flags.update(lit[1:] if lit[0] == "-" else "+" + lit[1:])
            elif "=" in lit:  # `export "C=cat"`: assigned (its value is not expanded again)
                name, _, value = lit.partition("=")
                names.append(name)
                if name.endswith("+") or "[" in name or not _NAME_RE.match(name):
                    self._no(name.rstrip("+"))
                else:
                    self.values.setdefault(name, set()).add(value)
                    if name == "IFS":
                        self._ifs_set = True
            else:
                names.append(lit)
                if lit == "IFS":
                    self._ifs_set = True
        if "n" in flags and prog != "export":
            self._stop(f"`{prog} -n` makes a nameref")
            return
        if not flags <= _PLAIN_FLAGS:
            for name in names:
                self._no(name)

    def _check_folded_heads(self) -> None:
        """Rule 2: a folded command name that can be a builtin setting variables."""
        for node in self._commands:
            for name, nxt in self._heads(node.words, 0):
                if name == "printf":  # a setter only as `printf -v NAME` (or unknown first word)
                    first = nxt.literal() if isinstance(nxt, Word) else nxt
                    if nxt is None or (first is not None and not first.startswith("-v")):
                        continue
                elif name not in SETTERS:
                    continue
                self._stop(f"a command name built at run time can be `{name}`")
                return

    def _heads(self, words: list[Word], depth: int) -> Iterator[tuple[str, "str | Word | None"]]:
        """The names (and first arguments) a command can run with, folding ``$V`` heads."""
        if not words or depth > 64:
            return
        lit = words[0].literal()
        if lit is not None:
            yield standard_name(lit), (words[1] if len(words) > 1 else None)
            return
        found = plain_param(words[0])
        if found is None or not self.foldable(found[0], found[1]):
            return  # refused by the guard anyway
        for value in self.possible(found[0]):
            if found[1]:
                yield value, (words[1] if len(words) > 1 else None)
                continue
            fields = split(value)
            if fields:
                yield standard_name(fields[0]), (fields[1] if len(fields) > 1 else
                                                 words[1] if len(words) > 1 else None)
            else:
                yield from self._heads(words[1:], depth + 1)

    # -- queries --------------------------------------------------------------------------

    def foldable(self, name: str, quoted: bool = True) -> bool:
        """True if every value of ``name`` is known (and, unquoted, splits plainly)."""
        if self.bail is not None or not _NAME_RE.match(name) or name in self.unfoldable:
            return False
        if name in SHELL_VARIABLES or name.startswith("BASH") or name in self._env:
            return False
        if not quoted:
            if self._ifs_set:
                return False
            if any(c in _GLOB_CHARS for v in self.values.get(name, ()) for c in v):
                return False
        return True

    def possible(self, name: str) -> list[str]:
        """Every value ``name`` can have: its literal values and the empty string, sorted."""
        return sorted(self.values.get(name, set()) | {""})


def split(value: str) -> list[str]:
    """``value`` split as an unquoted expansion with the default IFS."""
    return [f for f in _IFS_SPLIT_RE.split(value) if f]


def _word(text: str, pos: int) -> Word:
    """A literal word (no globbing, no brace expansion: as an expansion's result)."""
    return Word([Quoted(text)], pos, text)


def _shown(value: str) -> str:
    return f"`{value}`" if value else "empty"


def fold(walker: "_Walker", node: SimpleCommand) -> bool:
    """Check ``node`` once per value of its head ``$V`` (see the module docstring); False if
    the head is not a foldable variable (the guard then refuses the name as before)."""
    head = node.words[0]
    found = plain_param(head)
    if found is None:
        return False
    analysis: Analysis | None = getattr(walker, "names", None)
    source = getattr(walker, "names_source", None)
    if analysis is None and source is not None:
        analysis = walker.names = Analysis(*source)
    if analysis is None or not analysis.foldable(*found):
        return False
    name, quoted = found
    rest = node.words[1:]
    seen: set[tuple[int, str]] = set()
    for value in analysis.possible(name):
        if quoted:
            shown: str | None = value
            words = [_word(value, head.pos), *rest]
        else:
            fields = split(value)
            shown = fields[0] if fields else None
            words = [_word(f, head.pos) for f in fields] + rest
        if not words:
            continue  # nothing runs (assignments and redirections were checked already)
        before = len(walker.violations)
        walker.head_check(dataclasses.replace(node, words=words))
        found_now = walker.violations[before:]
        del walker.violations[before:]
        for v in found_now:
            message = _message(head.text, value, shown, v.message)
            if (v.pos, message) not in seen:
                seen.add((v.pos, message))
                walker.add(v.pos, message, v.syntax)
    return True


def _message(text: str, value: str, head: str | None, message: str) -> str:
    """``command name `$C` can be `rm`, which is not an allowed command (...)``."""
    prefix = f"command name `{text}` can be {_shown(value)}"
    if head is not None and head == value:
        plain = f"`{head}` is not an allowed command"
        if message.startswith(plain):
            return f"{prefix}, which is not an allowed command{message[len(plain):]}"
    return f"{prefix}: {message}"

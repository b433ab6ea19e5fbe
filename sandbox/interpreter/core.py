"""The interpreter: executes a parsed ``Script`` over the virtual filesystem.

``Shell`` holds one shell's state (variables, positional parameters, functions, cwd, options)
and runs AST nodes. Subshells, pipeline stages and command substitutions run on a copy of the
state, so their variable changes and ``cd`` don't leak. Pipelines stream through bounded pipes,
one thread per extra stage; the last stage runs in the calling thread.
"""

from __future__ import annotations

import errno
import io
import re
import threading
import time
import types
from dataclasses import dataclass
from typing import BinaryIO

from sandbox import commands as registry
from sandbox.commands.base import CommandContext, Writer
from sandbox.errors import BrokenPipe, LimitExceeded
from sandbox.fs.base import FSError
from sandbox.fs.vfs import VirtualFS
from sandbox.interpreter import conditional, namerefs, redirs, shopt, state, strops, typecmd
from sandbox.interpreter import procsub
from sandbox.interpreter.procsub import FdView
from sandbox.interpreter.arith import ArithError, ArithUnbound, evaluate
from sandbox.interpreter.expand import ArithExpansionError, ExpansionError, Expander
from sandbox.interpreter.toplevel import AbortLine, AssignFailed
from sandbox.interpreter import callstack, cmdpath
from sandbox.interpreter import pipes, traps, xtrace
from sandbox.interpreter.declare import ARRAY_MARK
from sandbox.interpreter.pipes import FileWriter, NullWriter, Pipe, RunBudget, pipe_reader
from sandbox.limits import Limits
from sandbox.parse import syntax_error_text
from sandbox.parse.ast import (
    AndOr, ArithCmd, ArithFor, Assign, BraceGroup, Case, Command, DBracket, For, FunctionDef, If,
    Lit, Pipeline, Redirect, Script, SimpleCommand, Subshell, SyntaxFailure, While, Word,
)
from sandbox.policy import Policy

#: Commands the interpreter implements itself (always available).
BUILTINS = frozenset(
    "cd pwd echo printf test [ true false export unset local read shift set return exit "
    "break continue : let shopt declare typeset readonly mapfile readarray type command getopts"
    " hash wait times umask caller trap pushd popd dirs".split()
)
#: Builtins that are commands in the registry too (we run the registry module).
_REGISTRY_BUILTINS = frozenset({"echo", "printf"})
#: The messages bash prints with ``report_error`` (``err_readonly``, ``err_badarraysub``,
#: the expansion errors): with ``set -e`` on, the shell leaves right after one of them,
#: whatever the context (``R=2 || echo x``, a function called from ``if``...).
_REPORT_ERROR_RE = re.compile(
    r"(?:: readonly variable|: bad substitution|: bad array subscript|: cannot assign in this way"
    r"|: invalid variable name|: invalid indirect expansion"
    r"|: must use subscript when assigning associative array)\Z")
#: Builtins that are programs too (/usr/bin/test ...), so find -exec / xargs may run them.
_PROGRAM_BUILTINS = frozenset({"true", "false", "test", "[", "echo", "printf", "pwd"})
#: Names no sub-command may be (they would run a string as code or change the shell).
_FORBIDDEN_RUN = frozenset({"eval", "source", ".", "exec", "command", "builtin"})


_TRACE_SAFE = re.compile(r"[A-Za-z0-9_./:=,+@%-]+")


def _trace_quote(word: str) -> str:
    """A word as ``set -x`` shows it: bare when it is safe, else single-quoted."""
    if _TRACE_SAFE.fullmatch(word):
        return word
    name, eq, value = word.partition("=")
    if eq and _TRACE_SAFE.fullmatch(name) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*\+?", name):
        return name + "=" + (value if _TRACE_SAFE.fullmatch(value) else strops.quote(value))
    return strops.quote(word)


#: Compound commands after which ``$PIPESTATUS`` is what their last inner pipeline set.
_KEEPS_PIPESTATUS = (BraceGroup, If, For, While, Case, ArithFor, FunctionDef)
#: Compounds whose own status never triggers ``set -e`` (only the commands inside do).
_NO_ERREXIT = (BraceGroup, If, For, While, Case, ArithFor, FunctionDef)

#: Builtins whose ``name=(...)`` arguments are array literals (``set -x`` shows them first).
_DECLARATION_BUILTINS = frozenset({"declare", "typeset", "local", "readonly", "export"})
#: Builtins of ``Policy(dynamic=True)`` (``sandbox.interpreter.dynamic``).
_DYNAMIC_NAMES = frozenset({"eval", "source", ".", "bash", "sh"})
#: A variable ``printf -v`` may assign: a name or ``name[subscript]``.
_VAR_TARGET_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[.+\])?")
_VAR_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


#: Variables bash sets at startup whatever the environment holds (``echo "$IFS"`` shows
#: space, tab, newline; ``OLDIFS=$IFS ... IFS=$OLDIFS`` must give the default back).
_SHELL_DEFAULTS = {"IFS": " \t\n", "OPTIND": "1", "OSTYPE": "linux-gnu"}


class ExitShell(Exception):
    """``exit N`` (or a fatal error): leaves the current shell or subshell."""

    def __init__(self, status: int, from_expansion: bool = False):
        self.status = status
        self.from_expansion = from_expansion


class LoopControl(Exception):
    """``break N`` / ``continue N``; ``status`` is the status of the loops it ends (1 after
    ``break 0``, which leaves every enclosing loop, as bash's ``breaking = loop_level``)."""

    def __init__(self, kind: str, levels: int, status: int = 0):
        self.kind = kind
        self.levels = levels
        self.status = status


class ReturnFromFunction(Exception):
    """``return N``."""

    def __init__(self, status: int):
        self.status = status


@dataclass
class IO:
    """The standard streams of a command."""

    stdin: BinaryIO
    stdout: Writer
    stderr: Writer


class _BufferWriter:
    """Captures a command substitution's output, bounded by the string length limit."""

    def __init__(self, budget: RunBudget):
        self.buf = bytearray()
        self.budget = budget

    def write(self, data: bytes) -> int:
        self.buf += data
        self.budget.check_string(len(self.buf))
        return len(data)

    def flush(self) -> None:
        pass


def _read_file_form(body: Script) -> Redirect | None:
    """The ``<`` redirection of a ``$(< file)`` substitution, else None."""
    if len(body.items) != 1 or body.items[0].rest or body.items[0].background:
        return None
    pipe = body.items[0].first
    if len(pipe.commands) != 1 or pipe.negate:
        return None
    cmd = pipe.commands[0]
    if (isinstance(cmd, SimpleCommand) and not cmd.words and not cmd.assigns
            and len(cmd.redirects) == 1 and cmd.redirects[0].op == "<"
            and cmd.redirects[0].fd in (None, 0)):
        return cmd.redirects[0]
    return None


#: The word of the internal command that ``$(< file)`` runs (matched by identity only).
_CAT_WORD = Word([Lit("<read-file>")], 0, "")
#: The empty, unchangeable mapping the lazily made dicts of ``Shell`` start as.
_EMPTY_MAP = types.MappingProxyType({})


class Shell:
    """One shell (the script's, or a subshell's copy) and the code that runs AST nodes."""

    # Scalar state starts from these class-level values (immutable, so shared safely; an
    # assignment gives the instance its own): a run builds only the containers below.
    arg0 = "bash"
    status = 0
    #: ``$PIPESTATUS`` (bash: empty until the first pipeline ends); ``BASH_REMATCH`` (set
    #: by ``[[ =~ ]]``): the whole match, then each group. Both are replaced, never changed.
    pipestatus: "list[int] | tuple[()]" = ()
    rematch: "list[str] | tuple[()]" = ()
    #: ``$RANDOM``'s generator state (None: seeded from the clock when first used).
    rand_seed: int | None = None
    rand_last = 0
    seconds_offset = 0
    #: ``set -f`` (no globbing), ``set -C`` (``>`` does not overwrite a file).
    noglob = False
    noclobber = False
    #: ``set -x``: each simple command traced on stderr after expansion.
    xtrace = False
    #: Where ``getopts`` is inside a group of options (``-abc``): OPTIND and offset.
    getopts_ind = 0
    getopts_pos = 0
    errexit = False
    pipefail = False
    nounset = False
    errexit_off = 0  # >0 inside if/while conditions and && || left sides
    #: ``$LINENO`` and ``caller`` (``sandbox.interpreter.callstack``): the text running,
    #: its newline offsets, the line it starts after, the running command's offset.
    source = ""
    source_lines: list[int] | None = None
    line_base = 0
    cur_pos = 0
    #: ``$BASH_COMMAND``: the simple command, ``(( ))`` or ``[[ ]]`` running (the one that
    #: was running when a trap's action runs); a ``[[ ]]`` comes with the text it is in.
    cur_command: object = None
    break_status = 0  # the status of a loop ``break`` ended (``LoopControl.status``)
    loop_depth = 0
    call_depth = 0
    nesting = 0
    status_before = 0
    _sub_status: int | None = None
    _current_stdin: BinaryIO | None = None
    #: ``$BASH_SUBSHELL``: how many subshells (``( )``, ``$( )``, ``<( )``) deep.
    subshell_depth: int = 0
    #: How many command or process substitutions deep (``set -x``'s ``++``).
    trace_level: int = 0
    _current_stderr: Writer = NullWriter()
    # Rarely used containers start as these empty immutable ones; the code that adds to one
    # first gives the shell its own (``own_set`` / ``own_dict``).
    #: Names declared without a value (``declare x``: ``declare -p`` shows them).
    declared: "set[str] | frozenset[str]" = frozenset()
    #: Attributes hidden by ``local``/``declare`` per function depth (restored on return).
    local_attrs: "dict[int, dict[str, set[str] | None]]" = _EMPTY_MAP  # type: ignore[assignment]
    #: The elements of ``declare a=(...)`` arguments being run (see ``declare.py``).
    decl_arrays: "dict[str, list[tuple[str | None, str]]]" = _EMPTY_MAP  # type: ignore[assignment]
    #: Special variables (``RANDOM``, ``SECONDS``...) unset by the script: plain now.
    unset_specials: "set[str] | frozenset[str]" = frozenset()
    #: Functions given the export attribute (``export -f``).
    exported_funcs: "set[str] | frozenset[str]" = frozenset()
    #: ``local -`` in the function at each depth: the set options to put back.
    local_opts: "dict[int, dict[str, object]]" = _EMPTY_MAP  # type: ignore[assignment]
    #: ``trap`` (``traps.py``): signal number -> action; a subshell's parent's, shown only;
    #: the traps running; (signal, ``$?``) of the innermost running; ``set -E`` / ``set -T``.
    traps: "dict[int, str]" = _EMPTY_MAP  # type: ignore[assignment]
    trap_ghosts: "dict[int, str] | None" = None
    trap_busy: frozenset = frozenset()
    trap_saved: "tuple[int, int] | None" = None
    errtrace = False
    functrace = False

    def own_set(self, name: str) -> set:
        """The shell's own (mutable) set ``name`` (one of the lazily made ones above)."""
        value = getattr(self, name)
        if not isinstance(value, set):
            value = set(value)
            setattr(self, name, value)
        return value

    def own_dict(self, name: str) -> dict:
        """The shell's own (mutable) dict ``name`` (one of the lazily made ones above)."""
        value = getattr(self, name)
        if not isinstance(value, dict):
            value = dict(value)
            setattr(self, name, value)
        return value

    def __init__(self, fs: VirtualFS, cwd: str, policy: Policy, limits: Limits,
                 budget: RunBudget, env: dict[str, str]):
        self.fs = fs
        self.cwd = cwd
        self.policy = policy
        self.limits = limits
        self.budget = budget
        self.vars: dict[str, str] = dict(env)
        self.exported: set[str] = set(env)
        for name, value in _SHELL_DEFAULTS.items():  # bash sets these (not exported)
            self.vars.setdefault(name, value)
        #: The last process number given (shared by the subshells) and this shell's.
        self.pids = [1000]
        self.bashpid = 1000
        self.vars.setdefault("_", self.arg0)  # `$_`: the shell's name until a command runs
        self.positional: list[str] = []
        self.functions: dict[str, FunctionDef] = {}
        #: The ``shopt`` options that are on.
        self.shopts: set[str] = set(shopt.DEFAULT_ON)
        #: Arrays (``sandbox.interpreter.state``): name -> {index or key: value}.
        self.arrays: dict[str, dict] = {}
        #: Names of the associative arrays.
        self.assoc: set[str] = set()
        #: Attributes set by ``declare`` (``i`` ``l`` ``u`` ``r``), by name.
        self.attrs: dict[str, set[str]] = {}
        #: ``$SECONDS``'s start, the function call stack.
        self.start_time = time.monotonic()
        self.funcstack: list[str] = []
        #: Outputs of the process substitutions of the command being run: /dev/fd/N -> bytes.
        self.procsubs: dict[str, object] = {}
        #: Descriptors 3 and up (``exec 3>f``, ``{fd}>f``): number -> stream (redirs.py).
        self.fdmap: dict[int, object] = {}
        #: ``>(cmd)`` of the command being run: each runs on what was written, once it ends.
        self.outsubs: list[object] = []
        #: ``hash``: commands found by name -> times run (``typecmd.py``).
        self.hashed: dict[str, int] = {}
        self.locals: list[dict[str, str | None]] = []
        #: The line each running function was called from (``$BASH_LINENO``).
        self.call_lines: list[int] = []
        #: The saved values of the temporary bindings of the functions running (``A=1 f``).
        self.temp_frames: list[dict[str, str | None]] = []
        self.expander = Expander(self)
        #: Embedder-defined commands (``Sandbox(commands=...)``), looked up before the registry.
        self.commands: dict[str, registry.Command] = {}

    # -- state ----------------------------------------------------------------------------

    def copy(self) -> "Shell":
        """A subshell: same filesystem and budget, copied variables/cwd/functions."""
        sub = Shell.__new__(Shell)
        sub.__dict__.update(self.__dict__)
        sub.vars = dict(self.vars)
        sub.exported = set(self.exported)
        sub.positional = list(self.positional)
        sub.functions = dict(self.functions)
        sub.pipestatus = list(self.pipestatus)
        sub.shopts = set(self.shopts)
        sub.arrays = {k: dict(v) for k, v in self.arrays.items()}
        sub.assoc = set(self.assoc)
        sub.attrs = {k: set(v) for k, v in self.attrs.items()}
        # the lazily made containers: a copy of each the shell has its own of (none if empty)
        mine = sub.__dict__
        for name in ("declared", "local_attrs", "decl_arrays", "unset_specials", "local_opts",
                     "exported_funcs"):
            if name in mine:
                del mine[name]
        if self.declared:
            sub.declared = set(self.declared)
        if self.local_attrs:
            sub.local_attrs = {k: dict(v) for k, v in self.local_attrs.items()}
        sub.procsubs = dict(self.procsubs)
        sub.fdmap = dict(self.fdmap)
        sub.outsubs = []
        sub.hashed = dict(self.hashed)
        sub.funcstack = list(self.funcstack)
        sub.locals = [dict(f) for f in self.locals]
        sub.temp_frames = [dict(f) for f in self.temp_frames]
        sub.call_lines = list(self.call_lines)
        if self.unset_specials:
            sub.unset_specials = set(self.unset_specials)
        if self.exported_funcs:
            sub.exported_funcs = set(self.exported_funcs)
        if self.local_opts:
            sub.local_opts = dict(self.local_opts)
        sub.rand_seed = None  # bash reseeds $RANDOM in a subshell (state.py: when first used)
        self.pids[0] += 1  # `$BASHPID`: each subshell is a process of its own ($$ stays)
        sub.bashpid = self.pids[0]
        sub.rand_last = 0
        sub.loop_depth = 0
        sub.expander = Expander(sub)
        if "traps" in mine or self.trap_ghosts is not None:  # a subshell: its own traps
            traps.for_subshell(sub, self)
        return sub

    def get_var(self, name: str) -> str | None:
        """A variable or special parameter's value (None if unset)."""
        if self.attrs and namerefs.is_ref(self, name):
            name = namerefs.for_read(self, name)  # type: ignore[assignment]
            if name is None:
                return None
        if name in self.vars:
            return self.vars[name]
        if len(name) == 1 and not name.isalpha() and name != "_":
            if name == "?":
                return str(self.status)
            if name == "#":
                return str(len(self.positional))
            if name == "0":
                return self.arg0
            if name.isdigit():
                k = int(name)
                return self.positional[k - 1] if k <= len(self.positional) else None
            if name in "@*":
                return " ".join(self.positional) if self.positional else None
            if name == "$":
                return "1000"
            if name == "!":
                return None
            if name == "-":  # bash's flag order; `c`: the script runs as `bash -c` does
                return "".join(c for c, on in (
                    ("e", self.errexit), ("f", self.noglob), ("h", True), ("u", self.nounset),
                    ("x", self.xtrace), ("B", True), ("C", self.noclobber), ("E", self.errtrace),
                    ("T", self.functrace), ("c", True)) if on)
        if name.isdigit():
            k = int(name)
            return self.positional[k - 1] if 0 < k <= len(self.positional) else None
        if name == "PIPESTATUS":
            return str(self.pipestatus[0]) if self.pipestatus else None
        if name == "BASH_REMATCH":
            return self.rematch[0] if self.rematch else None
        if name in self.arrays:
            arr = self.arrays[name]
            return arr.get("0" if name in self.assoc else 0)
        if name in state.SPECIALS and name not in self.unset_specials:
            return state.special(self, name)
        if name.endswith("]"):
            base, idx = state.split_name(name)
            if idx is None:
                return None
            if idx in ("@", "*"):
                values = self.list_var(name)
                return " ".join(values) if values else None
            if base in ("PIPESTATUS", "BASH_REMATCH") or (
                    base in state.SPECIALS and base not in self.arrays):
                values = self.list_var(base + "[@]") or []
                try:
                    k = state.index_of(self, "", idx, False)
                except state.SubscriptError:
                    return None
                return values[k] if isinstance(k, int) and k < len(values) else None
            return state.get(self, base, idx)
        return None

    def nameref_target(self, name: str) -> str:
        """The variable a nameref ``name`` finally names (``name`` itself otherwise)."""
        if not (self.attrs and namerefs.is_ref(self, name)):
            return name
        try:
            return namerefs.resolve(self, name)
        except namerefs.CircularRef:
            return name

    def var_visible(self, name: str) -> bool:
        """Whether variable ``name`` (an array or a scalar, through a nameref) is set, as
        bash's ``set -u`` check of ``a[i]`` in arithmetic sees it: ``a=()`` is set,
        ``declare -a a`` (no value yet) is not."""
        if self.attrs and namerefs.is_ref(self, name):
            target = namerefs.for_read(self, name)
            if target is None or target == name:
                return False
            name = target.partition("[")[0]
        if name in self.vars:
            return True
        if name in self.arrays:
            from sandbox.interpreter.declare import UNSET_ARRAY
            return bool(self.arrays[name]) or UNSET_ARRAY not in self.attrs.get(name, ())
        return self.get_var(name) is not None

    def list_var(self, name: str) -> list[str] | None:
        """Multi-valued parameters: ``@``/``*`` and ``NAME[@]`` (PIPESTATUS, or a scalar)."""
        if name in ("@", "*"):
            return list(self.positional)
        if self.attrs and namerefs.is_ref(self, name):
            name = namerefs.for_read(self, name)  # type: ignore[assignment]
            if name is None:
                return []
        if name.endswith("]"):
            base = name.partition("[")[0]
            if base == "PIPESTATUS":
                return [str(s) for s in self.pipestatus]
            if base == "BASH_REMATCH":
                return list(self.rematch)
            if base in state.SPECIALS and base not in self.arrays and base not in self.vars \
                    and base not in self.unset_specials:
                special = state.special_list(self, base)
                if special is not None:
                    return special
                one = state.special(self, base)
                return [] if one is None else [one]
            return state.values(self, base) or []
        return None

    def set_rematch(self, groups: list[str]) -> None:
        """Set ``BASH_REMATCH`` after a ``[[ =~ ]]`` test."""
        self.rematch = groups

    def set_var(self, name: str, value: str) -> None:
        """Assign a shell variable (checked against the string length limit); ``a[sub]``
        and an array's name (its element 0) assign an element."""
        if self.attrs and namerefs.is_ref(self, name):
            name = namerefs.for_write(self, name, value)  # type: ignore[assignment]
            if name is None:
                return
        if name in self.arrays:
            state.set_element(self, name, "0", value)
            return
        if name.endswith("]") and "[" in name:
            base, sub = state.split_name(name)
            state.set_element(self, base, sub or "", value)
            return
        if self.attrs and name in self.attrs:
            value = self._with_attrs(name, value)
        if name in state.SPECIALS and name not in self.unset_specials:
            if name == "RANDOM":
                state.seed_random(self, value)
                return
            if name == "SRANDOM":  # bash ignores what is assigned to it
                return
            if name == "SECONDS":
                self.seconds_offset = int(value) if value.lstrip("-").isdigit() else 0
                self.start_time = time.monotonic()
                return
        self.budget.check_string(len(value))
        self.vars[name] = value

    def _with_attrs(self, name: str, value: str) -> str:
        """A value as ``declare``'s attributes make it (read-only refuses: fatal)."""
        at = self.attrs[name]
        if "r" in at:
            raise AssignFailed(f"{name}: readonly variable")
        if "i" in at:
            try:
                value = str(evaluate(value, self, self.nounset, self.budget.check_time))
            except ArithUnbound as exc:
                raise ExpansionError(str(exc), status=exc.status) from None
            except ArithError as exc:
                raise ExpansionError(str(exc), status=exc.status) from None
        if "l" in at:
            value = value.lower()
        elif "u" in at:
            value = value.upper()
        return value

    def unset_var(self, name: str) -> None:
        """Remove a variable (or, ``a[sub]``, one element)."""
        if self.attrs and namerefs.is_ref(self, name):
            name = namerefs.for_read(self, name)  # type: ignore[assignment]
            if name is None:
                return
        if name.endswith("]") and "[" in name:
            base, sub = state.split_name(name)
            state.unset_element(self, base, sub or "")
            return
        if self.temp_frames and name in self.temp_frames[-1] and not (
                self.locals and name in self.locals[-1]):
            old = self.temp_frames[-1].pop(name)  # the temporary binding goes: the old value shows
            if old is not None:
                self.vars[name] = old
                return
        if self.attrs:  # the attributes go with the variable (a nameref's own `n` too)
            self.attrs.pop(name, None)
        if name in state.SPECIALS:  # `unset RANDOM`: a plain variable from now on, as in bash
            self.own_set("unset_specials").add(name)
        if self.declared:
            self.declared.discard(name)  # type: ignore[union-attr]
        self.vars.pop(name, None)
        self.arrays.pop(name, None)
        self.assoc.discard(name)
        self.exported.discard(name)

    def save_var(self, name: str) -> object:
        """What ``restore_var`` needs to put ``name`` back (``local``, temporary assignments)."""
        if name in self.arrays:
            return (self.arrays[name], name in self.assoc)
        return self.vars.get(name)

    def restore_var(self, name: str, old: object) -> None:
        """Put back a variable saved by ``save_var``."""
        self.arrays.pop(name, None)
        self.assoc.discard(name)
        if old is None:
            self.vars.pop(name, None)
        elif isinstance(old, tuple):
            self.vars.pop(name, None)
            self.arrays[name] = old[0]
            if old[1]:
                self.assoc.add(name)
        else:
            self.vars[name] = old  # type: ignore[assignment]

    def environ(self) -> dict[str, str]:
        """The exported variables a command sees."""
        return {k: v for k, v in self.vars.items() if k in self.exported}

    # -- messages -------------------------------------------------------------------------

    def diag(self, io_: IO, message: str) -> None:
        """Print a shell diagnostic (``bash: line N: message``) on stderr (lost if it is
        closed); after one bash prints with ``report_error``, ``set -e`` leaves."""
        try:
            io_.stderr.write(f"{callstack.error_prefix(self)}{message}\n".encode(
                "utf-8", "surrogateescape"))
        except OSError:  # `2>&-`: bash's message has nowhere to go either
            pass
        if self.errexit and _REPORT_ERROR_RE.search(message) and \
                message.partition(": ")[0] not in BUILTINS:  # (a builtin's error does not)
            self.report_error_exit()

    def report_error_exit(self) -> None:
        """bash's ``report_error``: with ``set -e`` on, the shell (or subshell) leaves at once,
        with ``$?`` or 1."""
        if self.errexit:
            raise ExitShell(self.status or 1)

    # -- execution ------------------------------------------------------------------------

    def run_script(self, script: Script, io_: IO) -> int:
        """Run a list of and-or lists; returns the last status."""
        for item in script.items:
            self.run_andor(item, io_)
        return self.status

    def run_andor(self, node: AndOr, io_: IO) -> int:
        """``a && b || c``."""
        self.budget.check_time()
        if node.rest:
            self.errexit_off += 1
            try:
                status = self.run_pipeline(node.first, io_)
                for k, (op, pipe) in enumerate(node.rest):
                    last = k == len(node.rest) - 1
                    if (op == "&&") == (status == 0):
                        if last:
                            self.errexit_off -= 1
                            try:
                                status = self.run_pipeline(pipe, io_)
                            finally:
                                self.errexit_off += 1
                        else:
                            status = self.run_pipeline(pipe, io_)
            finally:
                self.errexit_off -= 1
            return status
        return self.run_pipeline(node.first, io_)

    def _check_errexit(self, status: int, negate: bool, io_: "IO | None" = None) -> None:
        if status != 0 and self.errexit_off == 0 and not negate:
            if self.traps and io_ is not None:  # the ERR trap runs where set -e would exit
                traps.on_err(self, status, io_)
            if self.errexit:
                raise ExitShell(status)

    def run_pipeline(self, node: Pipeline, io_: IO) -> int:
        """A pipeline: stages connected by bounded pipes; last stage in this thread."""
        if node.timed is not None:
            return pipes.timed(self, node, io_)
        cmds = node.commands
        # bash runs the ERR trap after a command only if it was set before the command ran
        err_io = io_ if self.traps and traps.ERR in self.traps else None
        # `! cmd` with set -e on: bash marks it CMD_IGNORE_RETURN, so nothing inside it (a
        # function, a group, a subshell, even after a `set -e` there) exits; with set -e off
        # a `set -e` inside takes effect
        negated_errexit = node.negate and self.errexit
        if negated_errexit:
            self.errexit_off += 1
        try:
            if len(cmds) == 1:
                status = self.run_command(cmds[0], io_)
                statuses = [status]
            else:
                statuses = self._run_stages(node, io_)
                status = statuses[-1]
                if self.pipefail:
                    for s in reversed(statuses):
                        if s != 0:
                            status = s
                            break
        finally:
            if negated_errexit:
                self.errexit_off -= 1
        if node.negate:
            status = 0 if status != 0 else 1
        if len(cmds) > 1 or not isinstance(cmds[0], _KEEPS_PIPESTATUS):
            self.pipestatus = statuses  # a compound keeps what its last pipeline set
        self.status = status
        if not node.negate and (len(cmds) > 1 or not isinstance(cmds[0], _NO_ERREXIT)):
            self._check_errexit(status if len(cmds) > 1 else statuses[-1], False, err_io)
        return status

    def _run_stages(self, node: Pipeline, io_: IO) -> list[int]:
        cmds = node.commands
        n = len(cmds)
        pipes = [Pipe(self.budget) for _ in range(n - 1)]
        statuses = [0] * n
        threads: list[threading.Thread] = []

        lastpipe = "lastpipe" in self.shopts

        def stage(i: int) -> None:
            if lastpipe and i == n - 1:  # shopt -s lastpipe: the last stage runs in this shell
                try:
                    statuses[i] = self.run_command(cmds[i], IO(pipe_reader(pipes[i - 1]),
                                                             io_.stdout, io_.stderr))
                finally:
                    pipes[i - 1].close_reader()
                return
            sub = self.copy()
            sub.errexit_off = 0
            stdin = io_.stdin if i == 0 else pipe_reader(pipes[i - 1])
            stdout = pipes[i] if i < n - 1 else io_.stdout
            stderr = pipes[i] if i < n - 1 and node.stderr_pipes[i] else io_.stderr
            try:
                stage_io = IO(stdin, stdout, stderr)
                statuses[i] = sub.run_subshell_body(
                    lambda: sub.run_command(cmds[i], stage_io), stage_io,
                    compound=not isinstance(cmds[i], SimpleCommand))
            except LimitExceeded as exc:
                self.budget.fail(exc)
                statuses[i] = exc.exit_code
            except RecursionError:
                exc = LimitExceeded("recursion_depth", "recursion limit exceeded in a pipeline "
                                    "stage; nest or recurse less")
                self.budget.fail(exc)
                statuses[i] = 125
            except FSError as exc:  # e.g. a redirection's file failing as the stage ends
                where = f"{exc.path}: " if exc.path else ""
                stderr.write(f"{callstack.error_prefix(self)}{where}{exc}\n".encode(
                    "utf-8", "surrogateescape"))
                statuses[i] = 1
            except Exception as exc:  # never a traceback from a stage thread
                stderr.write(f"bash: internal error ({type(exc).__name__})\n".encode())
                statuses[i] = 1
            finally:
                if i < n - 1:
                    pipes[i].close_writer()
                if i > 0:
                    pipes[i - 1].close_reader()

        self.budget.start_stages(n - 1)

        def stage_thread(i: int) -> None:
            try:
                stage(i)
            finally:
                self.budget.end_stages(1)

        for i in range(n - 1):
            t = threading.Thread(target=stage_thread, args=(i,), daemon=True, name="sandbox-stage")
            threads.append(t)
            try:
                t.start()
            except RuntimeError:  # the host can't start more threads
                threads.pop()
                self.budget.end_stages(1)
                exc = LimitExceeded("pipeline_stages", "could not start a pipeline stage; "
                                    "use fewer or shorter pipelines")
                self.budget.fail(exc)
                pipes[i].close_writer()
                raise exc
        try:
            stage(n - 1)
        finally:
            # Stages notice a failed run at their next budget check (pipes wake up every
            # 50 ms); once the run has failed we don't wait for them (daemon threads).
            for t in threads:
                while t.is_alive() and self.budget.failure is None:
                    t.join(0.05)
                    try:
                        self.budget.check_time()
                    except LimitExceeded:
                        break
        if self.budget.failure is not None:
            raise self.budget.failure
        return statuses

    def run_subshell_body(self, body, io_: "IO | None" = None,  # type: ignore[no-untyped-def]
                          compound: bool = False) -> int:
        """Run ``body()`` as a subshell: ``exit`` ends only it; BrokenPipe is status 141;
        then the EXIT trap it set (on ``io_``). In a ``compound`` one (``( )``, a group or
        loop as a pipeline part) a fatal expansion error (``set -u``, ``${x:?}``) is status
        1, as bash's child returns from its top level; elsewhere it keeps its 127."""
        try:
            status = body()
        except ExitShell as e:
            status = 1 if compound and e.from_expansion else e.status
        except BrokenPipe:
            return 141
        except (LoopControl, ReturnFromFunction, AbortLine) as e:
            status = getattr(e, "status", 0)
        if self.traps and io_ is not None:
            status = traps.at_exit(self, io_, status)
        return status

    def run_command(self, cmd: Command, io_: IO) -> int:
        """Run one command of a pipeline. An expansion or arithmetic error that no inner
        handler took ends the command with bash's message (never an internal error)."""
        try:
            return self._run_command(cmd, io_)
        except ExpansionError as exc:
            return self._expansion_failed(exc, io_)
        except (ArithError, state.SubscriptError) as exc:
            self.diag(io_, str(exc))
            self.status = 1
            return 1

    def _run_command(self, cmd: Command, io_: IO) -> int:
        if isinstance(cmd, SimpleCommand):
            return self.run_simple(cmd, io_)
        self.nesting += 1
        try:
            if self.nesting > self.limits.recursion_depth * 2:
                raise LimitExceeded("recursion_depth", f"nesting limit of "
                                    f"{self.limits.recursion_depth * 2} exceeded; "
                                    "nest fewer commands")
            if isinstance(cmd, FunctionDef):
                self.functions[cmd.name] = cmd
                self.status = 0
                return 0
            if isinstance(cmd, SyntaxFailure):
                leave = self._syntax_failure(cmd, io_)
                if leave is not None:
                    raise leave
                self.status = 1  # (an array assignment that does not parse: bash reads on)
                return 1
            mark = len(self.outsubs)
            redirected = self.open_redirects(cmd.redirects, io_)
            if redirected is None:
                self.status = 1
                self._check_errexit(1, False, io_)  # `{ ...; } < missing` fails like a command
                return 1
            new_io, closers = redirected
            if isinstance(cmd, (For, ArithCmd, ArithFor, DBracket, Case)):
                self.cur_pos = cmd.pos  # bash's line for $LINENO and this command's messages
                if isinstance(cmd, (ArithCmd, DBracket)) and not self.trap_busy:
                    self.cur_command = (cmd, self.source)
            try:
                if isinstance(cmd, BraceGroup):
                    status = self.run_script(cmd.body, new_io)
                elif isinstance(cmd, Subshell):
                    sub = self.copy()
                    sub.subshell_depth += 1
                    sub_io = IO(new_io.stdin, new_io.stdout, new_io.stderr)  # exec stays inside
                    status = sub.run_subshell_body(lambda: sub.run_script(cmd.body, sub_io),
                                                   sub_io, compound=True)
                elif isinstance(cmd, If):
                    status = self.run_if(cmd, new_io)
                elif isinstance(cmd, For):
                    status = self.run_for(cmd, new_io)
                elif isinstance(cmd, While):
                    status = self.run_while(cmd, new_io)
                elif isinstance(cmd, ArithCmd):
                    value = self.arith_value(cmd.expr, new_io, traced="(( ))")
                    status = 1 if value is None or value == 0 else 0
                elif isinstance(cmd, ArithFor):
                    status = self.run_arith_for(cmd, new_io)
                elif isinstance(cmd, Case):
                    status = conditional.run_case(self, cmd, new_io)
                elif isinstance(cmd, DBracket):
                    status = conditional.run_dbracket(self, cmd, new_io)
                else:  # pragma: no cover
                    raise TypeError(type(cmd).__name__)
            finally:
                self.close_redirects(closers)
            if len(self.outsubs) > mark:  # `done > >(cmd)`
                procsub.run_pending(self, io_, mark)
            self.status = status
            return status
        finally:
            self.nesting -= 1

    def _syntax_failure(self, cmd: SyntaxFailure, io_: IO) -> ExitShell | None:
        """The line that does not parse, reached after the lines before it ran: print the
        error as a syntax error is printed and leave with bash's status (None: stay, the
        rule ``discard`` without ``set -e``)."""
        # bash's parser_error leaves at once, status 2, when errexit is on: only the first
        # line of the message is printed (not the `LINE' echo)
        echo = None if self.errexit else cmd.echo_line
        try:
            io_.stderr.write(syntax_error_text(cmd.message, echo).encode("utf-8", "replace"))
        except OSError:  # pragma: no cover - stderr closed
            pass
        if self.errexit:
            status = 2
        elif cmd.status_rule == "discard":
            return None
        elif cmd.status_rule == "keep":
            status = self.status
        elif cmd.status_rule == "quote":
            status = self.status or 2
        elif cmd.status_rule == "1":
            status = 1
        else:
            status = 2
        return ExitShell(status)

    def run_condition(self, script: Script, io_: IO) -> int:

        """Run an if/while condition (``set -e`` does not apply inside)."""
        self.errexit_off += 1
        try:
            return self.run_script(script, io_)
        finally:
            self.errexit_off -= 1

    def run_if(self, node: If, io_: IO) -> int:

        """``if``/``elif``/``else``."""
        for cond, body in node.clauses:
            if self.run_condition(cond, io_) == 0:
                return self.run_script(body, io_)
        if node.else_body is not None:
            return self.run_script(node.else_body, io_)
        self.status = 0
        return 0

    def run_for(self, node: For, io_: IO) -> int:

        """``for var in words`` (each iteration counts against the loop limit)."""
        if not _VAR_NAME_RE.fullmatch(node.var):
            self.diag(io_, f"`{node.var}': not a valid identifier")
            self.status = 1
            return 1
        self._current_stdin, self._current_stderr = io_.stdin, io_.stderr
        try:
            items = (self.expander.words(node.words) if node.words is not None
                     else list(self.positional))
        except ExpansionError as exc:
            return self._expansion_failed(exc, io_)
        status = 0
        self.status = 0
        self.loop_depth += 1
        shown = ("for " + node.var + " in " + (" ".join(w.text for w in node.words)
                                                if node.words is not None else '"$@"'))
        try:
            for item in items:
                self.budget.count_iteration()
                if self.xtrace:
                    xtrace.line(self, io_, shown)
                try:
                    if self.attrs and namerefs.is_ref(self, node.var):
                        self.vars[node.var] = item  # a nameref loop variable names each item
                    else:
                        self.set_var(node.var, item)
                except ExpansionError as exc:  # `for X in ...` with X readonly: the loop ends
                    self.diag(io_, str(exc))
                    self.status = 1
                    return 1
                body_status = self._loop_body(node.body, io_)
                if body_status is None:
                    status = self.break_status
                    break
                status = body_status
        finally:
            self.loop_depth -= 1
        return status

    def _loop_body(self, body: Script, io_: IO) -> int | None:
        """Run one pass of a ``for`` loop's body: its status (0 after ``continue``), or None
        when ``break`` ends the loop. A ``break``/``continue`` aimed at an outer loop goes on
        up with one level less."""
        try:
            return self.run_script(body, io_)
        except LoopControl as lc:
            if lc.levels > 1:
                lc.levels -= 1
                raise
            self.break_status = lc.status
            return None if lc.kind == "break" else 0

    def run_while(self, node: While, io_: IO) -> int:

        """``while``/``until`` (each iteration counts against the loop limit)."""
        status = 0
        self.loop_depth += 1
        try:
            while True:
                self.budget.count_iteration()
                try:
                    cond = self.run_condition(node.cond, io_)
                    if (cond == 0) == node.until:
                        break
                    status = self.run_script(node.body, io_)
                except LoopControl as lc:
                    status = lc.status
                    if lc.levels > 1:
                        lc.levels -= 1
                        raise
                    if lc.kind == "break":
                        break
        finally:
            self.loop_depth -= 1
        self.status = status
        return status

    def arith_value(self, expr: Word, io_: IO, traced: str = "") -> int | None:
        """Evaluate the expression of ``(( ))`` / ``for (( ))``; on an arithmetic error print
        bash's ``((: ...`` message and return None (an expansion error inside is fatal).
        ``traced``: ``"(( ))"`` or ``"for"``, how ``set -x`` shows it."""
        self._current_stdin, self._current_stderr = io_.stdin, io_.stderr
        try:
            text = self.expander.arith_word(expr)
        except ExpansionError as exc:
            self._expansion_failed(exc, io_)
            return None
        if traced and self.xtrace:  # ((  x + 1  )) as written; a for part without its lead
            shown = text if traced != "for" else text.lstrip(" \t\n")
            xtrace.line(self, io_, f"(( {shown} ))")
        return self.arith_text(text, io_, "((")

    def arith_text(self, text: str, io_: IO, prog: str) -> int | None:
        """Evaluate an expanded arithmetic expression (``(( ))``, ``let``); on an error print
        bash's ``prog: ...`` message and return None (an unbound variable under ``set -u``
        is fatal, as in bash)."""
        try:
            return evaluate(text, self, self.nounset, self.budget.check_time)
        except AssignFailed as exc:  # `(( ro = 1 ))`: an error, the line goes on
            self.diag(io_, str(exc))
            return None
        except ExpansionError as exc:
            self._expansion_failed(exc, io_)
            return None
        except ArithUnbound as exc:
            self._expansion_failed(ExpansionError(str(exc), status=exc.status), io_)
            return None
        except ArithError as exc:
            self.diag(io_, f"{prog}: {exc}")
            return None

    def run_arith_for(self, node: ArithFor, io_: IO) -> int:
        """``for (( init; cond; step ))`` (each iteration counts against the loop limit)."""
        if self.arith_value(node.init, io_, traced="for") is None:
            return 1
        status = 0
        self.status = 0
        test_always_true = not node.cond.text.strip(" \t\n")
        self.loop_depth += 1
        try:
            while True:
                self.budget.count_iteration()
                if not test_always_true:
                    value = self.arith_value(node.cond, io_, traced="for")
                    if value is None:
                        status = 1
                        break
                    if value == 0:
                        break
                body_status = self._loop_body(node.body, io_)
                if body_status is None:
                    status = self.break_status
                    break
                status = body_status
                if self.arith_value(node.step, io_, traced="for") is None:
                    status = 1
                    break
        finally:
            self.loop_depth -= 1
        self.status = status
        return status

    # -- simple commands ------------------------------------------------------------------

    def _expansion_failed(self, exc: ExpansionError, io_: IO) -> int:
        self.diag(io_, str(exc))
        self.status = 1
        if isinstance(exc, (AssignFailed, ArithExpansionError)):  # bash abandons the line
            raise AbortLine(1)
        if exc.fatal:
            raise self.fatal_exit(exc.status)
        return 1

    def fatal_exit(self, status: int) -> ExitShell:
        """The exit of a fatal expansion error (``set -u``'s unbound variable, ``${v:?}``):
        bash -c leaves with 127, or with 1 when ``set -e`` is on (its errexit runs first)."""
        return ExitShell(1 if self.errexit and status == 127 else status, from_expansion=True)

    def run_simple(self, cmd: SimpleCommand, io_: IO) -> int:
        """Expand, redirect and dispatch one simple command; its process substitutions'
        ``/dev/fd/N`` last as long as it runs (``procsub.py``)."""
        outer, mark = self.procsubs, len(self.outsubs)
        kept = bool(outer)
        if kept:  # an enclosing command's /dev/fd/N stay visible; ours go after this one
            self.procsubs = dict(outer)
        try:
            status = self._run_simple(cmd, io_)
        except BaseException:
            del self.outsubs[mark:]
            raise
        finally:
            if kept:
                self.procsubs = outer
            elif self.procsubs:  # (no copy was made while there was nothing to keep)
                self.procsubs = {}
        if len(self.outsubs) > mark:
            procsub.run_pending(self, io_, mark)
        return status

    def _run_simple(self, cmd: SimpleCommand, io_: IO) -> int:
        self.budget.check_time()
        self.status_before = self.status
        self._sub_status = None
        self.cur_pos = cmd.pos
        if not self.trap_busy:
            self.cur_command = cmd
        self._current_stdin = io_.stdin
        self._current_stderr = io_.stderr
        if cmd.words and cmd.words[0] is _CAT_WORD:  # $(< file): the file to stdout
            redirected = self.open_redirects(cmd.redirects, io_)
            if redirected is None:
                self.status = 1
                return 1
            self.budget.count_command()
            try:
                try:
                    data = redirected[0].stdin.read()
                except OSError as exc:  # `$(< dir)`: bash's result is empty, no message
                    if exc.errno != errno.EISDIR:
                        raise
                    data = b""
                self.budget.check_string(len(data))
                redirected[0].stdout.write(data)
            finally:
                self.close_redirects(redirected[1])
            self.status = 0
            return 0
        try:
            argv = self.expander.words(cmd.words) if cmd.words else []
            values = self.temp_values(cmd.assigns) if argv and cmd.assigns else []
        except ExpansionError as exc:
            return self._expansion_failed(exc, io_)
        if argv and argv[0] == "exec":
            return redirs.run_exec(self, argv, values, cmd.redirects, io_)
        if not argv:
            # `a=1 b=$((a+1))`: each assignment sees the ones before it, as in bash
            for a in cmd.assigns:
                try:
                    if a.array is not None or a.index is not None:
                        self.assign_array(a, io_ if self.xtrace else None)
                        continue
                    value = self.expander.word(a.value, assign=True)
                    if self.xtrace:
                        xtrace.assignment(self, io_, a.name, value, a.append)
                except ExpansionError as exc:
                    return self._expansion_failed(exc, io_)
                except state.SubscriptError as exc:
                    self.diag(io_, str(exc))
                    self.status = 1
                    raise AbortLine(1) from None  # bash abandons the rest of the line
                try:
                    if a.append and "i" in self.attrs.get(a.name, ()):
                        value = f"{self.get_var(a.name) or 0}+({value})"
                    elif a.append:
                        value = (self.get_var(a.name) or "") + value
                    self.set_var(a.name, value)
                except ExpansionError as exc:
                    return self._expansion_failed(exc, io_)
            redirected = self.open_redirects(cmd.redirects, io_)
            if redirected is None:
                self.status = 1
                return 1
            self.close_redirects(redirected[1])
            status = self._sub_status if self._sub_status is not None else 0
            self.status = status
            self.vars["_"] = ""  # `$_` after a command of assignments (or redirections) only
            return status
        redirected = self.open_redirects(cmd.redirects, io_)
        if redirected is None:
            self.status = 1
            return 1
        new_io, closers = redirected
        if self.xtrace:
            for a, v in values:
                xtrace.assignment(self, io_, a.name, v)
            self.trace(argv, io_)
        try:
            status = self.dispatch(argv, values, new_io)
        finally:
            if closers is not None:
                redirs.finish(self, closers)
            self.vars["_"] = argv[-1]  # `$_`: the last word of the command that ran
        self.status = status
        return status

    def trace(self, words: list[str], io_: IO) -> None:
        """``set -x``: ``$PS4`` and the words, quoted as bash quotes them, on stderr; a
        declaration builtin's array values first (``xtrace``)."""
        if words and words[0] in _DECLARATION_BUILTINS:
            plain = []
            for w in words:
                if w.endswith(ARRAY_MARK):
                    name = w[:-len(ARRAY_MARK) - 2] if w[:-len(ARRAY_MARK)].endswith("+=") \
                        else w[:-len(ARRAY_MARK) - 1]
                    items = self.decl_arrays.get(name, []) if self.decl_arrays else []
                    xtrace.line(self, io_, f"{w[:-len(ARRAY_MARK)]}{xtrace.array_literal(items)}")
                    plain.append(name)
                else:
                    plain.append(w)
            xtrace.words(self, io_, plain)
            if words[0] in ("export", "readonly"):
                for w in words[1:]:
                    name, eq, value = w.partition("=")
                    if eq and _VAR_NAME_RE.fullmatch(name) and not w.endswith(ARRAY_MARK):
                        xtrace.assignment(self, io_, name, value)
            return
        xtrace.words(self, io_, words)

    def assign_array(self, a: Assign, traced: IO | None = None) -> None:
        """``a=(...)``, ``a+=(...)``, ``a[sub]=v``, ``a[sub]+=v`` (``traced``: the streams
        of a ``set -x`` trace)."""
        if a.index is not None and a.array is not None:
            raise state.SubscriptError(f"{a.name}[{self.expander.word(a.index)}]: cannot assign "
                                       "list to array member")
        op = "+=" if a.append else "="
        if a.index is not None:
            sub = self.expander.word(a.index)
            value = self.expander.word(a.value, assign=True)
            if traced is not None:
                xtrace.line(self, traced, f"{a.name}[{a.index.text}]{op}{xtrace.quote_value(value)}")
            try:
                state.set_element(self, a.name, sub, value, a.append)
            except state.SubscriptError as exc:
                # bash names the subscript as written: `m[$k]: bad array subscript`
                if str(exc) != f"{a.name}[{sub}]: bad array subscript" or a.index.text == sub:
                    raise
                raise state.SubscriptError(f"{a.name}[{a.index.text}]: bad array subscript") \
                    from None
            return
        if traced is not None:  # as written
            written = " ".join(w.text if key is None else f"[{key.text}]={w.text}"
                               for key, w in a.array or ())
            xtrace.line(self, traced, f"{a.name}{op}({written})")
        items: list[tuple[str | None, str]] = []
        # `m=([k]=v word)`: bash names the word as written, and skips it
        keyed = a.name in self.assoc and bool(a.array) and a.array[0][0] is not None
        for key, w in a.array or ():
            if key is None and keyed:
                self._current_stderr.write(
                    f"{callstack.error_prefix(self)}{a.name}: {w.text}: must use subscript when "
                    "assigning associative array\n".encode("utf-8", "surrogateescape"))
                self.report_error_exit()
                continue
            if key is None:
                items.extend((None, v) for v in self.expander.words([w], eq=False))
            else:
                items.append((self.expander.word(key), self.expander.word(w)))
            if len(items) > state.MAX_ELEMENTS:
                raise LimitExceeded("array_elements", f"array size limit of "
                                    f"{state.MAX_ELEMENTS} elements exceeded; use a file "
                                    "for big data")
        state.assign(self, a.name, items, a.append)

    def temp_values(self, assigns: list[Assign]) -> list[tuple[Assign, str]]:
        """The values of ``A=1 B=$A cmd``'s bindings, each expanded with the ones before it
        bound (as bash does); the variables are put back (``dispatch`` binds them)."""
        out: list[tuple[Assign, str]] = []
        saved: dict[str, str | None] = {}
        try:
            for a in assigns:
                if a.array is not None:  # `B=(x y) cmd`: bash binds the text "(x y)"
                    value = "(" + " ".join(
                        self.expander.word(w) if k is None
                        else f"[{self.expander.word(k)}]={self.expander.word(w)}"
                        for k, w in a.array) + ")"
                else:
                    value = self.expander.word(a.value, assign=True)
                saved.setdefault(a.name, self.vars.get(a.name))
                try:
                    self.set_var(a.name, (self.get_var(a.name) or "") + value if a.append
                                 else value)
                except AssignFailed as exc:  # `ro=1 cmd`: bash's message, cmd still runs
                    self._current_stderr.write(f"{callstack.error_prefix(self)}{exc}\n".encode(
                        "utf-8", "surrogateescape"))
                    self.report_error_exit()  # err_readonly: set -e leaves
                    continue
                out.append((a, value))
        finally:
            for k, old in saved.items():
                if old is None:
                    self.vars.pop(k, None)
                else:
                    self.vars[k] = old
        return out

    def dispatch(self, argv: list[str], assigns, io_: IO) -> int:  # type: ignore[no-untyped-def]
        """Run a function, builtin or registered command (allowlist re-checked here)."""
        self.budget.count_command()
        name = argv[0]
        by_path = name.startswith("/") and name != cmdpath.standard_name(name)
        if by_path:  # `/bin/true`: the command `true` (never a function of that name)
            name = cmdpath.standard_name(name)
            if name not in BUILTINS and (self.commands.get(name) or registry.get(name)) is None:
                self.diag(io_, f"{argv[0]}: No such file or directory")  # as bash's execve
                return 127
            argv = [name, *argv[1:]]
        saved: dict[str, str | None] = {}
        for a, value in assigns:
            saved.setdefault(a.name, self.vars.get(a.name))
            self.set_var(a.name, (self.get_var(a.name) or "") + value if a.append else value)
        # `A=1 f`, `A=1 declare -p A`: A is exported while the command runs
        added = set(saved) - self.exported if saved else None
        if added:
            self.exported |= added
        try:
            func = None if by_path else self.functions.get(name)
            if func is not None:
                if not saved:
                    return self.call_function(func, argv, io_)
                self.temp_frames.append(saved)  # `unset A` inside the function shows the old A
                try:
                    return self.call_function(func, argv, io_)
                finally:
                    self.temp_frames.pop()
            if self.policy.dynamic and name in ("command", "builtin"):
                from sandbox.interpreter import dynamic
                if name == "builtin" or dynamic.runs_command(argv):
                    return (dynamic.b_builtin if name == "builtin" else dynamic.b_command)(
                        self, argv, io_)
            if name in BUILTINS and name not in _REGISTRY_BUILTINS:
                from sandbox.interpreter import builtins
                try:
                    return builtins.run(self, argv, io_)
                except (ArithError, AssignFailed) as exc:  # `test -v 'a[{]'`, `export ro=1`
                    self.diag(io_, str(exc))
                    return 1
                except FSError:
                    raise
                except OSError as exc:  # a write to a closed descriptor (`>&-`)
                    return redirs.write_failed(io_, name, callstack.error_prefix(self), exc)
            if name == "printf" and len(argv) > 1 and argv[1].startswith("-v"):
                return self.printf_to_var(argv, io_)
            if name == "echo" and "xpg_echo" in self.shopts:  # escapes on unless -E
                argv = ["echo", "-e", *argv[1:]]
            if self.policy.dynamic and name in _DYNAMIC_NAMES:
                from sandbox.interpreter import dynamic
                return dynamic.TABLE[name](self, argv, io_)
            return self.run_external(argv, io_, {a.name for a, _ in assigns} if assigns else ())
        finally:
            if added:
                self.exported -= added
            for k, old in saved.items():
                if old is None:
                    self.vars.pop(k, None)
                else:
                    self.vars[k] = old

    def printf_to_var(self, argv: list[str], io_: IO) -> int:
        """``printf -v NAME FORMAT ARGS``: the output assigned to ``NAME`` (or ``a[i]``)."""
        rest = argv[1:]
        var: str | None = rest[0][2:] if rest[0] != "-v" else (rest[1] if len(rest) > 1 else None)
        rest = rest[1:] if rest[0] != "-v" else rest[2:]
        if var is None:
            self.diag(io_, "printf: -v: option requires an argument")
            io_.stderr.write(b"printf: usage: printf [-v var] format [arguments]\n")
            return 2
        if not _VAR_TARGET_RE.fullmatch(var):
            self.diag(io_, f"printf: `{var}': not a valid identifier")
            return 2
        var = state.text_subscript(self, var)  # `printf -v 'm[$k]'`: bash expands it again
        out = _BufferWriter(self.budget)
        status = self.run_external(["printf", *rest], IO(io_.stdin, out, io_.stderr), set())
        try:
            self.set_var(var, bytes(out.buf).decode("utf-8", "surrogateescape"))
        except (ExpansionError, state.SubscriptError) as exc:
            readonly = str(exc).endswith(": readonly variable")  # bash: err_readonly, no prefix
            self.diag(io_, str(exc) if readonly else f"printf: {exc}")
            return 1
        return status

    def run_external(self, argv: list[str], io_: IO, temp_env: "set[str] | tuple[()]") -> int:
        """Run a command module from the registry."""
        name = argv[0]
        cmd = self.commands.get(name) or registry.get(name)
        if name not in BUILTINS and name not in self.policy.allow:
            if cmd is None and "/" not in name:
                self.diag(io_, f"{name}: command not found")
                return 127
            self.diag(io_, f"{name}: not allowed by the sandbox policy")
            return 126
        if cmd is None:
            self.diag(io_, f"{name}: command not found")
            return 127
        if name not in BUILTINS:  # counted in the hash table (`hash` shows hits)
            hashed = self.hashed
            hashed[name] = hashed.get(name, 0) + 1
        env = self.environ()
        for k in temp_env:
            if k in self.vars:
                env[k] = self.vars[k]
        fs = FdView(self.fs, self.procsubs) if self.procsubs else self.fs
        stdin, stderr = redirs.for_command(io_)  # closed descriptors (`<&-`, `2>&-`)
        ctx = CommandContext(argv=list(argv), stdin=stdin, stdout=io_.stdout,
                             stderr=stderr, fs=fs, cwd=self.cwd, env=env,  # type: ignore[arg-type]
                             budget=self.budget, policy=self.policy, runner=self.run_subcommand)
        if name == "printf":  # bash's builtin: its messages carry the line
            ctx.shell_prefix = callstack.error_prefix(self)
        try:
            status = cmd.run(ctx)
        except BrokenPipe:
            raise  # like SIGPIPE, it ends the whole pipeline stage (status 141)
        except LimitExceeded:
            raise
        except (ExitShell, LoopControl, ReturnFromFunction):  # pragma: no cover
            raise
        except FSError as exc:
            ctx.error(f"{exc.path or ''}: {exc}" if exc.path else str(exc))
            return 1
        except OSError as exc:  # a write to a closed descriptor (`>&-`)
            return redirs.write_failed(
                io_, name, callstack.error_prefix(self) if name in BUILTINS else "", exc)
        except RecursionError:
            ctx.error("input is nested too deeply")
            return 1
        except Exception as exc:  # a bug in a command must not leak a traceback
            ctx.error(f"internal error ({type(exc).__name__})")
            return 1
        io_.stdout.flush()
        status = int(status) if status is not None else 0
        return redirs.after_closed_stdin(name, stdin, stderr, status) if stdin is not io_.stdin else status

    def run_subcommand(self, argv: list[str], stdin: BinaryIO, stdout: Writer, stderr: Writer,
                       env: dict[str, str], cwd: str, budget: object = None) -> int:
        """Run a command that another command runs (find -exec, xargs, env, timeout).

        The one way a command runs another: the allowlist is checked again here (the guard
        checked the literal names before the script ran). Shell functions and builtins other
        than ``true false test [ echo printf pwd`` are not programs, so they are not found.
        Raises ``FSError`` ENOENT (no such command) or EACCES (not allowed).
        """
        import errno as _errno
        from sandbox.commands.base import NEVER_RUN
        name = cmdpath.standard_name(argv[0]) if argv else ""  # /usr/bin/X is X, as at the top level
        if name != (argv[0] if argv else ""):
            argv = [name, *argv[1:]]
        if name in NEVER_RUN or name in _FORBIDDEN_RUN or "/" in name or name == "":
            raise FSError(_errno.EACCES if name else _errno.ENOENT, name)
        if name in _PROGRAM_BUILTINS and name not in _REGISTRY_BUILTINS:
            from sandbox.interpreter import builtins
            sub = self.copy()
            sub.cwd = cwd
            return builtins.run(sub, argv, IO(stdin, stdout, stderr))
        cmd = getattr(self, "commands", {}).get(name) or registry.get(name)
        if cmd is None or (name in BUILTINS and name not in _REGISTRY_BUILTINS):
            raise FSError(_errno.ENOENT, name)
        if name not in BUILTINS and name not in self.policy.allow:
            raise FSError(_errno.EACCES, name)
        self.budget.count_command()
        ctx = CommandContext(argv=list(argv), stdin=stdin, stdout=stdout, stderr=stderr,
                             fs=self.fs, cwd=cwd, env=env, budget=budget or self.budget,
                             policy=self.policy, runner=self.run_subcommand)
        try:
            status = cmd.run(ctx)
        except (BrokenPipe, LimitExceeded):
            raise
        except FSError as exc:
            ctx.error(f"{exc.path or ''}: {exc}" if exc.path else str(exc))
            return 1
        except OSError as exc:  # its stdout refused a write (`>&-`, /dev/full)
            return redirs.write_failed(IO(stdin, stdout, stderr), name, "", exc)
        except RecursionError:
            ctx.error("input is nested too deeply")
            return 1
        except Exception as exc:  # a bug in a command must not leak a traceback
            ctx.error(f"internal error ({type(exc).__name__})")
            return 1
        return int(status) if status is not None else 0

    def call_function(self, func: FunctionDef, argv: list[str], io_: IO) -> int:
        """Call a shell function with positional parameters ``argv[1:]``."""
        if self.call_depth >= self.limits.recursion_depth:
            raise LimitExceeded("recursion_depth", f"function recursion limit of "
                                f"{self.limits.recursion_depth} exceeded in {func.name}; "
                                "recurse less deeply")
        saved_pos = self.positional
        self.positional = list(argv[1:])
        self.call_depth += 1
        self.funcstack.append(func.name)
        self.call_lines.append(callstack.lineno(self))
        self.locals.append({})
        hidden_traps = traps.enter_function(self) if self.traps else None
        call_pos = self.cur_pos  # an ERR trap after the call shows the caller's $LINENO
        outer_loops, self.loop_depth = self.loop_depth, 0  # bash: a function's break can't
        try:                                                 # leave the caller's loop
            try:
                status = self.run_command(func.body, io_)
            except ReturnFromFunction as r:
                status = r.status
            if self.traps:  # RETURN, inside the function (FUNCNAME, locals)
                try:
                    traps.on_return(self, io_)
                except ReturnFromFunction as r:  # `return` in the action (bash loops here)
                    status = r.status
        finally:
            if hidden_traps is not None:
                traps.leave_function(self, hidden_traps)
            hidden = self.local_attrs.pop(len(self.locals), {}) if self.local_attrs else {}
            opts = self.local_opts.pop(len(self.locals), None) if self.local_opts else None
            if opts is not None:  # `local -`: the function's set options end with it
                from sandbox.interpreter.declare import restore_options
                restore_options(self, opts)
            frame = self.locals.pop()
            for k, old in frame.items():
                self.restore_var(k, old)
                self.attrs.pop(k, None)
                if old is None and self.declared:
                    self.declared.discard(k)  # type: ignore[union-attr]
            for k, at in hidden.items():
                if at is not None:
                    self.attrs[k] = at
            self.call_depth -= 1
            self.loop_depth = outer_loops
            self.cur_pos = call_pos
            self.funcstack.pop()
            self.call_lines.pop()
            self.positional = saved_pos
        self.status = status
        return status

    # -- command substitution ---------------------------------------------------------------

    def process_substitution(self, body: Script, out: bool = False) -> str:
        """``<(body)`` / ``>(body)`` (``out``): the ``/dev/fd/N`` path (``procsub.py``)."""
        return procsub.substitute(self, body, out)

    def command_substitution(self, body: Script) -> str:
        """Run ``body`` in a subshell and return its output without trailing newlines."""
        if self.nesting > self.limits.recursion_depth * 2:
            raise LimitExceeded("recursion_depth", "nesting limit exceeded in command "
                                "substitution; nest fewer commands")
        out = _BufferWriter(self.budget)
        fast = _read_file_form(body)
        if fast is not None:  # $(< file): the file's content, as bash does
            body = Script([AndOr(Pipeline([SimpleCommand([], [_CAT_WORD], [fast], fast.pos)]))])
        sub = self.copy()
        sub.nesting += 1
        sub.subshell_depth += 1
        sub.trace_level += 1
        if "inherit_errexit" not in self.shopts:  # bash: $(...) runs without set -e
            sub.errexit = False
        stdin = getattr(self, "_current_stdin", None) or io.BytesIO(b"")
        sub_io = IO(stdin, out, self._current_stderr)
        try:
            status = sub.run_script(body, sub_io)
        except ExitShell as e:
            status = 1 if e.from_expansion else e.status
        except BrokenPipe:
            status = 141
        except (LoopControl, ReturnFromFunction, AbortLine) as e:
            status = getattr(e, "status", 0)
        if sub.traps:  # the EXIT trap it set: its output is part of the substitution's
            status = traps.at_exit(sub, sub_io, status)
        self._sub_status = status
        self.status = status
        data = bytes(out.buf)
        if b"\0" in data:  # a shell string holds no NUL: bash drops them, and says so
            self.diag(IO(stdin, out, self._current_stderr),
                      "warning: command substitution: ignored null byte in input")
            data = data.replace(b"\0", b"")
        return data.rstrip(b"\n").decode("utf-8", "surrogateescape")

    # -- redirections ---------------------------------------------------------------------

    def open_redirects(self, redirects: list[Redirect], io_: IO, persist: bool = False):  # type: ignore[no-untyped-def]
        """Apply redirections (``sandbox.interpreter.redirs``); returns (new IO, what
        ``close_redirects`` undoes) or None after an error (bash's message printed).
        ``persist``: ``exec``, the changes stay (``io_`` is changed in place)."""
        self._current_stdin = io_.stdin
        self._current_stderr = io_.stderr
        if not redirects:
            return io_, None
        try:
            applied = redirs.open_all(self, redirects, io_, persist)
        except redirs.RedirectFailed as exc:
            redirs.report(self, exc, io_)
            return None
        except ExpansionError as exc:
            self.diag(io_, str(exc))
            if isinstance(exc, ArithExpansionError):  # bash abandons the rest of the line
                self.status = 1
                raise AbortLine(1) from None
            if exc.fatal:
                raise self.fatal_exit(exc.status)
            return None
        return applied.io, applied

    def _ctx(self, io_: IO) -> CommandContext:
        return redirs._ctx(self, io_)

    def close_redirects(self, applied) -> None:  # type: ignore[no-untyped-def]
        """Flush the command's files and put the descriptor table back."""
        if applied is not None:
            redirs.finish(self, applied)

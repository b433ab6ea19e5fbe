"""The AST guard: checks a whole parsed script against the ``Policy`` before anything runs.

It walks every node (pipelines, lists, compound commands, function bodies, command
substitutions inside any word, here-documents) and returns every violation with its position:
a command the sandbox has but the allowlist does not allow, a shell, a path to a program, a
command name that is not a literal word, a forbidden builtin, a background job, a write under a
read-only policy, a write to a protected path, and a refusal by the approval callback. A script
with any violation runs nothing. A name that no command of the sandbox has is not a violation:
it runs as bash runs a missing program (``NAME: command not found``, status 127). A command name
that is only ``$V`` / ``"$V"`` of a variable whose every value is a literal of the script is
checked once per value instead of refused (``sandbox.guard_names``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from sandbox import commands as registry
from sandbox import guard_names
from sandbox.fs.base import FSError
from sandbox.fs.paths import normalize
from sandbox.parse.ast import (
    DQ, AndOr, ArithCmd, ArithFor, ArithSub, BraceGroup, Case, CmdSub, Command, CondAndOr,
    CondBinary, CondNot, CondUnary, CondWord, DBracket, DeclAssign, For, FunctionDef, If, Param,
    Pipeline, ProcSub, Redirect, Script, SimpleCommand, Subshell, SyntaxFailure, While, Word,
)
from sandbox.policy import Policy

#: Builtins a script may never use, with the reason / alternative given to the model.
FORBIDDEN: dict[str, str] = {
    "eval": "eval runs a string as code; write the command out directly",
    "source": "source runs another file as code; write the commands out directly",
    ".": ". (source) runs another file as code; write the commands out directly",
    "exec": "exec CMD replaces the shell; run the command directly (exec with redirections "
            "only, like `exec 3>file` or `exec >log 2>&1`, is allowed)",
    "alias": "aliases are not supported; use a function instead",
    "unalias": "aliases are not supported",
    "command": "`command` bypasses functions and the allowlist; call the command directly",
    "builtin": "`builtin` is not supported; call the builtin directly",
    "enable": "`enable` is not supported",
    "coproc": "coproc is not supported; use a pipeline",
    "kill": "processes are not available in the sandbox",
    "jobs": "background jobs are not supported",
    "fg": "background jobs are not supported",
    "bg": "background jobs are not supported",
    "disown": "background jobs are not supported",
    "ulimit": "resource limits are fixed by the sandbox",
    "history": "there is no history in the sandbox",
    "fc": "there is no history in the sandbox",
    "compgen": "completion is not supported",
    "complete": "completion is not supported",
    "logout": "use exit instead",
    "suspend": "job control is not supported",
}

#: Host programs a script reaches for to leave the shell (interpreters, network and remote
#: tools, package managers): the sandbox has none, and a script naming one is refused before
#: anything runs, saying so, rather than failing at that line with "command not found".
HOST_PROGRAMS = frozenset(
    "python python2 python3 pip pip3 perl ruby node nodejs npm npx deno php lua luajit tclsh "
    "wish R Rscript java javac gcc cc g++ make cmake go cargo rustc osascript powershell pwsh "
    "curl wget nc ncat netcat socat telnet ssh scp sftp rsync ftp git svn docker podman kubectl "
    "systemctl service crontab at apt apt-get dpkg yum dnf apk brew snap mount umount chroot "
    "nsenter unshare strace gdb".split())

#: What ``Policy(dynamic=True)`` lets run: each string is guarded when it runs.
DYNAMIC_BUILTINS = frozenset({"eval", "source", ".", "bash", "sh"})

#: Builtins that are always available (whatever the allowlist says).
from sandbox.interpreter.core import _PROGRAM_BUILTINS, BUILTINS  # noqa: E402
from sandbox.commands.base import DYNAMIC, NEVER_RUN  # noqa: E402
from sandbox.interpreter.cmdpath import standard_name  # noqa: E402

_WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
_HARMLESS_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})


@dataclass(frozen=True)
class Violation:
    """One reason the guard refuses a script: where it is and what is wrong."""

    pos: int
    message: str
    #: True for syntax we refuse (background ``&``): alone, such violations exit with 2.
    syntax: bool = False


def line_col(script: str, pos: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    pos = max(0, min(pos, len(script)))
    line = script.count("\n", 0, pos) + 1
    col = pos - (script.rfind("\n", 0, pos) + 1) + 1
    return line, col


def format_violation(script: str, v: Violation) -> str:
    """``line L, col C: message``."""
    line, col = line_col(script, v.pos)
    return f"line {line}, col {col}: {v.message}"


class _Walker:
    def __init__(self, policy: Policy, cwd: str, commands: dict | None = None):
        self.policy = policy
        self.commands = commands or {}
        self.cwd = cwd
        self.violations: list[Violation] = []
        self.writes: list[str] = []
        self.functions: set[str] = set()
        #: (tree, env names, embedder commands) whose ``$V`` command names ``guard_names`` may
        #: fold (None: fold none), and their analysis, made when a ``$V`` name is first met.
        self.names_source: tuple[Script, Iterable[str] | None, Iterable[str]] | None = None
        self.names: guard_names.Analysis | None = None

    def add(self, pos: int, message: str, syntax: bool = False) -> None:
        self.violations.append(Violation(pos, message, syntax))

    # -- collection -----------------------------------------------------------------------

    def collect_functions(self, node: object) -> None:
        """Every function name defined anywhere (also inside substitutions)."""
        stack = [node]
        while stack:
            cur = stack.pop()
            if isinstance(cur, (list, tuple)):
                stack.extend(cur)
            elif hasattr(cur, "__dataclass_fields__"):
                if isinstance(cur, FunctionDef):
                    self.functions.add(cur.name)
                stack.extend(getattr(cur, f) for f in cur.__dataclass_fields__)

    # -- walking --------------------------------------------------------------------------

    def script(self, node: Script) -> None:
        for item in node.items:
            self.andor(item)

    def andor(self, node: AndOr) -> None:
        if node.background:
            self.add(node.pos, "background jobs (&) are not supported; run the command in "
                     "the foreground", syntax=True)
        self.pipeline(node.first)
        for _, p in node.rest:
            self.pipeline(p)

    def pipeline(self, node: Pipeline) -> None:
        for c in node.commands:
            self.command(c)

    def command(self, node: Command) -> None:
        if isinstance(node, SimpleCommand):
            self.simple(node)
            return
        if isinstance(node, FunctionDef):
            if node.name in FORBIDDEN or node.name in BUILTINS:
                self.add(node.pos, f"a function may not be called `{node.name}` (a shell "
                         "builtin); choose another name")
            self.command(node.body)
            return
        if isinstance(node, SyntaxFailure):  # reports the error; runs and writes nothing
            return
        for r in node.redirects:
            self.redirect(r)
        if isinstance(node, (BraceGroup, Subshell)):
            self.script(node.body)
        elif isinstance(node, If):
            for c, b in node.clauses:
                self.script(c)
                self.script(b)
            if node.else_body:
                self.script(node.else_body)
        elif isinstance(node, For):
            for w in node.words or []:
                self.word(w)
            self.script(node.body)
        elif isinstance(node, While):
            self.script(node.cond)
            self.script(node.body)
        elif isinstance(node, ArithCmd):
            self.word(node.expr)
        elif isinstance(node, ArithFor):
            for w in (node.init, node.cond, node.step):
                self.word(w)
            self.script(node.body)
        elif isinstance(node, Case):
            self.word(node.word)
            for arm in node.arms:
                for w in arm.patterns:
                    self.word(w)
                self.script(arm.body)
        elif isinstance(node, DBracket):
            self.cond(node.expr)
        else:  # a construct the guard does not know is refused, never let through
            self.add(getattr(node, "pos", 0), f"`{type(node).__name__}` is not supported")

    def cond(self, e: object) -> None:
        """Every word of a ``[[ ]]`` expression (their substitutions run commands)."""
        if isinstance(e, CondWord):
            self.word(e.word)
        elif isinstance(e, CondUnary):
            self.word(e.operand)
        elif isinstance(e, CondBinary):
            self.word(e.left)
            self.word(e.right)
        elif isinstance(e, CondNot):
            self.cond(e.expr)
        elif isinstance(e, CondAndOr):
            self.cond(e.left)
            self.cond(e.right)
        else:
            self.add(0, f"`{type(e).__name__}` is not supported")

    def simple(self, node: SimpleCommand) -> None:
        for a in node.assigns:
            self.word(a.value)
            self.word(a.index)
            for key, value in a.array or ():
                self.word(key)
                self.word(value)
        for w in node.words:
            self.word(w)
        for r in node.redirects:
            self.redirect(r)
        self.head_check(node)

    def head_check(self, node: SimpleCommand) -> None:
        """The checks of a simple command's name (its words' substitutions and its
        redirections were walked already): allowlist, forbidden builtins, writes, runs."""
        if not node.words:
            return
        head = node.words[0]
        name = head.literal()
        if name is None or (name not in BUILTINS and name not in self.functions
                            and any(c in head.text for c in "*?[{") and not _all_quoted(head)):
            if self.policy.dynamic:
                return  # Policy(dynamic=True): the name is checked when it is known, at run time
            if name is None and guard_names.fold(self, node):
                return  # `$C` / `"$C"` of a variable whose every value is known: each checked
            self.add(head.pos, f"command name `{head.text}` is not a literal word; write the "
                     "command name out (variables and substitutions can't name commands)")
            return
        if name.startswith("/"):  # `/bin/true` is `true`, checked as such
            name = standard_name(name)
        if self.policy.dynamic and name in DYNAMIC_BUILTINS:
            if name in ("bash", "sh") and (len(node.words) < 2 or node.words[1].literal() != "-c"):
                self.add(head.pos, f"`{name}` runs only as `{name} -c STRING` in the sandbox")
            return  # the string runs through this guard when it runs (sandbox.interpreter.dynamic)
        if name == "exec" and (len(node.words) == 1 or (
                len(node.words) == 2 and node.words[1].literal() == "--")):
            return  # exec with redirections only: they were checked above like any other
        if name == "exec" and self.policy.dynamic:
            rest = node.words[1:]
            if rest and rest[0].literal() == "--":
                rest = rest[1:]
            if rest and (rest[0].literal() or "").startswith("-"):
                self.add(rest[0].pos, "`exec` options (-a -c -l) are not supported; run the "
                         "command directly")
                return
            # exec CMD ARGS: CMD is checked like any command (it runs, then the shell ends)
            self.simple(SimpleCommand([], rest, [], node.pos))
            return
        if name == "command" and len(node.words) > 1 and node.words[1].literal() in (
                "-v", "-V", "-pv", "-vp", "-pV", "-Vp"):
            return  # command -v / -V only report (sandbox.interpreter.typecmd)
        if self.policy.dynamic and name in ("command", "builtin"):
            rest = list(node.words[1:])  # Policy(dynamic=True): the command it runs is checked
            while rest and rest[0].literal() in ("-p", "--"):
                rest = rest[1:]
            if rest:
                self.simple(dataclasses.replace(node, assigns=[], words=rest, redirects=[]))
            return
        if name in FORBIDDEN:
            self.add(head.pos, f"`{name}` is not allowed: {FORBIDDEN[name]}")
            return
        if name == "trap" and name not in self.functions:  # its action is code: checked too
            from sandbox.interpreter.traps import guard_check
            guard_check(self, node)
            return
        if name in self.functions or name in BUILTINS:
            return
        if _no_such_command(self, name):
            return  # no command has this name: at run time, as in bash, "not found" and 127
        if name not in self.policy.allow:
            allowed = ", ".join(sorted(self.policy.allow | {"cd", "pwd", "test", "read"}))
            self.add(head.pos, f"`{name}` is not an allowed command (allowed: {allowed})")
            return
        cmd = self.commands.get(name) or registry.get(name)
        if cmd is None:
            self.add(head.pos, f"`{name}` is allowed but not available in this sandbox")
            return
        if cmd.writes is not None:
            args = [w.literal() if w.literal() is not None else w.text for w in node.words[1:]]
            try:
                targets = list(cmd.writes(args))
            except Exception:  # a writes() bug must not make the guard crash
                targets = [a for a in args if not a.startswith("-")]
            pipes = {w.text for w in node.words[1:] if _is_procsub(w)}
            for t in targets:
                if t not in pipes:  # `tee >(cmd)`: writes into the internal pipe only
                    self.write_target(t, head.pos, name, literal=True)
        if cmd.runs is not None:
            self.runs_check(name, cmd, [_run_arg(w) for w in node.words[1:]], head.pos, 0)

    def runs_check(self, runner: str, cmd: object, args: list[str], pos: int, depth: int) -> None:
        """The commands that ``runner`` would run (its ``runs(args)``): each name must be a
        literal word on the allowlist, never a shell; read-only and protected paths apply to
        what they write; a runner inside a runner is checked the same way."""
        try:
            planned = list(cmd.runs(args))  # type: ignore[attr-defined]
        except Exception:  # a runs() bug must not make the guard crash: refuse instead
            self.add(pos, f"`{runner}`: could not tell which command it would run; write it "
                     "out plainly")
            return
        for argv in planned:
            name = standard_name(argv[0]) if argv else ""  # `env /usr/bin/printenv` runs printenv
            if name.startswith(DYNAMIC) or name == "":
                shown = name[len(DYNAMIC):] or "''"
                self.add(pos, f"`{runner}` would run a command named at run time (`{shown}`); "
                         "write the command name out as a literal word")
                continue
            if name in NEVER_RUN or name in FORBIDDEN and name not in BUILTINS or "/" in name:
                self.add(pos, f"`{runner}` would run `{name}`, which the sandbox never runs "
                         "(it would run a string as code); run the commands directly")
                continue
            if _no_such_command(self, name):
                continue  # no command has this name: the runner fails to find it, as GNU's
            if name not in self.policy.allow and name not in _PROGRAM_BUILTINS:
                self.add(pos, f"`{runner}` would run `{name}`, which is not an allowed command")
                continue
            sub = getattr(self, "commands", {}).get(name) or registry.get(name)
            if sub is None:
                continue  # not a program: the runner reports "No such file or directory"
            if sub.writes is not None:
                if self.policy.read_only:
                    self.add(pos, f"`{runner}` would run `{name}`, which writes files, but the "
                             "sandbox is read-only")
                    continue
                try:
                    targets = list(sub.writes([a for a in argv[1:]]))
                except Exception:
                    targets = []
                for t in targets:
                    if not t.startswith(DYNAMIC) and "{}" not in t:
                        self.write_target(t, pos, f"{runner} {name}", literal=True)
            if sub.runs is not None:
                if depth >= 8:
                    self.add(pos, f"`{runner}`: commands nested too deeply")
                else:
                    self.runs_check(name, sub, list(argv[1:]), pos, depth + 1)

    def redirect(self, r: Redirect) -> None:
        if r.target is not None:
            self.word(r.target)
        if r.heredoc is not None:
            self.word(r.heredoc)
        if r.target is not None and _is_procsub(r.target):
            return  # `> >(cmd)`: an internal pipe (its body was checked above)
        if r.op in _WRITE_OPS or (r.op == ">&" and r.target is not None):
            assert r.target is not None
            lit = r.target.literal()
            if r.op == ">&" and lit is not None and (lit.isdigit() or lit == "-"):
                return
            self.write_target(lit if lit is not None else r.target.text, r.pos,
                              f"redirection {r.op}", literal=lit is not None)

    def write_target(self, target: str, pos: int, what: str, literal: bool) -> None:
        try:
            vpath = normalize(target, self.cwd) if literal else target
        except FSError:
            self.add(pos, f"{what}: a path may not contain a NUL byte")
            return
        if vpath in _HARMLESS_TARGETS:
            return
        self.writes.append(vpath)
        if self.policy.read_only:
            self.add(pos, f"{what} would write `{target}`, but the sandbox is read-only")
        elif literal and self.policy.is_protected(vpath):
            self.add(pos, f"{what} would write `{target}`, which is protected (read-only "
                     "or append-only for scripts)")

    def word(self, w: Word | None) -> None:
        if w is None:
            return
        for p in w.parts:
            self.part(p)

    def part(self, p: object) -> None:
        if isinstance(p, CmdSub):
            self.script(p.body)
        elif isinstance(p, DQ):
            for q in p.parts:
                self.part(q)
        elif isinstance(p, ProcSub):
            self.script(p.body)
        elif isinstance(p, DeclAssign):
            self.word(p.assign.value)
            self.word(p.assign.index)
            for key, value in p.assign.array or ():
                self.word(key)
                self.word(value)
        elif isinstance(p, Param):
            self.word(p.index)
            self.word(p.arg)
            self.word(p.repl)
        elif isinstance(p, ArithSub):
            self.word(p.expr)


def _no_such_command(guard: "_Walker", name: str) -> bool:
    """True for a name that no command, builtin or function of this sandbox has, that names
    no path, no shell and no host interpreter or network tool (``HOST_PROGRAMS``): running it
    does nothing but fail, as ``bash: NAME: command not found``, status 127, so the guard lets
    it through instead of refusing the script; under ``xargs``, ``find -exec``, ``env``,
    ``timeout``, ``nice`` or ``nohup`` the runner fails to find it as GNU's does (127)."""
    return (name not in guard.policy.allow and "/" not in name and name not in NEVER_RUN
            and name not in HOST_PROGRAMS and name not in FORBIDDEN and name not in BUILTINS
            and name not in guard.functions
            and (guard.commands.get(name) or registry.get(name)) is None)


def _run_arg(w: Word) -> str:
    """An operand as a runner's ``runs()`` sees it: its literal value, or ``DYNAMIC`` and its
    source text when its value is only known at run time (expansions, globs, brace lists)."""
    lit = w.literal()
    if lit is None:
        return DYNAMIC + w.text
    if not _all_quoted(w) and (any(c in w.text for c in "*?[") or
                               ("{" in w.text and ("," in w.text or ".." in w.text))):
        return DYNAMIC + w.text
    return lit


def _is_procsub(w: Word) -> bool:
    """A word that is one process substitution (``>(cmd)``): writing to it writes a pipe."""
    return len(w.parts) == 1 and isinstance(w.parts[0], ProcSub)


def _all_quoted(w: Word) -> bool:
    from sandbox.parse.ast import Lit
    return not any(isinstance(p, Lit) for p in w.parts)


def check(script_text: str, tree: Script, policy: Policy, cwd: str = "/",
          env: Iterable[str] | None = None) -> tuple[list[str], list[str]]:
    """Check a parsed script; return (violation messages with positions, files it may write).

    The approval callback (``policy.approve``) is asked only when there is no other violation.
    """
    messages, writes, _ = check_full(script_text, tree, policy, cwd, env=env)
    return messages, writes


def check_full(script_text: str, tree: Script, policy: Policy, cwd: str = "/",
               commands: dict | None = None,
               env: Iterable[str] | None = None) -> tuple[list[str], list[str], bool]:
    """``check`` plus whether every violation is refused *syntax* (exit 2 rather than 126).
    ``commands``: the embedder's commands (``Sandbox(commands=...)``), name -> Command.
    ``env``: the names of the variables the script starts with (``Sandbox(env=...)``): a
    command name ``$V`` of one of them is never folded (``guard_names``); None: only the
    shell's own."""
    walker = _Walker(policy, cwd, commands)
    walker.collect_functions(tree)
    if not policy.dynamic:
        walker.names_source = (tree, env, commands or ())
    walker.script(tree)
    messages = [format_violation(script_text, v) for v in walker.violations]
    writes = list(dict.fromkeys(walker.writes))
    if walker.violations and all(v.syntax for v in walker.violations):
        return messages, writes, True
    if not messages and policy.approve is not None:
        try:
            ok = policy.approve(script_text, writes)
        except Exception as exc:
            ok = False
            messages.append(f"approval callback failed ({type(exc).__name__}); script refused")
            return messages, writes, False
        if not ok:
            messages.append("refused by the approval callback"
                            + (f" (it may write: {', '.join(writes)})" if writes else ""))
    return messages, writes, False

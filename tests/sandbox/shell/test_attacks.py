"""Attack tests: hostile scripts run against a sandbox whose jail is a temporary directory
inside an "outer" directory holding a secret. Each must be refused or stopped by a limit with
a clear message, never show a traceback or a host path, and leave everything outside the jail
(and the secret) untouched and unread."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from sandbox import Limits, Policy
from sandbox.api import Sandbox
from sandbox.commands import names as registered
from sandbox.fs.local import LocalDir

SECRET = b"TOP-SECRET-CANARY-7f3a\n"


@dataclass
class Attack:
    """One hostile script and what must happen."""

    name: str
    script: str
    codes: tuple[int, ...]
    message: str | None = None  # substring expected on stderr (case-insensitive)
    limits: dict = field(default_factory=dict)
    policy: dict = field(default_factory=dict)
    needs: tuple[str, ...] = ()


ALL = frozenset(registered()) | {"rm", "mv", "cp", "tee", "touch", "mkdir"}

ATTACKS: list[Attack] = [
    # -- reading outside the jail -------------------------------------------------------------
    Attack("dotdot passwd", "cat ../../etc/passwd", (1,), "No such file"),
    Attack("abs passwd", "cat /etc/passwd", (1,), "No such file"),
    Attack("dotdot secret", "cat ../secret.txt", (1,), "No such file"),
    Attack("root dotdot secret", "cat /../secret.txt", (1,), "No such file"),
    Attack("deep dotdot", "cat ../../../../../../../../secret.txt", (1,), "No such file"),
    Attack("host abs path", "cat {OUTER}/secret.txt", (1,), "No such file"),
    Attack("host abs path redirect", "cat < {OUTER}/secret.txt", (1,), "No such file"),
    Attack("passwd via redirect", "cat < /etc/passwd", (1,), "No such file"),
    Attack("passwd via redirect read", "read x < /etc/passwd; echo $x", (0,), "No such file"),
    Attack("proc environ", "cat /proc/self/environ", (1,), "No such file"),
    Attack("proc redirect", "cat < /proc/self/environ", (1,), "No such file"),
    Attack("dev zero", "cat /dev/zero", (125,), "limit"),
    Attack("dev urandom", "sort /dev/urandom", (125,), "read limit"),
    Attack("dev tcp", "echo x > /dev/tcp/127.0.0.1/80", (1,), None),
    Attack("cd up and read", "cd ..; cd ..; cat secret.txt", (1,), "No such file"),
    Attack("tilde", "cat ~/../secret.txt", (1,), "No such file"),
    Attack("glob outside", "echo /../*", (0,), None),
    Attack("cmdsub read", "x=$(cat ../secret.txt); echo \"$x\"", (0,), "No such file"),
    Attack("dollar-lt", "echo $(< /etc/passwd)", (0,), None),
    Attack("symlink file", "cat link", (1,), "Symbolic link refused"),
    Attack("symlink dir", "cat ldir/secret.txt", (1,), "Symbolic link refused"),
    Attack("symlink redirect read", "cat < link", (1,), "Symbolic link refused"),
    Attack("hard link read", "cat hl", (1,), "hard links"),
    Attack("cd into symlinked dir", "cd ldir && cat secret.txt", (1,), "Symbolic link refused"),
    # a link named on the command line is listed as the link: its text names a directory
    # that does not exist inside the jail (nothing outside it is ever listed)
    Attack("ls symlinked dir", "ls ldir ldir/", (2,), None, needs=("ls",)),
    Attack("readlink -f out of the jail", "readlink -f ldir/secret.txt; realpath ldir/..",
           (1,), None, needs=("readlink", "realpath")),
    Attack("find -H symlinked dir", "find -H ldir -type f", (0,), None, needs=("find",)),
    Attack("test through symlinked dir", "test -e ldir/secret.txt", (1,), None),
    Attack("du -L symlinked dir", "du -L ldir; du -sL .", (1,), None, needs=("du",)),
    Attack("stat -L symlinked dir", "stat -L ldir/secret.txt", (1,), None, needs=("stat",)),
    Attack("glob through symlinked dir", "cat ldir/*", (1,), "Symbolic link refused"),
    Attack("cp symlink", "cp link copy; cat copy", (1,), "Symbolic link refused", needs=("cp",)),
    Attack("tail symlink", "tail -n 1 link", (1,), "Symbolic link refused", needs=("tail",)),
    # GNU's -r skips links it meets while recursing, silently; the hard-linked file is refused.
    Attack("grep symlink", "grep -r SECRET .", (2,), "hard links", needs=("grep",)),
    Attack("grep named symlink", "grep -r SECRET link", (2,), "Symbolic link refused", needs=("grep",)),
    Attack("read from symlink", "while read l; do echo $l; done < link", (1,), "Symbolic link refused"),
    Attack("dollar-lt symlink", "x=$(<link); echo \"$x\"", (0,), "Symbolic link refused"),
    Attack("touch through symlinked dir", "touch ldir/t", (1,), None, needs=("touch",)),
    Attack("mkdir through symlinked dir", "mkdir ldir/d", (1,), None, needs=("mkdir",)),
    Attack("tee through symlinked dir", "echo x | tee ldir/new", (1,), None, needs=("tee",)),
    Attack("mv out", "mv a.txt ../../moved.txt; cat /moved.txt", (0,), None, needs=("mv",)),
    # -- writing outside the jail ---------------------------------------------------------------
    Attack("write etc", "echo x > /etc/sandbox-test-file", (1,), None),
    Attack("write dotdot", "echo x > ../escape.txt; cat /escape.txt", (0,), None),
    Attack("write host abs", "echo x > {OUTER}/escape.txt", (1,), None),
    Attack("symlink write", "echo pwned > link", (1,), "Symbolic link refused"),
    Attack("symlink append", "echo pwned >> link", (1,), "Symbolic link refused"),
    Attack("symlink dir write", "echo pwned > ldir/new.txt", (1,), "Symbolic link refused"),
    Attack("hard link write", "echo pwned > hl", (1,), "hard links"),
    Attack("hard link append", "echo pwned >> hl", (1,), "hard links"),
    Attack("heredoc to etc", "cat <<EOF > /etc/x\nhi\nEOF", (1,), None),
    Attack("dev sda", "echo x > /dev/sda", (1,), None),
    # -- command names that are not literal --------------------------------------------------------
    Attack("var command", "CMD=$(echo cat); $CMD a.txt", (126,), "not a literal word"),
    Attack("cmdsub command", "$(echo rm) x", (126,), "not a literal word"),
    Attack("backtick command", "`echo rm` x", (126,), "not a literal word"),
    Attack("default command", "${X:-cat} a.txt", (126,), "not a literal word"),
    Attack("glob command", "c?t a.txt", (126,), "not a literal word"),
    Attack("brace command", "{cat,a.txt}", (126,), "not a literal word"),
    Attack("ifs command", "IFS=/; x=c/a/t; $x a.txt", (126,), "not a literal word"),
    Attack("cmd in cmdsub in arg", "echo $(read CMD; $CMD a.txt)", (126,), "not a literal word"),
    # -- forbidden builtins and commands ----------------------------------------------------------
    Attack("eval", "eval 'cat a.txt'", (126,), "eval"),
    Attack("source", "source a.txt", (126,), "source"),
    Attack("dot", ". a.txt", (126,), "source"),
    Attack("exec", "exec cat a.txt", (126,), "exec"),
    Attack("trap action", "trap 'eval x' EXIT", (126,), "in the trap action: `eval`"),
    Attack("trap run-time action", "c=x; trap \"eval $c\" EXIT", (126,), "single-quote it"),
    Attack("alias", "alias ls=rm", (126,), "alias"),
    Attack("command", "command cat a.txt", (126,), "command"),
    Attack("builtin", "builtin echo x", (126,), "builtin"),
    Attack("enable", "enable -n echo", (126,), "enable"),
    Attack("coproc", "coproc cat a.txt", (2,), "coproc"),
    Attack("background", "cat a.txt &", (2,), "background"),
    Attack("background in group", "{ echo x & }", (2,), "background"),
    Attack("background and eval", "eval x &", (126,), "background"),
    Attack("fork bomb", ":(){ :|:& };:", (126,), None),
    Attack("function named eval", "eval() { echo x; }; eval", (126,), "eval"),
    Attack("bin sh", "/bin/sh -c 'cat /etc/passwd'", (126,), "not an allowed command"),
    Attack("bash", "bash -c id", (126,), "not an allowed command"),
    Attack("python", "python3 -c 'print(1)'", (126,), "not an allowed command"),
    Attack("rm not allowed", "rm -rf /", (126,), "not an allowed command", policy={"allow": frozenset({"cat"})}),
    Attack("violation in cmdsub", "echo $(eval x)", (126,), "eval"),
    Attack("violation in heredoc", "cat <<EOF\n$(eval x)\nEOF", (126,), "eval"),
    Attack("violation in function body", "f() { exec cat; }", (126,), "exec"),
    Attack("violation in param default", "echo ${x:-$(source a.txt)}", (126,), "source"),
    Attack("process substitution", "cat <(cat /etc/passwd)", (0,), "No such file"),
    Attack("obsolete arith", "echo $[2**62*4] $[ $[1] ]", (0,), None),
    # -- limits ---------------------------------------------------------------------------------
    Attack("busy loop", "while true; do :; done", (125,), "limit"),
    Attack("busy loop iterations", "while true; do :; done", (125,), "loop iteration limit",
           limits={"commands": 10**9}),
    Attack("recursion", "f(){ f; }; f", (125,), "recursion"),
    Attack("recursion pipe", "f(){ f|f; }; f", (125,), "limit"),
    Attack("huge brace", "echo {1..99999999}", (125,), "brace expansion limit"),
    Attack("brace product", "echo {1..100}{1..100}{1..100}", (125,), "brace expansion limit"),
    Attack("endless pipe", "while true; do echo y; done | cat", (125,), "limit"),
    Attack("endless output", "while :; do echo yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy; done", (125,),
           "output limit", limits={"loop_iterations": 10**9, "commands": 10**9}),
    Attack("endless output through pipe", "while :; do echo yyyyyyyyyyyyyyyyyyyy; done | cat", (125,),
           "output limit", limits={"loop_iterations": 10**9, "commands": 10**9}),
    Attack("time limit", "while :; do :; done", (124,), "time limit",
           limits={"seconds": 0.3, "loop_iterations": 10**9, "commands": 10**9}),
    Attack("time limit in stage", "while :; do echo y; done | while read l; do :; done", (124,),
           "time limit", limits={"seconds": 0.5, "loop_iterations": 10**9, "commands": 10**9}),
    Attack("big heredoc", "cat <<EOF\n" + "x" * 200_000 + "\nEOF", (125,), "script length"),
    Attack("deep subshells", "( " * 2000 + "echo" + " )" * 2000, (2,), "nested too deeply"),
    Attack("deep groups", "{ " * 400 + "echo x" + "; }" * 400, (2,), "nested too deeply"),
    Attack("deep cmdsub", "echo " + "$(" * 300 + "echo" + ")" * 300, (2,), "nested too deeply"),
    Attack("deep function nesting at run", "f(){ g; }; g(){ f; }; f", (125,), "recursion"),
    Attack("many files, small limit", "for i in $(seq 1 20000); do echo x > f$i; done", (125,),
           "command limit", limits={"commands": 300}),
    Attack("write budget", "echo {1..2000} > big.txt", (125,), "write limit",
           limits={"written_bytes": 1000}),
    Attack("write budget loop", "while :; do cat a.txt >> grow.txt; done", (125,), "limit",
           limits={"written_bytes": 5000}),
    Attack("string doubling", "x=ab; while :; do x=$x$x; done", (125,), "string length limit",
           limits={"string_length": 100_000}),
    Attack("glob limit", "echo *", (125,), "glob limit", limits={"glob_results": 2}),
    Attack("command limit", "for i in {1..50}; do :; done; echo a; echo b; echo c", (125,),
           "command limit", limits={"commands": 20}),
    # -- policy -----------------------------------------------------------------------------------
    Attack("read-only redirect", "echo x > a.txt", (126,), "read-only", policy={"read_only": True}),
    Attack("read-only append", "echo x >> a.txt", (126,), "read-only", policy={"read_only": True}),
    Attack("read-only mkdir", "mkdir d", (126,), "read-only", policy={"read_only": True}, needs=("mkdir",)),
    Attack("read-only touch", "touch t", (126,), "read-only", policy={"read_only": True}, needs=("touch",)),
    Attack("read-only tee", "echo x | tee t", (126,), "read-only", policy={"read_only": True}, needs=("tee",)),
    Attack("read-only sed -i", "sed -i s/a/b/ a.txt", (126,), "read-only", policy={"read_only": True}, needs=("sed",)),
    Attack("read-only var target", "f=a.txt; echo x > $f", (126,), "read-only", policy={"read_only": True}),
    Attack("protected write", "echo x > log.jsonl", (126,), "protected",
           policy={"protected": frozenset({"/log.jsonl"})}),
    Attack("protected via variable", "f=log.jsonl; echo x > $f", (1,), "protected",
           policy={"protected": frozenset({"/log.jsonl"})}),
    Attack("protected glob", "echo x > log.jsonl", (126,), "protected",
           policy={"protected": frozenset({"/*.jsonl"})}),
    Attack("approval refuses", "echo x > a.txt", (126,), "approval",
           policy={"approve": lambda script, writes: False}),
    Attack("nul in path", "cat 'a\x00b'", (1,), "NUL"),
    Attack("nul in write path", "echo x > 'a\x00b'", (126,), "NUL"),
]


@pytest.fixture
def world(tmp_path: Path):
    outer = tmp_path / "outer"
    jail = outer / "jail"
    jail.mkdir(parents=True)
    (outer / "secret.txt").write_bytes(SECRET)
    (jail / "a.txt").write_bytes(b"alpha\n")
    (jail / "log.jsonl").write_bytes(b'{"a":1}\n')
    for i in range(5):
        (jail / f"n{i}.txt").write_bytes(b"n\n")
    os.symlink(outer / "secret.txt", jail / "link")
    os.symlink(outer, jail / "ldir")
    os.link(outer / "secret.txt", jail / "hl")
    return outer, jail


def _outer_state(outer: Path, jail: Path) -> dict[str, tuple[bytes, float]]:
    state = {}
    for dirpath, dirnames, filenames in os.walk(outer):
        if Path(dirpath) == jail or jail in Path(dirpath).parents:
            continue
        for f in filenames:
            p = Path(dirpath) / f
            st = p.stat()
            state[str(p)] = (p.read_bytes(), st.st_mtime)
    return state


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_attack(world, attack: Attack) -> None:
    outer, jail = world
    missing = [c for c in attack.needs if c not in registered()]
    if missing:
        pytest.skip(f"needs commands not registered yet: {', '.join(missing)}")
    before = _outer_state(outer, jail)
    etc_before = set(os.listdir("/etc"))
    limits = Limits(**attack.limits)
    policy_args = {"allow": ALL}
    policy_args.update(attack.policy)
    sb = Sandbox({"/": LocalDir(jail)}, cwd="/", policy=Policy(**policy_args), limits=limits)
    script = attack.script.replace("{OUTER}", str(outer))
    start = time.monotonic()
    r = sb.run(script)
    elapsed = time.monotonic() - start
    err = r.stderr.decode("utf-8", "replace")
    out = r.stdout.decode("utf-8", "replace")
    assert r.exit_code in attack.codes, f"exit {r.exit_code}, stderr {err!r}, stdout {out[:300]!r}"
    if attack.message:
        assert attack.message.lower() in err.lower(), err
    assert "Traceback" not in err and "Traceback" not in out
    if "{OUTER}" not in attack.script:  # (a typed host path is echoed back as typed)
        assert str(outer) not in err and str(outer) not in out
        assert str(jail) not in err and str(jail) not in out
    assert SECRET.decode().strip() not in out and SECRET.decode().strip() not in err
    assert "root:" not in out  # /etc/passwd content
    assert _outer_state(outer, jail) == before, "something outside the jail changed"
    assert (outer / "secret.txt").read_bytes() == SECRET
    assert set(os.listdir("/etc")) == etc_before
    assert not (outer / "escape.txt").exists()
    # every run ends promptly, even the ones stopped by a limit (not a timing assertion on
    # our speed: the default time limit is 10 s, this only catches a hung run)
    assert elapsed < 60


def test_enough_attacks() -> None:
    assert len(ATTACKS) >= 60


def test_many_files_stop_before_ten_thousand(world) -> None:
    outer, jail = world
    sb = Sandbox({"/": LocalDir(jail)}, policy=Policy(allow=ALL))
    r = sb.run("for i in $(seq 1 20000); do echo x > f$i; done")
    # the command limit (10,000) or, on a slow disk, the time limit stops it
    assert r.exit_code in (124, 125) and b"limit" in r.stderr
    assert len(list(jail.glob("f*"))) <= 10_000


def test_output_truncated_with_marker(world) -> None:
    outer, jail = world
    sb = Sandbox({"/": LocalDir(jail)}, limits=Limits(output_bytes=1000, loop_iterations=10**9,
                                                       commands=10**9))
    r = sb.run("while :; do echo 0123456789; done")
    assert r.exit_code == 125
    assert r.stdout.startswith(b"0123456789\n")
    assert b"[output truncated: limit of 1000 bytes reached" in r.stdout
    assert b"output limit of 1000 bytes exceeded" in r.stderr


def test_approval_sees_script_and_writes(world) -> None:
    outer, jail = world
    seen = []

    def approve(script: str, writes: list[str]) -> bool:
        seen.append((script, writes))
        return True

    sb = Sandbox({"/": LocalDir(jail)}, policy=Policy(allow=ALL, approve=approve))
    r = sb.run("echo x > new.txt; cat a.txt >> /other.txt")
    assert r.exit_code == 0
    assert seen == [("echo x > new.txt; cat a.txt >> /other.txt", ["/new.txt", "/other.txt"])]


def test_violations_all_reported_and_nothing_runs(world) -> None:
    outer, jail = world
    sb = Sandbox({"/": LocalDir(jail)}, policy=Policy(allow=frozenset({"cat"})))
    r = sb.run("echo x > ran.txt\neval y\n$1 z\nrm -rf /\nsleep 1 &")
    assert r.exit_code == 126
    lines = r.stderr.decode().splitlines()
    assert len(lines) == 5, lines  # eval, $1, rm, background, sleep
    assert "line 2, col 1" in lines[0] and "eval" in lines[0]
    assert "line 3, col 1" in lines[1]
    assert not (jail / "ran.txt").exists()

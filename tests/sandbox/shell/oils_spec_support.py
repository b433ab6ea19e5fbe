"""The Oils spec-suite runner's machinery: read ``../shared/conformance/oils/*.test.sh``, run
each case with ``bash -c`` (the oracle) and in the sandbox, compare stdout and exit status.

A case is *valid* when bash itself gives the result the file asserts for bash (the default
assertions, overridden by ``## OK bash``/``## BUG bash``/``## N-I bash`` lines). A valid case
*passes* when the sandbox gives bash's stdout and status. Oils' helper programs (``argv.py``,
``printenv.py``, ``stdout_stderr.py``) are Python commands registered with
``Sandbox(commands=...)``; bash gets equivalents as scripts on its PATH.

    python3 tests/sandbox/shell/oils_spec_support.py [FILE-SUBSTRING] [-v]

prints passed/valid per file (and, with -v, each failing case).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[3]
if str(_ROOT) not in sys.path:  # run as a script from the repository root
    sys.path.insert(0, str(_ROOT))

from sandbox import Limits, Policy  # noqa: E402
from sandbox import commands as registry  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.commands.base import CommandContext  # noqa: E402

SPEC_DIR = _ROOT.parent / "shared" / "conformance" / "oils"
SKIP_FILE = Path(__file__).with_name("oils_skips.txt")
#: The skip file of the run with ``Policy(dynamic=True)`` (eval, source, bash -c, $cmd).
SKIP_FILE_DYNAMIC = Path(__file__).with_name("oils_skips_dynamic.txt")
BASH = shutil.which("bash")
#: Seconds a case may take (bash and sandbox alike).
CASE_SECONDS = 5.0


# -- the spec format --------------------------------------------------------------------------


@dataclass
class Case:
    """One ``#### name`` case: its code and the result expected from bash."""

    file: str
    name: str
    code: str
    stdout: str | None = None
    status: int = 0
    #: Assertions qualified for bash (OK/BUG/N-I) override the defaults.
    bash_overrides: dict[str, object] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """``FILE :: NAME`` (how the skip file names the case)."""
        return f"{self.file} :: {self.name}"

    def expected(self) -> tuple[str | None, int]:
        """(stdout or None when not asserted, status) that bash should give."""
        out = self.bash_overrides.get("stdout", self.stdout)
        status = self.bash_overrides.get("status", self.status)
        return out, int(status)  # type: ignore[arg-type]


def _shells_of(qualifier: str) -> list[str]:
    return qualifier.split("/")


def parse_spec(path: Path) -> list[Case]:
    """Every case of one ``.test.sh`` file, with its bash assertions (sh_spec.py's rules)."""
    cases: list[Case] = []
    lines = path.read_text(encoding="utf-8", errors="surrogateescape").split("\n")
    cur: Case | None = None
    code: list[str] = []
    i = 0

    def finish() -> None:
        if cur is not None:
            cur.code = "\n".join(code).rstrip("\n") + "\n"
            cases.append(cur)

    while i < len(lines):
        line = lines[i]
        if line.startswith("#### "):
            finish()
            cur = Case(path.name, line[5:].strip(), "")
            code = []
            i += 1
            continue
        if cur is None:
            i += 1
            continue
        if line.startswith("## "):
            body = line[3:]
            target: dict[str, object] | None = None
            words = body.split(None, 2)
            if words and (words[0] in ("OK", "BUG", "N-I") or words[0].startswith(("OK-", "BUG-"))):
                if len(words) < 3:
                    i += 1
                    continue
                shells = _shells_of(words[1])
                body = words[2]
                target = cur.bash_overrides if "bash" in shells else {}
            key, _, value = body.partition(":")
            key = key.strip()
            value = value.strip()
            if key in ("STDOUT", "STDERR"):
                block: list[str] = []
                i += 1
                while i < len(lines) and not lines[i].startswith("## "):
                    block.append(lines[i])
                    i += 1
                if i < len(lines) and lines[i].startswith("## END"):
                    i += 1
                text = "".join(b + "\n" for b in block)
                if key == "STDOUT":
                    _store(cur, target, "stdout", text)
                continue
            if key == "stdout":
                _store(cur, target, "stdout", value + "\n")
            elif key == "stdout-json":
                _store(cur, target, "stdout", json.loads(value))
            elif key == "status":
                _store(cur, target, "status", int(value))
            elif key == "code" and target is None:
                code.append(value)
            i += 1
            continue
        code.append(line)
        i += 1
    finish()
    return cases


def _store(case: Case, target: dict[str, object] | None, key: str, value: object) -> None:
    if target is None:
        setattr(case, key, value)
    else:
        target[key] = value


# -- helper programs (Oils' spec/bin) ---------------------------------------------------------


def py2_repr(arg: bytes) -> str:
    """Python 2's ``repr`` of a byte string (what Oils' argv.py prints for each argument)."""
    quote = '"' if b"'" in arg and b'"' not in arg else "'"
    out = [quote]
    for b in arg:
        c = chr(b)
        if c == quote or c == "\\":
            out.append("\\" + c)
        elif c == "\t":
            out.append("\\t")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif b < 0x20 or b >= 0x7F:
            out.append(f"\\x{b:02x}")
        else:
            out.append(c)
    out.append(quote)
    return "".join(out)


def argv_text(args: list[bytes]) -> str:
    """argv.py's line: ``['a', 'b c']``."""
    return "[" + ", ".join(py2_repr(a) for a in args) + "]\n"


def printenv_text(names: list[str], env: dict[str, str]) -> str:
    """printenv.py's lines: each variable's value, or ``None``."""
    return "".join(f"{env[n]}\n" if n in env else "None\n" for n in names)


def _enc(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def _argv_cmd(ctx: CommandContext) -> int:
    ctx.stdout.write(_enc(argv_text([_enc(a) for a in ctx.args])))
    return 0


def _printenv_cmd(ctx: CommandContext) -> int:
    ctx.stdout.write(_enc(printenv_text(ctx.args, ctx.env)))
    return 0


def _stdout_stderr_cmd(ctx: CommandContext) -> int:
    args = ctx.args
    ctx.stdout.write(_enc((args[0] if args else "STDOUT") + "\n"))
    ctx.stderr.write(_enc((args[1] if len(args) > 1 else "STDERR") + "\n"))
    return int(args[2]) if len(args) > 2 else 0


HELPERS = {"argv.py": _argv_cmd, "printenv.py": _printenv_cmd,
           "stdout_stderr.py": _stdout_stderr_cmd}

_BIN_SCRIPT = """#!{python}
import os, sys
sys.path.insert(0, {support!r})
from oils_spec_support import argv_text, printenv_text
name = os.path.basename(sys.argv[0])
args = sys.argv[1:]
out = sys.stdout.buffer
if name == "argv.py":
    out.write(argv_text([os.fsencode(a) for a in args]).encode("utf-8", "surrogateescape"))
elif name == "printenv.py":
    out.write(printenv_text(args, dict(os.environ)).encode("utf-8", "surrogateescape"))
else:
    out.write(((args[0] if args else "STDOUT") + "\\n").encode())
    out.flush()
    sys.stderr.write((args[1] if len(args) > 1 else "STDERR") + "\\n")
    sys.exit(int(args[2]) if len(args) > 2 else 0)
"""


def make_bin(where: Path) -> Path:
    """A directory holding the helper programs as scripts (for bash's PATH)."""
    where.mkdir(parents=True, exist_ok=True)
    text = _BIN_SCRIPT.format(python=sys.executable, support=str(Path(__file__).parent))
    for name in HELPERS:
        p = where / name
        p.write_text(text)
        p.chmod(0o755)
    return where


# -- running ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    """stdout (text) and exit status of one run."""

    stdout: str
    status: int
    stderr: str = ""


def run_bash(case: Case, scratch: Path, bin_dir: Path) -> Outcome:
    """The oracle: ``bash -c CODE`` in ``scratch``."""
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC",
           "HOME": str(scratch), "TMP": str(scratch), "SH": "bash"}
    try:
        proc = subprocess.run([BASH or "bash", "-c", case.code], cwd=scratch, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=CASE_SECONDS)
    except subprocess.TimeoutExpired:
        return Outcome("<timeout>", -1)
    return Outcome(proc.stdout.decode("utf-8", "surrogateescape"), proc.returncode)


def sandbox_policy(dynamic: bool = False) -> Policy:
    """Every command allowed (the registry's and the helpers)."""
    return Policy(allow=frozenset(registry.names()) | frozenset(HELPERS), dynamic=dynamic)


def run_sandbox(case: Case, scratch: Path, dynamic: bool = False) -> Outcome:
    """The same code in the sandbox, ``scratch`` mounted at its own path as the cwd."""
    box = Sandbox({str(scratch): scratch}, cwd=str(scratch), policy=sandbox_policy(dynamic),
                  limits=Limits(seconds=CASE_SECONDS),
                  env={"HOME": str(scratch), "TMP": str(scratch), "SH": "bash",
                       "LC_ALL": "C.UTF-8",
                       "PATH": "/usr/bin:/bin"},
                  commands=HELPERS)
    result = box.run(case.code)
    return Outcome(result.stdout.decode("utf-8", "surrogateescape"), result.exit_code,
                   result.stderr.decode("utf-8", "replace"))


@dataclass
class CaseResult:
    """One case: valid under bash, and whether the sandbox matched bash."""

    case: Case
    valid: bool
    passed: bool
    bash: Outcome
    ours: Outcome


def run_case(case: Case, bin_dir: Path, dynamic: bool = False) -> CaseResult:
    """Run one case with both shells (each in a fresh scratch directory)."""
    with tempfile.TemporaryDirectory(prefix="oils-") as a, \
            tempfile.TemporaryDirectory(prefix="oils-") as b:
        for d in (a, b):  # Oils runs cases in its repository, where _tmp/ exists
            os.mkdir(os.path.join(d, "_tmp"))
        ref = run_bash(case, Path(a), bin_dir)
        want_out, want_status = case.expected()
        # the temp dir's name differs between the two runs: compare with it replaced
        ref_out = ref.stdout.replace(a, "$TMP")
        valid = ref.status == want_status and (want_out is None
                                               or ref.stdout.replace(a, "$TMP") == want_out
                                               or ref.stdout == want_out)
        ours = run_sandbox(case, Path(b), dynamic)
        ours_out = ours.stdout.replace(b, "$TMP")
        passed = valid and ours_out == ref_out and ours.status == ref.status
        return CaseResult(case, valid, passed, ref, ours)


def spec_files() -> list[Path]:
    """The spec files, sorted."""
    return sorted(SPEC_DIR.glob("*.test.sh"))


SKIP_HEADER = """\
# Oils spec cases (tests/sandbox/shell/test_oils_spec.py) the sandbox is not expected to pass,
# one a line: FILE :: CASE NAME :: REASON. A listed case that starts passing fails the test.
"""

#: The reason given for a failing case of each file, unless the skip file gives another.
_FILE_REASONS = {
    "array-assoc.test.sh": "associative array corner case differs from bash (namerefs, "
                           "strict_array coercions, readonly arrays)",
    "array.test.sh": "indexed array corner case differs from bash",
    "assign.test.sh": "declare/readonly corner case differs from bash",
    "builtin-read.test.sh": "read option not implemented or differs (-n/-N, -u, -t 0, "
                            "backslash and IFS corner cases)",
    "builtin-printf.test.sh": "printf corner case differs from bash",
    "case_.test.sh": "case corner case differs from bash",
    "dbracket.test.sh": "[[ ]] corner case differs from bash (arrays as operands, ~ forms)",
    "command_.test.sh": "needs a PATH of host programs (there is none in the sandbox)",
    "var-op-slice.test.sh": "${v:off:len} corner case differs from bash",
    "var-op-test.test.sh": "${v-x} forms on arrays / $@ with empty elements differ from bash",
    "redirect.test.sh": "exec redirections, {fd}> and N>&M- not implemented",
    "tilde.test.sh": "tilde forms (~user, ~+, in operands) not implemented",
    "pipeline.test.sh": "lastpipe / PIPESTATUS of compounds not implemented",
    "errexit.test.sh": "errexit corner case (inherit_errexit, shopt) differs from bash",
    "exit-status.test.sh": "exit status corner case differs from bash",
}


def default_reason(case: Case, ours: Outcome | None = None) -> str:
    """A one-line reason for a failing case: the guard's refusal when the sandbox refused it
    (by design under the policy), else by file, else a generic one."""
    if ours is not None:
        for line in ours.stderr.splitlines():
            if "refused: " in line:
                why = line.split("refused: ", 1)[1]
                why = why.split(": ", 1)[1] if why.startswith("line ") else why
                return "refused by design: " + why.split(" (allowed:")[0][:150]
            if line.startswith("sandbox: ") and "not supported" in line:
                return "not supported: " + line[9:][:150]
    return _FILE_REASONS.get(case.file, "bash feature not implemented yet in the sandbox")


def load_skips(dynamic: bool = False) -> dict[str, str]:
    """``FILE :: NAME`` -> reason, from the skip file (lines ``FILE :: NAME :: REASON``)."""
    out: dict[str, str] = {}
    path = SKIP_FILE_DYNAMIC if dynamic else SKIP_FILE
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, sep, reason = line.rpartition(" :: ")
        out[key if sep else line] = reason if sep else ""
    return out


def run_all(pattern: str = "", dynamic: bool = False) -> list[CaseResult]:
    """Run every case of every file whose name contains ``pattern``."""
    results: list[CaseResult] = []
    with tempfile.TemporaryDirectory(prefix="oils-bin-") as d:
        bin_dir = make_bin(Path(d))
        for f in spec_files():
            if pattern in f.name:
                for case in parse_spec(f):
                    results.append(run_case(case, bin_dir, dynamic))
    return results


def summary(results: list[CaseResult]) -> str:
    """passed/valid per file and in total."""
    per: dict[str, list[int]] = {}
    for r in results:
        row = per.setdefault(r.case.file, [0, 0, 0])
        row[2] += 1
        if r.valid:
            row[1] += 1
            row[0] += r.passed
    lines = [f"{name:28} {p:4}/{v:<4} ({n} cases)" for name, (p, v, n) in per.items()]
    tp = sum(r[0] for r in per.values())
    tv = sum(r[1] for r in per.values())
    lines.append(f"{'TOTAL':28} {tp:4}/{tv:<4} = {100.0 * tp / max(tv, 1):.1f}%")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Command line: print the summary (and failing cases with -v)."""
    verbose = "-v" in argv
    write_skips = "--write-skips" in argv
    dynamic = "--dynamic" in argv
    args = [a for a in argv if not a.startswith("-")]
    results = run_all(args[0] if args else "", dynamic)
    print(summary(results))
    if write_skips:
        old = load_skips(dynamic)
        def reason(r: CaseResult) -> str:
            kept = old.get(r.case.key, "")
            return kept if kept.startswith("flaky") else default_reason(r.case, r.ours)

        # a case bash did not pass this time (a timeout under load) keeps its old entry
        lines = [f"{r.case.key} :: {reason(r)}"
                 for r in results if (r.valid and not r.passed) or r.case.key in old and (
                     not r.valid or old[r.case.key].startswith("flaky"))]
        (SKIP_FILE_DYNAMIC if dynamic else SKIP_FILE).write_text(
            SKIP_HEADER + "".join(x + "\n" for x in lines), encoding="utf-8")
    if verbose:
        for r in results:
            if r.valid and not r.passed:
                print(f"FAIL {r.case.key}\n  bash: {r.bash!r}\n  ours: {r.ours!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

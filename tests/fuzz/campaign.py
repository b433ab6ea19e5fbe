"""The fuzz campaign: feeds cases to a worker process and checks every answer.

Invariants, for each case: an answer within the time limit plus a margin (else a hang: the
worker is killed and restarted); no ``internal error``; no Python traceback; no host path (the
scratch directory, the repository, ``site-packages``) in any output; the file outside the jail
neither read (its secret never appears) nor changed, and nothing created beside the jail."""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.fuzz.corpus import ROOT, Grammar, memory_call, mutate, seed_scripts

WORKER = Path(__file__).with_name("worker.py")


@dataclass
class Finding:
    """One distinct problem and the shortest case that shows it."""

    key: str
    kind: str
    case: dict
    detail: str

    def reproducer(self) -> str:
        """A line to paste into a regression test."""
        if self.kind in ("sh", "ro"):
            return f"{self.kind} {self.case['script']!r}"
        return f"{self.case['name']} {self.case['args']!r}"


@dataclass
class Report:
    """What a campaign ran and found."""

    cases: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    findings: dict[str, Finding] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> str:
        """Counts and every finding, one a line."""
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.by_kind.items()))
        lines = [f"fuzz: {self.cases} cases in {self.seconds:.0f} s ({kinds}); "
                 f"{len(self.findings)} distinct problems"]
        for f in self.findings.values():
            lines.append(f"  [{f.key}] {f.reproducer()[:400]}\n      {f.detail[:300]!r}")
        return "\n".join(lines)


class Worker:
    """A worker process over a scratch directory; restarted after a hang."""

    def __init__(self, base: Path, seconds: float):
        self.base, self.seconds = base, seconds
        self.proc: subprocess.Popen | None = None
        self.next_id = 0
        self.start()

    def start(self) -> None:
        """Start (or restart) the child."""
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, str(WORKER), str(self.base), str(self.seconds)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=ROOT, env=env, text=True)

    def ask(self, case: dict, timeout: float) -> dict | None:
        """The worker's answer, or None if it did not answer within ``timeout`` (killed)."""
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        self.next_id += 1
        case = {**case, "id": self.next_id}
        try:
            self.proc.stdin.write(json.dumps(case) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.restart()
            return {"id": case["id"], "raised": "worker died", "text": ""}
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self.restart()
            return None
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.poll()
            self.restart()
            return {"id": case["id"], "raised": f"worker died (status {code})", "text": ""}
        return json.loads(line)

    def restart(self) -> None:
        """Kill and start again."""
        self.close()
        self.start()

    def close(self) -> None:
        """Stop the child."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


class Campaign:
    """Generate cases, run them, check them, collect findings (minimised)."""

    def __init__(self, seed: int, limit: float = 1.0, margin: float = 6.0):
        self.rng = random.Random(seed)
        self.limit, self.margin = limit, margin
        self.pool = seed_scripts()
        self.grammar = Grammar(self.rng)
        self.tmp = Path(tempfile.mkdtemp(prefix="memtool-fuzz-"))
        self.base = self.tmp / "base"
        self.base.mkdir()
        self.outside = self.tmp / "outside.txt"
        self.secret = f"OUTSIDE-SECRET-{self.rng.getrandbits(64):016x}"
        self.outside.write_text(self.secret + "\n")
        self.worker = Worker(self.base, limit)
        self.report = Report()
        self.host_strings = [str(self.tmp), str(ROOT), "site-packages", self.secret]

    def next_case(self) -> dict:
        """A random case: mutated script, generated script, read-only run, or tool call."""
        r = self.rng.random()
        if r < 0.45:
            return {"kind": "sh", "script": mutate(self.rng, self.rng.choice(self.pool), self.pool)}
        if r < 0.75:
            return {"kind": "sh", "script": self.grammar.script()}
        if r < 0.82:
            return {"kind": "ro", "script": self.grammar.script()}
        name, args = memory_call(self.rng, self.pool)
        return {"kind": "tool", "name": name, "args": args}

    def problem(self, case: dict, answer: dict | None) -> tuple[str, str] | None:
        """(key, detail) of what is wrong with this answer, or None."""
        if answer is None:
            return "hang", f"no answer within {self.limit + self.margin:.0f} s"
        text = answer.get("text", "")
        if "raised" in answer:
            return f"raised {answer['raised'].split(':')[0]}", text[-600:]
        if answer.get("elapsed", 0) > self.limit + self.margin:
            return "slow", f"{answer['elapsed']:.1f} s"
        for marker in ("internal error", "Traceback (most recent call last)", "please report"):
            if marker in text:
                at = text.index(marker)
                return f"{marker}: {text[at:at + 60].splitlines()[0]}", text[max(0, at - 200):at + 200]
        for host in self.host_strings:
            if host in text:
                return f"host string {host[:20]!r} in output", text[:400]
        return None

    def check_outside(self) -> tuple[str, str] | None:
        """Nothing beside the jail changed."""
        if self.outside.read_text() != self.secret + "\n":
            return "outside file changed", self.outside.read_text()[:200]
        extra = sorted(p.name for p in self.tmp.iterdir()) != ["base", "outside.txt"]
        extra = extra or sorted(p.name for p in self.base.iterdir()) != ["jail", "memory"]
        if extra:
            return "files created beside the jail", repr(sorted(p.name for p in self.tmp.rglob("*"))[:20])
        return None

    def run_case(self, case: dict) -> tuple[str, str] | None:
        """Run one case; its problem or None."""
        answer = self.worker.ask(case, self.limit + self.margin)
        return self.problem(case, answer)

    def minimise(self, case: dict, key: str) -> dict:
        """Shrink a script while it shows the same problem (a bounded delta pass)."""
        if "script" not in case or key == "hang":
            return case
        best = case
        deadline = time.monotonic() + 20
        chunk = max(1, len(best["script"]) // 2)
        while chunk >= 1 and time.monotonic() < deadline:
            i, shrunk = 0, False
            while i < len(best["script"]) and time.monotonic() < deadline:
                trial = {**best, "script": best["script"][:i] + best["script"][i + chunk:]}
                found = self.run_case(trial)
                if found is not None and found[0] == key:
                    best, shrunk = trial, True
                else:
                    i += chunk
            if not shrunk:
                chunk //= 2
        return best

    def run(self, seconds: float, max_findings: int = 50) -> Report:
        """Fuzz for ``seconds``."""
        start = time.monotonic()
        try:
            while time.monotonic() - start < seconds and len(self.report.findings) < max_findings:
                case = self.next_case()
                self.report.cases += 1
                self.report.by_kind[case["kind"]] = self.report.by_kind.get(case["kind"], 0) + 1
                found = self.run_case(case)
                if self.report.cases % 25 == 0:
                    outside = self.check_outside()
                    if outside is not None:
                        found = found or outside
                    self.worker.ask({"kind": "reset"}, 30)
                if found is not None and found[0] not in self.report.findings:
                    small = self.minimise(case, found[0])
                    self.report.findings[found[0]] = Finding(found[0], case["kind"], small, found[1])
                    self.worker.ask({"kind": "reset"}, 30)
        finally:
            self.worker.close()
            self.report.seconds = time.monotonic() - start
            shutil.rmtree(self.tmp, ignore_errors=True)
        return self.report

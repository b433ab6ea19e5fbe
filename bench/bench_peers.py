"""Side by side with two other sandboxed shells: bashkit (PyPI) and just-bash (npm).

    python bench/bench_peers.py [--runs 1000] [--proc-runs 20] [--big-runs 1] [--timeout 120]
                                [--committed] [--skip-big] [--skip-proc]

Installs the peers, pinned, into ``bench/.peers/`` (a venv for bashkit, ``npm --prefix`` for
just-bash; git-ignored, never a test dependency), then measures in the same run:

1. latency, p50 and p90 over ``--runs`` runs, of five tool calls on the same small ``.memory``
   (``make_memory`` of bench_shell.py), each tool in-process: ours = ``Sandbox.run``, the peers
   through their own APIs and in-memory filesystems (a worker process each, timing every call
   inside itself: bench/peers/bashkit_bench.py and bench/peers/just_bash_bench.mjs);
2. whole-process calls (``python -m sandbox``, ``bash -c``, the just-bash CLI, bashkit through a
   ``python`` one-shot since its PyPI package has no CLI) beside Python's and node's start-up;
3. the 100 MB rows of issue 16 (``CMD | wc -l`` over bench/data/conversations.jsonl), GNU by
   ``bash -c``, ours in-process over a read-only LocalDir mount, each peer over its own mount of
   the same directory, one peer at a time, with a per-row timeout; then the same rows on a
   10 MB file of the same generator (bashkit refuses any input over 32 MB).

Every output is compared with bash's. Writes bench/results/peers.md and replaces the section
``## Side by side: bashkit and just-bash`` of bench/README.md (nothing else there).
``--committed`` measures ``sandbox/`` as committed at HEAD (``git archive``), not the work tree.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import resource
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PEERS = HERE / ".peers"
VENV = PEERS / "venv"
NODE_PREFIX = PEERS / "node"
NODE_MODULES = NODE_PREFIX / "node_modules"
JUST_BASH_CLI = NODE_MODULES / "just-bash" / "dist" / "bin" / "just-bash.js"
BASHKIT_WORKER = HERE / "peers" / "bashkit_bench.py"
JUST_BASH_WORKER = HERE / "peers" / "just_bash_bench.mjs"
SECTION = "## Side by side: bashkit and just-bash"

#: The versions measured (``--upgrade`` is not offered on purpose: a change of version is a
#: deliberate edit here, so the table always names what it measured).
BASHKIT_VERSION = "0.20.1"
JUST_BASH_VERSION = "3.4.2"

#: (label, script, target p50 in ms) — the seed calls of issue 16.
LATENCY = [
    ("cat", "cat /.memory/core.md", 0.3),
    ("echo >>", 'echo "- User prefers concise answers" >> /.memory/core.md', 0.3),
    ("grep -n", "grep -n project /.memory/notes.md", 0.3),
    ("tail", "tail -n 40 /.memory/conversations.jsonl", 0.3),
    ("tail | jq", "tail -n 40 /.memory/conversations.jsonl | jq -c '.role + \": \" + .content'",
     0.5),
]

BIG = [
    "grep -ciE 'pricing|budget'",
    "grep the",
    "grep -c the",
    "grep -n user",
    "grep -v the",
    "grep -w day",
    "sed 's/the/THE/g'",
    "sed -n '$='",
    "sed -e '/^$/d' -e 's/  */ /g'",
    "sort",
    "sort -t: -k2,2",
]

#: The peers' installed versions, set by main() (shown in the column headers).
VERSIONS: dict[str, str | None] = {}

BASH_ENV = {"LC_ALL": "C.UTF-8", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}


# -- installing the peers --------------------------------------------------------------------

def _installed_bashkit() -> str | None:
    py = VENV / "bin" / "python"
    if not py.exists():
        return None
    proc = subprocess.run([str(py), "-c", "import bashkit; print(bashkit.__version__)"],
                          capture_output=True, text=True)
    return proc.stdout.strip() or None


def _installed_just_bash() -> str | None:
    pkg = NODE_MODULES / "just-bash" / "package.json"
    return json.loads(pkg.read_text())["version"] if pkg.exists() else None


def ensure_peers() -> dict[str, str | None]:
    """Install the pinned peers into bench/.peers/ when missing; return their versions."""
    PEERS.mkdir(exist_ok=True)
    if _installed_bashkit() != BASHKIT_VERSION:
        if not (VENV / "bin" / "python").exists():
            subprocess.run(["python3", "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", f"bashkit=={BASHKIT_VERSION}"],
                       check=False)
    if _installed_just_bash() != JUST_BASH_VERSION and shutil.which("npm"):
        subprocess.run(["npm", "install", "--silent", "--no-fund", "--no-audit", "--prefix",
                        str(NODE_PREFIX), f"just-bash@{JUST_BASH_VERSION}"], check=False)
    return {"bashkit": _installed_bashkit(), "just-bash": _installed_just_bash()}


# -- a peer worker ---------------------------------------------------------------------------

class Worker:
    """A peer's bench worker process, spoken to in JSON lines, with a timeout per request."""

    def __init__(self, name: str, argv: list[str]):
        self.name = name
        self.argv = argv
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()

    def start(self) -> None:
        """Start (or restart) the process."""
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        out, lines = self.proc.stdout, self.lines

        def pump() -> None:
            assert out is not None
            for line in out:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()

    def request(self, req: dict, timeout: float) -> dict:
        """Send one request; ``{"timeout": True}`` (process ended) or ``{"error": ...}``."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            return {"timeout": True}
        except BrokenPipeError:
            line = None
        if line is None:
            code = self.proc.wait()
            self.proc = None
            return {"error": f"worker died (exit {code}; out of memory?)"}
        return json.loads(line)

    def stop(self) -> None:
        """End the process this object started."""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc = None


def workers(versions: dict[str, str | None]) -> list[Worker]:
    """The peers that are installed."""
    found = []
    if versions.get("bashkit"):
        found.append(Worker("bashkit", [str(VENV / "bin" / "python"), str(BASHKIT_WORKER)]))
    if versions.get("just-bash") and shutil.which("node"):
        found.append(Worker("just-bash", ["node", "--max-old-space-size=8192",
                                          str(JUST_BASH_WORKER), str(NODE_MODULES)]))
    return found


# -- helpers -------------------------------------------------------------------------------

def pct(times: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``times``, in milliseconds."""
    s = sorted(times)
    return s[min(len(s) - 1, int(q * len(s)))] * 1e3


def time_calls(fn, runs: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Wall seconds of ``runs`` calls of ``fn`` after a short warm-up."""
    for _ in range(min(20, runs)):
        fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return times


def memory_files(mem: Path) -> dict[str, str]:
    """The .memory as the peers' ``files=`` mapping (virtual path -> text)."""
    return {f"/.memory/{p.name}": p.read_text() for p in sorted(mem.iterdir())}


def bash_run(script: str, root: Path, prefix: str) -> tuple[bytes, int]:
    """``bash -c`` of ``script`` with the virtual ``prefix`` mapped to the real ``root``."""
    proc = subprocess.run(["bash", "-c", script.replace(prefix, str(root))], env=BASH_ENV,
                          capture_output=True, stdin=subprocess.DEVNULL)
    return proc.stdout, proc.returncode


def cell(text: str) -> str:
    """Code in a markdown table cell (``|`` escaped)."""
    return "`" + text.replace("|", "\\|") + "`"


# -- 1. latency -------------------------------------------------------------------------------

def latency(runs: int, peers: list[Worker], make_memory, sandbox_cls, memory_fs_cls,  # type: ignore[no-untyped-def]
            mode: str) -> list[dict]:
    """p50/p90 of each seed call, each tool in-process, output checked against bash.

    ``mode`` "dir": every tool reads and writes the .memory directory on disk (ours LocalDir,
    bashkit ``mounts=[... writable]``, just-bash ``ReadWriteFs``); "memory": every tool holds
    the same files in its own in-memory filesystem (ours MemoryFS, the peers ``files=``)."""
    rows = []
    for label, script, target in LATENCY:
        row: dict = {"label": label, "script": script, "target": target, "tools": {}}
        with tempfile.TemporaryDirectory() as d:
            mem = Path(d) / ".memory"
            mem.mkdir()
            make_memory(mem)
            files = memory_files(mem)
            original = (mem / "core.md").read_bytes()
            expected = bash_run(script, mem, "/.memory")
            expected_core = (mem / "core.md").read_bytes()
            (mem / "core.md").write_bytes(original)
            if mode == "dir":
                init: dict = {"op": "init", "cwd": "/.memory",
                              "mount": {"host": str(mem), "at": "/.memory", "writable": True}}
                sb = sandbox_cls({"/.memory": mem}, cwd="/.memory")
            else:
                init = {"op": "init", "files": files, "cwd": "/.memory"}
                sb = sandbox_cls({"/.memory": memory_fs_cls({k[len("/.memory/"):]: v
                                                             for k, v in files.items()})},
                                 cwd="/.memory")
            r = sb.run(script)
            core = sb.run("cat /.memory/core.md").stdout
            same = (r.stdout, r.exit_code) == expected and core == expected_core
            (mem / "core.md").write_bytes(original)
            if mode == "memory":
                sb = sandbox_cls({"/.memory": memory_fs_cls({k[len("/.memory/"):]: v
                                                             for k, v in files.items()})},
                                 cwd="/.memory")
            times = time_calls(lambda: sb.run(script), runs)
            (mem / "core.md").write_bytes(original)
            row["tools"]["ours"] = {"p50": pct(times, .5), "p90": pct(times, .9), "same": same,
                                    "got": r.stdout[:200].decode(errors="replace"),
                                    "stderr": r.stderr[:200].decode(errors="replace")}
            for w in peers:
                answer = w.request(init, 60)
                if "ok" not in answer:
                    row["tools"][w.name] = {"failed": answer.get("error", "timeout")}
                    continue
                first = w.request({"op": "run", "script": script}, 60)
                if "stdout" not in first:
                    row["tools"][w.name] = {"failed": first.get("error", "timeout")}
                    continue
                core_answer = w.request({"op": "run", "script": "cat /.memory/core.md"}, 60)
                same = ((first["stdout"].encode(), first["exit"]) == expected
                        and core_answer.get("stdout", "").encode() == expected_core)
                (mem / "core.md").write_bytes(original)
                w.request(init, 60)
                bench = w.request({"op": "bench", "script": script, "runs": runs}, 600)
                (mem / "core.md").write_bytes(original)
                if "times" not in bench:
                    row["tools"][w.name] = {"failed": bench.get("error", "timeout")}
                    continue
                row["tools"][w.name] = {"p50": pct(bench["times"], .5),
                                        "p90": pct(bench["times"], .9), "same": same,
                                        "got": first["stdout"][:200],
                                        "stderr": first["stderr"][:200]}
        row["bash"] = expected[0][:200].decode(errors="replace")
        rows.append(row)
        shown = ", ".join(f"{k} {v['p50']:.3f}" if "p50" in v else f"{k} failed"
                          for k, v in row["tools"].items())
        print(f"latency ({mode}) {label:10s} p50 ms: {shown}", flush=True)
    return rows


# -- 2. whole process ------------------------------------------------------------------------

def whole_process(runs: int, versions: dict[str, str | None], root: Path,
                  make_memory) -> tuple[list[dict], list[tuple[str, float]]]:  # type: ignore[no-untyped-def]
    """p50 of each seed call as a whole process, and the bare start-up of the runtimes."""
    py = sys.executable
    env = dict(os.environ, PYTHONPATH=str(root))
    bk_py = str(VENV / "bin" / "python")
    rows = []
    with tempfile.TemporaryDirectory() as d:
        top = Path(d)
        mem = top / ".memory"
        mem.mkdir()
        make_memory(mem)
        original = (mem / "core.md").read_bytes()
        tools: dict[str, object] = {
            "python -m sandbox": lambda s: [py, "-m", "sandbox", "--mount", f"/.memory={mem}",
                                           "-c", s],
            "bash -c": lambda s: ["bash", "-c", s.replace("/.memory", str(mem))],
        }
        if versions.get("just-bash") and shutil.which("node"):
            tools["just-bash CLI"] = lambda s: ["node", str(JUST_BASH_CLI), "--allow-write",
                                                "--root", str(top), "-c",
                                                s.replace("/.memory", "/home/user/project/.memory")]
        if versions.get("bashkit"):
            one_shot = ("import sys; from bashkit import Bash; "
                        "r = Bash(mounts=[{'host_path': sys.argv[1], 'vfs_path': '/.memory', "
                        "'writable': True}]).execute_sync(sys.argv[2]); "
                        "sys.stdout.write(r.stdout); sys.stderr.write(r.stderr); sys.exit(r.exit_code)")
            tools["bashkit (python -c)"] = lambda s: [bk_py, "-c", one_shot, str(mem), s]
        for label, script, _ in LATENCY:
            expected = bash_run(script, mem, "/.memory")
            (mem / "core.md").write_bytes(original)
            row: dict = {"label": label, "script": script, "tools": {}}
            for name, argv_of in tools.items():
                argv = argv_of(script)  # type: ignore[operator]
                first = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL,
                                       env=env if name == "python -m sandbox" else BASH_ENV,
                                       cwd=str(root))
                same = (first.stdout, first.returncode) == expected
                times = []
                for _ in range(runs):
                    t = time.perf_counter()
                    subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL,
                                   env=env if name == "python -m sandbox" else BASH_ENV,
                                   cwd=str(root))
                    times.append(time.perf_counter() - t)
                    (mem / "core.md").write_bytes(original)
                row["tools"][name] = {"p50": pct(times, .5), "same": same,
                                      "stderr": first.stderr[:200].decode(errors="replace")}
            rows.append(row)
            print(f"process {label:10s} p50 ms: " + ", ".join(
                f"{k} {v['p50']:.1f}" for k, v in row["tools"].items()), flush=True)
    starts = [
        ("python -c pass", [py, "-c", "pass"]),
        ("python -S -c pass", [py, "-S", "-c", "pass"]),
        ("python -c 'import sandbox.api'", [py, "-c", "import sandbox.api"]),
    ]
    if versions.get("bashkit"):
        starts.append(("python -c 'import bashkit' (bench venv)", [bk_py, "-c", "import bashkit"]))
    if shutil.which("node"):
        starts.append(("node -e 0", ["node", "-e", "0"]))
    start_rows = []
    for label, argv in starts:
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, env=env,
                           cwd=str(root))
            times.append(time.perf_counter() - t)
        start_rows.append((label, pct(times, .5)))
        print(f"start-up {label}: {start_rows[-1][1]:.1f} ms", flush=True)
    return rows, start_rows


# -- 3. 100 MB rows --------------------------------------------------------------------------

def big_rows(data: Path, runs: int, peer_runs: int, timeout: float, peers: list[Worker],
             sandbox_cls, limits_cls, localdir_cls) -> list[dict]:  # type: ignore[no-untyped-def]
    """``CMD FILE | wc -l`` on the 100 MB file for GNU, ours and each peer (one at a time)."""
    data_dir = data.resolve().parent
    scripts = [f"{cmd} /data/{data.name} | wc -l" for cmd in BIG]
    rows = []
    sb = sandbox_cls({"/data": localdir_cls(str(data_dir), read_only=True)}, cwd="/data",
                     limits=limits_cls(seconds=timeout))
    for cmd, script in zip(BIG, scripts):
        gnu_times, gnu_cpu, gnu_out = [], [], b""
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            out, _code = bash_run(script, data_dir, "/data")
            gnu_times.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            gnu_cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            gnu_out = out
        row: dict = {"cmd": cmd, "script": script, "gnu": min(gnu_times), "gnu_cpu": min(gnu_cpu),
                     "gnu_out": gnu_out.decode(errors="replace").strip(), "tools": {}}
        ours_times, ours_cpu, result = [], [], None
        for _ in range(runs):
            c = time.process_time()
            t = time.perf_counter()
            result = sb.run(script)
            ours_times.append(time.perf_counter() - t)
            ours_cpu.append(time.process_time() - c)
        assert result is not None
        row["tools"]["ours"] = _verdict(min(ours_times), result.stdout, result.exit_code,
                                        result.stderr, gnu_out, timeout)
        row["tools"]["ours"]["cpu"] = min(ours_cpu)
        rows.append(row)
        print(f"{data.name} {cmd:32s} GNU {row['gnu']:.2f}s ours {_show(row['tools']['ours'])}",
              flush=True)
    for w in peers:  # one peer at a time, its process ended before the next starts
        for row in rows:
            init = w.request({"op": "init", "mount": {"host": str(data_dir), "at": "/data"}}, 60)
            if "ok" not in init:
                row["tools"][w.name] = {"failed": init.get("error", "timeout")}
                continue
            best: dict | None = None
            for _ in range(peer_runs):
                r = w.request({"op": "run", "script": row["script"]}, timeout)
                if "timeout" in r:
                    best = {"failed": "timeout"}
                    break
                if "stdout" not in r:
                    best = {"failed": r.get("error", "?")}
                    break
                v = _verdict(r["seconds"], r["stdout"].encode(), r["exit"],
                             (r.get("stderr") or r.get("error") or "").encode(),
                             row["gnu_out"].encode() + b"\n", timeout)
                if best is None or ("seconds" in v and v["seconds"] < best.get("seconds", 1e9)):
                    best = v
            assert best is not None
            row["tools"][w.name] = best
            print(f"{data.name} {row['cmd']:32s} {w.name} {_show(best)}", flush=True)
        w.stop()
    return rows


def _verdict(seconds: float, stdout: bytes, code: int, stderr: bytes, gnu_out: bytes,
             timeout: float) -> dict:
    """Time when the output is GNU's, else why not."""
    if seconds >= timeout:
        return {"failed": "timeout"}
    if stdout == gnu_out and code == 0:
        return {"seconds": seconds}
    reason = stderr.decode(errors="replace").strip().splitlines()
    if code != 0 and reason:
        text = reason[-1]
        if "time limit" in text:
            return {"failed": "timeout"}
        return {"failed": text[:160]}
    return {"failed": f"wrong output ({stdout.decode(errors='replace').strip()[:40]!r}, "
                      f"GNU {gnu_out.decode(errors='replace').strip()!r}, exit {code})"}


def _show(v: dict) -> str:
    return f"{v['seconds']:.2f}s" if "seconds" in v else v["failed"]


# -- the table -------------------------------------------------------------------------------

def _ratio(a: dict | float | None, b: dict | float | None) -> str:
    x = a.get("seconds") if isinstance(a, dict) else a
    y = b.get("seconds") if isinstance(b, dict) else b
    if not x or not y:
        return "—"
    return f"{x / y:.2f}x"


def _lat(v: dict | None, key: str) -> str:
    if v is None:
        return "not installed"
    if "failed" in v:
        return "failed: " + str(v["failed"])[:60]
    return f"{v[key]:.3f}"


def big_table(data: Path, rows: list[dict], args: argparse.Namespace,
              names: list[str]) -> list[str]:
    """The markdown of one large-file table; failure reasons as notes under it."""
    size = data.stat().st_size / 1e6
    out = [
        f"### {size:.0f} MB rows (`CMD {data.name} | wc -l`)", "",
        f"Wall time in seconds, best of {args.big_runs} for GNU and ours, of {args.peer_runs} for "
        "each peer: GNU by `bash -c` (LC_ALL=C.UTF-8); "
        "ours `Sandbox.run` in this process over a read-only LocalDir mount at /data; "
        "bashkit `Bash(mounts=[{host_path, vfs_path: '/data'}])`; just-bash `OverlayFs` "
        "(read-only, mount point /data) with its execution limits raised (input, live bytes, "
        "string length, file read size: its defaults refuse a file over 10 MB); each peer in its "
        "own worker process, one peer at a time. Every output is checked against GNU's; a run "
        f"past {args.timeout:g} s is ended (`timeout`). `ours ÷ peer` below 1 means ours is "
        "faster. GNU's times include starting bash and the tools (a few ms, which matters only "
        "on the small file). `ours ÷ GNU, CPU` is the ratio of CPU seconds (user + system: "
        "bash and its children against this process), which a loaded machine disturbs less "
        "than wall time.", "",
        "| command | GNU (s) | ours (s) | ours ÷ GNU | ours ÷ GNU, CPU | "
        + " | ".join(f"{_named(n)} (s) | {n} ÷ GNU | ours ÷ {n}" for n in names) + " |",
        "|---|---:|---:|---:|---:|" + "---:|---:|---:|" * len(names),
    ]
    notes: dict[str, str] = {}

    def show(v: dict) -> str:
        if "seconds" in v:
            return f"{v['seconds']:.2f}"
        if v["failed"] == "timeout":
            return "timeout"
        reason = re.sub(r"\((\d+) (used|requested), max (\d+)\)", r"(limit \3)", v["failed"])
        mark = notes.setdefault(reason, chr(ord("a") + len(notes)))
        return f"failed ({mark})"

    for row in rows:
        t = row["tools"]
        ours_cpu = t["ours"].get("cpu") if "seconds" in t["ours"] else None
        cells = [cell(row["cmd"]), f"{row['gnu']:.2f}", show(t["ours"]),
                 _ratio(t["ours"], row["gnu"]), _ratio(ours_cpu, row.get("gnu_cpu"))]
        for n in names:
            v = t.get(n) or {"failed": "not run"}
            cells += [show(v), _ratio(v, row["gnu"]), _ratio(t["ours"], v)]
        out.append("| " + " | ".join(cells) + " |")
    if notes:
        out += [""] + [f"({mark}) {reason}" + ("  " if i < len(notes) - 1 else "")
                       for i, (reason, mark) in enumerate(notes.items())]
    return out


def _named(peer: str) -> str:
    """A peer's name with the version measured (column headers)."""
    version = VERSIONS.get(peer)
    return f"{peer} {version}" if version else peer


def latency_table(lat: list[dict], names: list[str]) -> list[str]:
    """The markdown rows of one latency table."""
    out = [
        "| command | target p50 | ours p50 | ours p90 | "
        + " | ".join(f"{_named(n)} p50 | {n} p90" for n in names)
        + " | " + " | ".join(f"{n} ÷ ours" for n in names)
        + " | ours meets target | same output as bash (ours"
        + "".join(f" / {n}" for n in names) + ") |",
        "|---|---:|---:|---:|" + "---:|---:|" * len(names) + "---:|" * len(names) + ":---:|:---:|",
    ]
    for row in lat:
        t = row["tools"]
        ours = t["ours"]
        meets = "yes" if ours["p50"] <= row["target"] else "**no**"
        same = " / ".join(("yes" if t[k].get("same") else "**no**") if k in t and "same" in t[k]
                          else "—" for k in ["ours", *names])
        ratios = []
        for n in names:
            v = t.get(n)
            ratios.append(f"{v['p50'] / ours['p50']:.1f}x" if v and "p50" in v else "—")
        out.append(f"| {cell(row['script'])} | ≤ {row['target']} | {ours['p50']:.3f} | "
                   f"{ours['p90']:.3f} | "
                   + " | ".join(f"{_lat(t.get(n), 'p50')} | {_lat(t.get(n), 'p90')}" for n in names)
                   + " | " + " | ".join(ratios) + f" | {meets} | {same} |")
    return out


def render(args: argparse.Namespace, versions: dict[str, str | None], commit: str,
           loads: list[tuple[float, float, float]], lat_dir: list[dict], lat_mem: list[dict],
           proc: tuple[list[dict], list[tuple[str, float]]] | None,
           big: list[tuple[Path, list[dict]]], names: list[str]) -> str:
    """bench/results/peers.md."""
    import platform
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip() \
        if shutil.which("node") else "absent"
    load_text = " → ".join(f"{a:.2f} / {b:.2f} / {c:.2f}" for a, b, c in loads)
    out = [
        SECTION, "",
        f"Command: `python bench/bench_peers.py --runs {args.runs} --proc-runs {args.proc_runs} "
        f"--big-runs {args.big_runs} --peer-runs {args.peer_runs} --timeout {args.timeout:g}"
        + (" --committed" if args.committed else "") + "`, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit `{commit}`.",
        "",
        f"Peers, pinned in the script and installed by it into `bench/.peers/` (git-ignored; never "
        f"a test dependency): **bashkit {versions.get('bashkit') or 'not installed'}** (PyPI, a "
        f"Rust interpreter behind a Python extension; Python {platform.python_version()}) and "
        f"**just-bash {versions.get('just-bash') or 'not installed'}** (npm, TypeScript; node "
        f"{node}). Ours: `sandbox` at that commit"
        + (" (exported by `git archive`, byte-compiled, its optional C line scanner "
           f"{VERSIONS.get('_accel')})" if args.committed else f" (C line scanner "
                                                                 f"{VERSIONS.get('_accel')})")
        + f", Python {platform.python_version()}. "
        f"Load average (1/5/15 min) at the start → end of the run: {load_text}, on the shared "
        "2-core machine (other sessions were working on it), so the p50 over many runs is the "
        "figure to read; p90 shows the noise.",
        "",
        "### Tool-call latency (in-process, small `.memory`)",
        "",
        f"Each tool in its own process, timed around each call inside it, {args.runs} runs after "
        "20 warm-up runs, all on the same files, made by `make_memory` of bench_shell.py "
        "(core.md 61 lines, notes.md 80 lines all containing `project`, conversations.jsonl 100 "
        "lines). Ours is `Sandbox.run`, bashkit `Bash(...).execute_sync`, just-bash "
        "`await new Bash(...).exec`. `same output as bash` compares stdout and exit status with "
        "`bash -c` over a copy of the directory (and the resulting core.md for `echo >>`). "
        "`peer ÷ ours` above 1 means ours is faster. Times in ms.",
        "",
        "**The .memory directory on disk** (what an application with a persistent memory does; "
        "bench_shell.py measures ours this way): ours a LocalDir mount at /.memory, bashkit "
        "`mounts=[{host_path, vfs_path: '/.memory', writable: True}]`, just-bash a `ReadWriteFs` "
        "mounted at /.memory in a `MountableFs`.",
        "",
        *latency_table(lat_dir, names),
        "",
        "**The same files in each tool's in-memory filesystem**: ours a `MemoryFS` mount, the "
        "peers their `files=` option (`InMemoryFs` for just-bash).",
        "",
        *latency_table(lat_mem, names),
    ]
    diffs = [(row, n) for lat in (lat_dir, lat_mem) for row in lat for n in ["ours", *names]
             if n in row["tools"] and row["tools"][n].get("same") is False]
    if diffs:
        out += ["", "Output differences from bash:", ""]
        for row, n in diffs:
            v = row["tools"][n]
            out.append(f"- {n}, {cell(row['script'])}: printed {v.get('got', '')[:120]!r} "
                       f"(stderr {v.get('stderr', '')[:80]!r}); bash printed "
                       f"{row['bash'][:120]!r}")
    if proc is not None:
        prow, starts = proc
        tools = list(prow[0]["tools"]) if prow else []
        out += [
            "", "### Whole process (one command, one process)", "",
            f"p50 over {args.proc_runs} runs of `subprocess.run` from this script (our modules "
            "byte-compiled beforehand, as an installed package is). "
            "`python -m sandbox --mount /.memory=DIR -c CMD` (its existing CLI, unchanged); "
            "`bash -c` with the real path; the just-bash CLI (`just-bash --allow-write --root "
            "DIR -c CMD`, which mounts DIR at /home/user/project: the path rewritten to it); "
            "bashkit's PyPI package has no CLI, so its row is `python -c` with a three-line "
            "`Bash(mounts=...).execute_sync` in the bench venv. Times in ms.", "",
            "| command | " + " | ".join(tools) + " | same output as bash ("
            + " / ".join(tools) + ") |",
            "|---|" + "---:|" * len(tools) + ":---:|",
        ]
        for row in prow:
            t = row["tools"]
            same = " / ".join("yes" if t[k]["same"] else "**no**" for k in tools)
            out.append(f"| {cell(row['script'])} | " + " | ".join(f"{t[k]['p50']:.1f}" for k in tools)
                       + f" | {same} |")
        out += ["", "Start-up alone, beside it:", "", "| process | p50 (ms) |", "|---|---:|"]
        out += [f"| {cell(label)} | {ms:.1f} |" for label, ms in starts]
        start = dict(starts)
        ours = [row["tools"]["python -m sandbox"]["p50"] for row in prow]
        imp = start.get("python -c 'import sandbox.api'")
        if imp is not None and ours:
            out += ["", f"A whole `python -m sandbox` call ({min(ours):.0f}–{max(ours):.0f} ms "
                    f"here) is mostly start-up: `import sandbox.api` alone takes "
                    f"{imp:.0f} ms against "
                    f"{start['python -c pass']:.0f} ms for a bare Python, while the call itself "
                    "costs well under a millisecond in-process (the latency tables above)."]
    for data, rows in big:
        out += ["", *big_table(data, rows, args, names)]
    return "\n".join(out) + "\n"


def update_readme(text: str) -> None:
    """Replace (or append) this section of bench/README.md, leaving the rest as it is."""
    readme = HERE / "README.md"
    old = readme.read_text() if readme.exists() else ""
    start = old.find(SECTION + "\n")
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + text
    else:
        end = old.find("\n## ", start + len(SECTION))
        new = old[:start] + text + ("\n" + old[end + 1:] if end >= 0 else "")
    readme.write_text(new)


def committed_tree(dest: Path) -> str:
    """Export HEAD's sandbox/ into ``dest``; return the commit."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True, check=True).stdout.strip()
    files = ["sandbox"] + [f for f in ("setup.py", "pyproject.toml") if (REPO / f).exists()]
    archive = subprocess.run(["git", "archive", "HEAD", *files], cwd=REPO, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    if (dest / "setup.py").exists():  # the optional C accelerator, built as an install builds it
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=dest,
                       capture_output=True, check=False)
        shutil.rmtree(dest / "build", ignore_errors=True)
    # bytecode ahead, as an installed package has it (PYTHONDONTWRITEBYTECODE may be set here,
    # and without .pyc files every `python -m sandbox` would compile ~40 modules first)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(dest / "sandbox")], check=True)
    return commit


def main() -> int:
    """Install the peers, measure, write the tables."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1000, help="latency runs per tool and command")
    ap.add_argument("--proc-runs", type=int, default=20, help="whole-process runs per row")
    ap.add_argument("--big-runs", type=int, default=3,
                    help="runs of GNU and ours per large-file row (the best kept)")
    ap.add_argument("--peer-runs", type=int, default=1,
                    help="runs of each peer per large-file row (the best kept)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per 100 MB row")
    ap.add_argument("--data", default=str(HERE / "data" / "conversations.jsonl"))
    ap.add_argument("--small-data", default=str(HERE / "data" / "conversations_10mb.jsonl"))
    ap.add_argument("--small-mb", type=int, default=10,
                    help="a second, smaller table (bashkit refuses inputs over 32 MB); 0: none")
    ap.add_argument("--committed", action="store_true", help="measure HEAD's sandbox/")
    ap.add_argument("--skip-big", action="store_true")
    ap.add_argument("--skip-proc", action="store_true")
    ap.add_argument("--out", default=str(HERE / "results" / "peers.md"))
    ap.add_argument("--no-readme", action="store_true", help="do not touch bench/README.md")
    ap.add_argument("--json", metavar="PATH", help="also write every measurement as JSON")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    if args.committed:
        root = Path(tmp.name)
        commit = committed_tree(root)
    else:
        root = REPO
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                                capture_output=True, text=True).stdout.strip() + " + work tree"
    sys.path.insert(0, str(root))
    from sandbox.api import Sandbox  # the chosen tree's, imported before bench_shell's path
    from sandbox.fs.local import LocalDir
    from sandbox.fs.memory import MemoryFS
    from sandbox.limits import Limits
    sys.path.insert(1, str(HERE))
    from bench_shell import make_memory
    assert Path(sys.modules["sandbox"].__file__ or "").is_relative_to(root)
    try:
        from sandbox._native import linescan
        native = linescan()
        accel = "built" if native is not None else "not built (pure-Python paths)"
        if native is not None and not Path(native.__file__ or "").is_relative_to(root):
            accel = f"from {native.__file__}"
    except ImportError:
        accel = "none in this tree"
    print(f"C accelerator: {accel}", flush=True)
    VERSIONS["_accel"] = accel

    versions = ensure_peers()
    VERSIONS.update(versions)
    print(f"peers: {versions}; ours: {root}", flush=True)
    peers = workers(versions)
    names = [w.name for w in peers]
    loads = [os.getloadavg()]
    lat_dir = latency(args.runs, peers, make_memory, Sandbox, MemoryFS, "dir")
    lat_mem = latency(args.runs, peers, make_memory, Sandbox, MemoryFS, "memory")
    for w in peers:
        w.stop()
    proc = None if args.skip_proc else whole_process(args.proc_runs, versions, root, make_memory)
    big: list[tuple[Path, list[dict]]] = []
    if not args.skip_big:
        for path, mb in ((Path(args.data), 100), (Path(args.small_data), args.small_mb)):
            if not mb:
                continue
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                subprocess.run([sys.executable, str(HERE / "gen_conversations.py"), str(path),
                                "--mb", str(mb)], check=True)
            big.append((path, big_rows(path, args.big_runs, args.peer_runs, args.timeout, peers,
                                       Sandbox, Limits, LocalDir)))
    loads.append(os.getloadavg())
    text = render(args, versions, commit, loads, lat_dir, lat_mem, proc, big, names)
    if args.json:
        Path(args.json).write_text(json.dumps({
            "versions": versions, "commit": commit, "loads": loads, "latency_dir": lat_dir,
            "latency_memory": lat_mem, "process": proc,
            "big": [(str(p), rows) for p, rows in big]}, indent=1))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    if not args.no_readme:
        update_readme(text)
    print(text)
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())

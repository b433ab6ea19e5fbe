// Bench worker for just-bash (npm), driven by bench/bench_peers.py over JSON lines.
//
//   node bench/peers/just_bash_bench.mjs NODE_MODULES_DIR
//
// Reads one JSON request per line on stdin, answers one JSON line on stdout:
//   {"op": "init", "files": {"/.memory/core.md": "..."}}         in-memory files (InMemoryFs)
//   {"op": "init", "mount": {"host": DIR, "at": "/data"}}         DIR read-only at /data (OverlayFs,
//                                                                 limits raised for 100 MB files)
//   {"op": "init", "mount": {"host": DIR, "at": "/.memory", "writable": true}}   (ReadWriteFs)
//   {"op": "run", "script": S}                   -> {"stdout", "stderr", "exit", "seconds", "cpu"}
//   {"op": "bench", "script": S, "runs": N}      -> {"times": [seconds...]} (after a warm-up)
//   {"op": "version"}                            -> {"version"}
// Every exec is timed in this process with process.hrtime (what an embedding application pays).

import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import path from "node:path";
import { pathToFileURL } from "node:url";

const modules = process.argv[2];
const pkgDir = path.join(modules, "just-bash");
const pkg = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
const lib = await import(pathToFileURL(path.join(pkgDir, pkg.main)).href);
const { Bash, OverlayFs, ReadWriteFs, MountableFs, InMemoryFs } = lib;

// Raised limits for the 100 MB rows (the defaults cap a file read through OverlayFs at 10 MB).
const BIG = 4 * 1024 * 1024 * 1024;
const bigLimits = {
  maxInputBytes: BIG, maxLiveBytes: BIG, maxOutputSize: BIG, maxStringLength: 2 ** 29,
  maxFileSystemBytes: BIG, maxExecutionTimeMs: 600_000, maxWorkUnits: 2 ** 40,
  maxCommandCount: 2 ** 40,
};

let bash = null;

function init(req) {
  if (req.mount && req.mount.writable) {
    // a host directory read and written in place, as ours (LocalDir) and bashkit's mount do
    const fs = new MountableFs({ base: new InMemoryFs(), mounts: [
      { mountPoint: req.mount.at, filesystem: new ReadWriteFs({ root: req.mount.host }) }] });
    bash = new Bash({ fs, cwd: req.cwd || "/" });
  } else if (req.mount) {
    const fs = new OverlayFs({ root: req.mount.host, mountPoint: req.mount.at, readOnly: true,
      maxFileReadSize: BIG });
    bash = new Bash({ fs, cwd: req.mount.at, executionLimits: bigLimits });
  } else {
    bash = new Bash({ files: req.files, cwd: req.cwd || "/" });
  }
  return { ok: true };
}

async function runOnce(script) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = await bash.exec(script);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  return { stdout: r.stdout, stderr: r.stderr, exit: r.exitCode, seconds,
    cpu: (c.user + c.system) / 1e6 };
}

async function benchmark(script, runs) {
  for (let i = 0; i < Math.min(20, runs); i++) await bash.exec(script);
  const times = new Array(runs);
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await bash.exec(script);
    times[i] = Number(process.hrtime.bigint() - t0) / 1e9;
  }
  return { times };
}

async function handle(req) {
  switch (req.op) {
    case "version": return { version: pkg.version, node: process.version };
    case "init": return init(req);
    case "run": return await runOnce(req.script);
    case "bench": return await benchmark(req.script, req.runs);
    default: return { error: `unknown op ${req.op}` };
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let answer;
  try {
    answer = await handle(JSON.parse(line));
  } catch (e) {
    answer = { error: String(e && e.stack ? e.stack.split("\n")[0] : e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}

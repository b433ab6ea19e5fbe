"""jq's cold start: the builtin library, dates, regexes, formats and each jq-defined prelude
function load on first use, and what a program gets does not depend on the order (or the
thread) in which first uses happen. Each check runs in a fresh interpreter (``python -c``), the
only place a first use can be observed; results are compared with libjq 1.8 (the ``jq`` module)
where it applies. Seeded; a failure prints the command that reproduces it.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

# Programs built on jq-defined prelude functions (and on the natives they call).
PRELUDE_PROGRAMS: list[tuple[str, object]] = [
    ("[.[] | values]", [1, None, "a", None]),
    ("[.[] | numbers, strings]", [1, "a", [], {}]),
    ("[.[] | scalars]", [1, "a", [], {}, None]),
    ("[.[] | iterables]", [1, [2], {"a": 3}]),
    ("map_values(. + 1)", {"a": 1, "b": 2}),
    ("del(.a)", {"a": 1, "b": 2}),
    ("with_entries(.value += 1)", {"a": 1, "b": 2}),
    ("from_entries", [{"key": "a", "value": 1}, {"name": "b", "value": 2}]),
    ("[.[] | nulls, booleans]", [1, None, True, "a"]),
    ("[combinations]", [[1, 2], [3, 4]]),
    ("[combinations(2)]", [0, 1]),
    ("[.[] | in({\"a\": 1})]", ["a", "b"]),
    ("first, last, nth(1)", [5, 6, 7]),
    ("pick(.a.b)", {"a": {"b": 1, "c": 2}, "d": 3}),
    ("[1 | truncate_stream([[0], 1], [[1, 0], 2], [[1, 0]], [[1]])]", None),
    ("INDEX(.id)", [{"id": 1}, {"id": 2}]),
    ("[JOIN({\"1\": \"x\"}; .[]; tostring)]", [1, 2]),
    ("[.[] | IN(2, 3)]", [1, 2, 3]),
    ("[.[] | isfinite]", [1, 1.5]),
    ("[.[] | finites]", [1, 1.5]),
]


def _fresh_python(script: str) -> str:
    """Run ``script`` in a fresh interpreter at the repository root; return its stdout."""
    cmd = [sys.executable, "-c", textwrap.dedent(script)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"fresh interpreter failed; reproduce with: cd {ROOT} && {sys.executable} -c {script!r}\n{proc.stderr}"
    return proc.stdout


def test_identity_program_loads_no_library() -> None:
    """``jq -c .`` (the cold pipeline benchmark) imports neither the builtins nor their helpers."""
    out = _fresh_python("""
        import json, sys
        from sandbox.commands.testing import run_command
        status, stdout, stderr = run_command(["jq", "-c", ".", "/f"], files={"/f": '{"a": [1, 2]}\\n[3]\\n'})
        loaded = sorted(m for m in ("builtins", "dates", "jqregex", "formats") if f"sandbox.commands.jq.{m}" in sys.modules)
        print(json.dumps([status, stdout.decode(), stderr.decode(), loaded]))
    """)
    status, stdout, stderr, loaded = json.loads(out)
    assert (status, stdout, stderr) == (0, '{"a":[1,2]}\n[3]\n', "")
    assert loaded == [], f"jq -c . loaded {loaded}"


def test_builtin_first_use_equals_later_use() -> None:
    """A builtin's first call in a process (which imports the library, dates, regexes or
    formats) behaves exactly as its later calls, errors included; and matches libjq."""
    jq = pytest.importorskip("jq", reason="the jq module (libjq 1.8) is the reference")
    programs = ['[.[] | test("B"; "i")]', "map(todate)", "@base64", "nosuch", "[.[] | sub(\"b\"; \"x\")]"]
    script = f"""
        import json
        from sandbox.commands.testing import run_command
        rows = []
        for _ in range(2):
            for program in json.loads({json.dumps(programs)!r}):
                status, stdout, stderr = run_command(["jq", "-c", program], stdin=b'["abc", "b"]')
                rows.append([status, stdout.decode(), stderr.decode()])
        print(json.dumps(rows))
    """
    rows = json.loads(_fresh_python(script))
    first, later = rows[: len(programs)], rows[len(programs):]
    assert first == later
    for program, (status, stdout, stderr) in zip(programs, first):
        try:
            outputs = jq.compile(program).input_value(["abc", "b"]).all()
        except ValueError:
            assert status != 0 and stderr.startswith("jq: error"), (program, status, stderr)
            continue
        expected = "".join(json.dumps(v, separators=(",", ":")) + "\n" for v in outputs)
        assert (status, stdout, stderr) == (0, expected, ""), f"reproduce with: echo '[\"abc\", \"b\"]' | jq -c {program!r}"


@pytest.mark.parametrize("seed", range(3))
def test_prelude_first_use_order_is_irrelevant(seed: int) -> None:
    """Compiling prelude functions in any order gives the same results (as libjq's) and the same
    ``builtins`` list as loading the whole table first."""
    jq = pytest.importorskip("jq", reason="the jq module (libjq 1.8) is the reference")
    rng = random.Random(seed)
    cases = PRELUDE_PROGRAMS[:]
    rng.shuffle(cases)
    script = f"""
        import json
        from sandbox.commands.testing import run_command
        cases = json.loads({json.dumps(cases)!r})
        results = []
        for program, value in cases:
            status, stdout, stderr = run_command(["jq", "-c", program], stdin=json.dumps(value).encode())
            results.append([status, stdout.decode(), stderr.decode()])
        from sandbox.commands.jq.builtins import builtin_table
        print(json.dumps({{"results": results, "builtins": [list(k) for k in builtin_table()]}}))
    """
    shuffled = json.loads(_fresh_python(script))
    table_first = json.loads(_fresh_python("""
        import json
        from sandbox.commands.jq.builtins import builtin_table
        print(json.dumps([list(k) for k in builtin_table()]))
    """))
    assert shuffled["builtins"] == table_first, f"seed {seed}: builtin order depends on first use"
    assert len(table_first) == len({tuple(k) for k in table_first})
    for (program, value), (status, stdout, stderr) in zip(cases, shuffled["results"]):
        expected = "".join(json.dumps(v, separators=(",", ":")) + "\n" for v in jq.compile(program).input_value(value).all())
        assert (status, stdout, stderr) == (0, expected, ""), (
            f"seed {seed}: reproduce with: echo {json.dumps(json.dumps(value))} | jq -c {json.dumps(program)}")


def test_prelude_first_use_from_threads() -> None:
    """Pipeline stages run in threads: simultaneous first uses compile each definition once and
    every thread gets complete results."""
    jq = pytest.importorskip("jq", reason="the jq module (libjq 1.8) is the reference")
    script = f"""
        import json, threading
        from sandbox.commands.jq import builtins
        from sandbox.commands.testing import run_command
        cases = json.loads({json.dumps(PRELUDE_PROGRAMS)!r})
        results = {{}}

        def worker(barrier, round_, index):
            barrier.wait()
            rows = []
            for program, value in cases[index % 3:] + cases[:index % 3]:
                status, stdout, stderr = run_command(["jq", "-c", program], stdin=json.dumps(value).encode())
                rows.append([program, status, stdout.decode(), stderr.decode()])
            results[f"{{round_}}/{{index}}"] = rows

        for round_ in range(ROUNDS):
            builtins._prelude_defs.clear()  # forget the compiled prelude: every round is a first use
            barrier = threading.Barrier(THREADS)
            threads = [threading.Thread(target=worker, args=(barrier, round_, i)) for i in range(THREADS)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        print(json.dumps(results))
    """.replace("ROUNDS", "20").replace("THREADS", "4")
    results = json.loads(_fresh_python(script))
    assert len(results) == 20 * 4
    expected = {program: "".join(json.dumps(v, separators=(",", ":")) + "\n" for v in jq.compile(program).input_value(value).all())
                for program, value in PRELUDE_PROGRAMS}
    for rows in results.values():
        for program, status, stdout, stderr in rows:
            assert (status, stdout, stderr) == (0, expected[program], ""), f"thread result for {program!r}"

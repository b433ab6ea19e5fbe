"""Differential tests: our jq against libjq 1.8 (the ``jq`` PyPI module) on generated programs
and generated JSON. Seeded and reproducible; a failure prints the program, the input and a
command that reproduces it with the real jq module.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from jq_engine import compile_program, run_program  # noqa: E402
from jq_gen import deep_value, gen_program, gen_value, to_text  # noqa: E402

from sandbox.commands.jq.errors import JQSyntaxError  # noqa: E402
from sandbox.commands.jq.values import dumps  # noqa: E402

jq = pytest.importorskip("jq", reason="the jq module (libjq bindings, the reference) is not installed")

PROGRAMS = int(os.environ.get("JQ_DIFF_PROGRAMS", "1100"))
INPUTS_PER_PROGRAM = 5
CHUNKS = 8


def normalize(v: Any) -> Any:
    """Values as the jq module returns them: numbers pass through a double (the module converts
    with ``jv_number_value``), integral ones become ints."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and abs(v) > 2**53:
        v = float(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, list):
        return [normalize(x) for x in v]
    if isinstance(v, dict):
        return {k: normalize(x) for k, x in v.items()}
    return v


def reference(program: str, text: str) -> tuple[str, Any]:
    """What libjq says: ("ok", outputs), ("error", message) or ("compile", message)."""
    try:
        compiled = jq.compile(program)
    except ValueError as e:
        return "compile", str(e)
    try:
        return "ok", compiled.input_text(text).all()
    except ValueError as e:
        return "error", str(e)


def ours(program: str, text: str) -> tuple[str, Any]:
    """What our engine says, in the same shape."""
    try:
        prog = compile_program(program)
    except JQSyntaxError as e:
        return "compile", str(e)
    kind, val = run_program(prog, text)
    if kind == "ok":
        return "ok", [json.loads(dumps(o)) for o in val]
    return "error", val if isinstance(val, str) else dumps(val)


def _repro(program: str, text: str) -> str:
    return f"python3 -c 'import jq; print(jq.compile({program!r}).input_text({text!r}).all())'"


def _cases(chunk: int) -> list[tuple[int, str, str]]:
    out = []
    for seed in range(chunk, PROGRAMS, CHUNKS):
        rng = random.Random(seed)
        program = gen_program(rng)
        for k in range(INPUTS_PER_PROGRAM):
            if k == 0 and seed % 10 == 0:
                value = deep_value(rng, rng.randint(20, 200))
            elif k == 1 and seed % 7 == 0:
                text = rng.choice(["", " ", "\n", "1 2 3", "[] {}", '"a"\n"b"'])
                out.append((seed, program, text))
                continue
            else:
                value = gen_value(rng, rng.randint(0, 4))
            out.append((seed, program, to_text(rng, value)))
    return out


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_matches_libjq(chunk: int) -> None:
    """Every generated case: same outputs (by value, in order) or the same error message."""
    failures = []
    total = 0
    for seed, program, text in _cases(chunk):
        total += 1
        exp_kind, exp = reference(program, text)
        got_kind, got = ours(program, text)
        if exp_kind == "compile":
            ok = got_kind == "compile"
        elif exp_kind == "error":
            ok = got_kind == "error" and got == exp
        else:
            ok = got_kind == "ok" and json.dumps(normalize(got)) == json.dumps(normalize(exp))
        if not ok:
            failures.append(f"seed={seed} program={program!r} input={text!r}\n  libjq: {exp_kind} {exp!r}\n  ours:  {got_kind} {got!r}\n  repro: {_repro(program, text)}")
    assert total >= PROGRAMS * INPUTS_PER_PROGRAM // CHUNKS - INPUTS_PER_PROGRAM
    assert not failures, f"{len(failures)}/{total} cases differ:\n" + "\n".join(failures[:15])


# Modules are refused in the sandbox (compile error), so their two builtins are not ours; jn and
# yn (Bessel functions of any order) are not implemented.
BUILTINS_NOT_OURS = {"get_search_list/0", "modulemeta/0", "jn/2", "yn/2"}


def test_builtins_are_libjq_s() -> None:
    """``builtins`` names what jq 1.8 defines, no more (1.7's ascii, todate/1, dateadd,
    datesub, date, leaf_paths, pow10... are gone from 1.8) and no less but the refused ones."""
    from sandbox.commands.testing import run_command

    code, out, err = run_command(["jq", "-nc", "builtins"])
    assert code == 0, err
    ours = set(json.loads(out))
    theirs = set(jq.compile("builtins").input_value(None).first())
    assert ours - theirs == set()
    assert theirs - ours == BUILTINS_NOT_OURS

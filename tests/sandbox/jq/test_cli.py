"""The jq command line, differentially: output options against the jq binary on this machine
(jq 1.6, whose output format equals 1.7's for integers and strings, so values here carry no
floats) and compact number formatting against libjq 1.8 (``tojson``). Seeded; a failure prints
a shell command that reproduces the reference's output.
"""

from __future__ import annotations

import json
import random
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from jq_gen import gen_string  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402

JQ_BIN = shutil.which("jq")
ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}


def _value(rng: random.Random, depth: int) -> Any:
    r = rng.random()
    if depth <= 0 or r < 0.3:
        return rng.choice([None, True, False, rng.randint(-1000, 1000), 2**40 + rng.randint(0, 99), gen_string(rng)])
    if r < 0.65:
        return [_value(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    return {gen_string(rng, 4): _value(rng, depth - 1) for _ in range(rng.randint(0, 3))}


OPTION_SETS = [
    [], ["-c"], ["--tab"], ["--indent", "0"], ["--indent", "1"], ["--indent", "5"], ["--indent", "7"],
    ["-S"], ["-S", "-c"], ["-a"], ["-a", "-c"], ["-r"], ["-j"], ["-r", "-a"], ["-s", "-c"], ["-e"],
    ["-c", "--seq"], ["-M"], ["-C", "-M"], ["-cr"], ["-sc"], ["-ac"],
]
PROGRAMS = [".", ".[]?", "keys?", ".[]?|tostring", "[.[]?|type]", "..|select(type==\"string\")", "length", "to_entries?"]


def _run_reference(argv: list[str], stdin: bytes) -> tuple[int, bytes]:
    proc = subprocess.run([JQ_BIN, *argv], input=stdin, capture_output=True, env=ENV, timeout=30)
    return proc.returncode, proc.stdout


@pytest.mark.skipif(JQ_BIN is None, reason="jq binary not installed (reference for CLI output)")
@pytest.mark.parametrize("chunk", range(4))
def test_output_options_match_jq_binary(chunk: int) -> None:
    """Same bytes on stdout and the same exit status for every option set."""
    failures = []
    count = 0
    for seed in range(chunk, 240, 4):
        rng = random.Random(seed)
        values = [_value(rng, rng.randint(0, 3)) for _ in range(rng.randint(1, 3))]
        text = "\n".join(json.dumps(v, ensure_ascii=rng.random() < 0.5) for v in values) + "\n"
        opts = rng.choice(OPTION_SETS)
        program = rng.choice(PROGRAMS)
        argv = [*opts, program]
        exp_code, exp_out = _run_reference(argv, text.encode())
        code, out, _err = run_command(["jq", *argv], stdin=text.encode())
        count += 1
        if (code, out) != (exp_code, exp_out):
            failures.append(
                f"printf %s {shlex.quote(text)} | jq {' '.join(shlex.quote(a) for a in argv)}\n"
                f"  jq:   {exp_code} {exp_out!r}\n  ours: {code} {out!r}"
            )
    assert not failures, f"{len(failures)}/{count} differ:\n" + "\n".join(failures[:10])


@pytest.mark.skipif(JQ_BIN is None, reason="jq binary not installed (reference for CLI behaviour)")
@pytest.mark.parametrize(
    "argv,stdin",
    [
        (["-n", "$ARGS", "--arg", "a", "x", "--argjson", "b", "[1,2]"], b""),
        (["-n", "-c", "$ARGS", "--args", "a", "b"], b""),
        (["-n", "-c", "$ARGS", "--jsonargs", "1", "{\"a\":2}"], b""),
        (["-c", "[$a, $b]", "--arg", "a", "é", "--argjson", "b", "{\"x\":null}"], b"null"),
        (["-R", "."], b"line one\nline \"two\"\n\nlast"),
        (["-R", "-s", "."], b"line one\nline two\n"),
        (["-R", "-r", "ascii_upcase"], b"abc\ndef\n"),
        (["-s", "-c", "."], b"1 2\n[3]\n{\"a\":4}"),
        (["-s", "length"], b""),
        (["-n", "input, input"], b"1 2 3"),
        (["-n", "-c", "[inputs]"], b"1 2 3"),
        (["-c", "[., input]"], b"1 2 3 4"),
        (["-e", ".a"], b"{\"a\":false}"),
        (["-e", ".a"], b"{\"a\":null}"),
        (["-e", ".a"], b"{\"a\":1}"),
        (["-e", "empty"], b"1"),
        (["-n", "-r", "\"a\\tb\""], b""),
        (["-n", "-j", "1, \"x\", [2]"], b""),
        (["--seq", "-n", "1, [2]"], b""),
        (["-c", ".[] | {a: .}"], b"[1, \"x\", null]"),
        (["-r", "@csv"], b"[1,\"a,b\",null,true]"),
        (["-r", "@tsv"], b"[1,\"a\\tb\",null]"),
        (["-r", "@sh"], b"[\"it's\", 1]"),
        (["-r", "@base64, (@base64|@base64d)"], b"\"h\\u00e9llo\""),
        (["-r", "@uri"], b"\"a b&c=d/\\u00e9\""),
        (["-r", "@html"], b"\"<a href='x'>&</a>\""),
        (["-c", "to_entries"], b"{\"b\":1,\"a\":2}"),
        (["-c", "path(..)"], b"{\"a\":[1,{\"b\":2}]}"),
        (["-c", "[paths]"], b"{\"a\":[1,{\"b\":2}]}"),
        (["-c", "del(.a[0])"], b"{\"a\":[1,2]}"),
        (["-c", ".a += 1"], b"{\"a\":1}"),
        (["-c", "tostream"], b"{\"a\":[1,[]]}"),
        (["-c", "fromstream(tostream)"], b"{\"a\":[1,[]]}"),
        (["-c", "[splits(\", *\")]"], b"\"a, b,c\""),
        (["-c", "[match(\"(a)(b)?\"; \"g\")]"], b"\"xaab\""),
        (["-c", "gsub(\"(?<x>[a-z])\"; \"<\\(.x)>\")"], b"\"ab1\""),
        (["-c", "reduce .[] as [$a, $b] (0; . + $a * $b)"], b"[[1,2],[3,4]]"),
        (["-c", "[foreach .[] as $x (0; . + $x; [$x, .])]"], b"[1,2,3]"),
        (["-c", "[limit(3; repeat(1))]"], b"null"),
        (["-c", "[range(0; 10; 3)]"], b"null"),
        (["-c", "group_by(.a) | map(length)"], b"[{\"a\":1},{\"a\":2},{\"a\":1}]"),
        (["-c", "[.[] | try error catch .]"], b"[1, \"x\", {\"a\": 1}]"),
        (["-c", "label $f | range(10) | ., (select(. == 3) | break $f)"], b"null"),
        (["-c", ". as [$a, {b: $c}] | [$a, $c]"], b"[1, {\"b\": 2}]"),
        (["-c", "with_entries(.value += 1)"], b"{\"a\":1,\"b\":2}"),
        (["-c", "walk(if type == \"array\" then sort else . end)"], b"[3,[2,1]]"),
        (["-c", "[.[] | tojson | fromjson]"], b"[1, \"a\", [null]]"),
        (["-c", "env | type"], b"null"),
        (["-c", "$ENV | type"], b"null"),
    ],
)
def test_behaviour_matches_jq_binary(argv: list[str], stdin: bytes) -> None:
    """Selected options and language features: same stdout and exit status as the jq binary."""
    exp_code, exp_out = _run_reference(argv, stdin)
    code, out, err = run_command(["jq", *argv], stdin=stdin)
    repro = f"printf %s {shlex.quote(stdin.decode())} | jq {' '.join(shlex.quote(a) for a in argv)}"
    assert (code, out) == (exp_code, exp_out), f"{repro}\n jq: {exp_code} {exp_out!r}\n ours: {code} {out!r} {err!r}"


jq_module = pytest.importorskip("jq", reason="the jq module (libjq 1.8) is not installed")


def _number(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.3:
        return rng.uniform(-1e6, 1e6)
    if r < 0.5:
        return rng.choice([1e-7, 1.5e-5, 0.1, 1e16, 1.2e16, 1e17, 12345678901234567e3, 2.0**60, 1e300, 5e-324, -0.0001])
    if r < 0.7:
        return rng.randint(-(2**53), 2**53) / rng.choice([1, 3, 7, 1024])
    return 10.0 ** rng.randint(-320, 308) * rng.choice([1, -1, 1.5, 3.25])


def test_number_formatting_matches_libjq() -> None:
    """Computed doubles (``. + 0``) print exactly as libjq prints them (``tojson``), 3000 cases."""
    rng = random.Random(1234)
    failures = []
    compiled = jq_module.compile("map(. * 1) | tojson")
    for _ in range(30):
        nums = [_number(rng) for _ in range(100)]
        text = json.dumps(nums)
        expected = compiled.input_text(text).first()
        code, out, err = run_command(["jq", "-c", "map(. * 1)"], stdin=text.encode())
        if out.decode().rstrip("\n") != expected:
            exp_items = expected[1:-1].split(",")
            got_items = out.decode().strip()[1:-1].split(",")
            diffs = [(n, e, g) for n, e, g in zip(nums, exp_items, got_items) if e != g]
            failures.append(f"{len(diffs)} numbers differ, e.g. {diffs[:3]}")
    assert not failures, "\n".join(failures)


# Inputs whose message jq 1.6 (the host binary) and 1.8 word alike; where they differ (1.8 reads
# "not" as a number: "Invalid numeric literal"), test_jq18_behaviour.py states 1.8's wording.
PARSE_ERROR_INPUTS = [
    b"[1,\n2,\nx]", b'{"a" 2}\n', b"1\n]\n", b"abc\n", b"nul\n", b'{"a":1}\n{"a":2}\nnul json\n',
    b"[1 2]\n", b'{"a":1,}\n', b'"abc', b"{", b"[1,2", b'{"a":1}}', b"tru e", b"1 2 3\n[4,,5]",
]


@pytest.mark.skipif(JQ_BIN is None, reason="jq binary not installed (reference for parse errors)")
@pytest.mark.parametrize("stdin", PARSE_ERROR_INPUTS)
def test_parse_error_messages_match_jq_binary(stdin: bytes) -> None:
    """Malformed input: the same results before the error and the same message (jq 1.7 adds the
    ``jq: `` prefix that 1.6 lacks, and exits 5 (JQ_ERROR_UNKNOWN) where 1.6 exits 4)."""
    proc = subprocess.run([JQ_BIN, "-c", "."], input=stdin, capture_output=True, env=ENV, timeout=30)
    code, out, err = run_command(["jq", "-c", "."], stdin=stdin)
    assert out == proc.stdout
    assert code == 5 and proc.returncode != 0
    assert err == b"jq: " + proc.stderr, f"printf %s {shlex.quote(stdin.decode())} | jq -c ."

"""Gaps found by the twelfth text-tools corpus (memory-directory commands), each against real
bash and the GNU tools over the same files: the character type locale (``LC_ALL=C`` makes
grep, sed, gawk, wc, rev and column byte-oriented; glibc's LC_ALL > LC_CTYPE > LANG order),
gawk's "Invalid multibyte data" warning, and jq 1.8's syntax error messages."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from sandbox.commands._locale import ctype_locale, is_utf8_locale
from tests.sandbox.shell.shell_difftools import check

FILES = {
    "unicode.txt": "naïve café\nÜBER straße\n日本語テキスト\nemoji 🙂 here\nplain ascii\n".encode(),
    "latin1.txt": b"caf\xe9 au lait\nplain line\nna\xefve\n",
    "a.txt": b"alpha\nbeta\ngamma\ndelta\n",
}


def _skip(*tools: str) -> pytest.MarkDecorator:
    missing = [t for t in tools if shutil.which(t) is None]
    return pytest.mark.skipif(bool(missing), reason=f"reference tool missing: {missing}")


GREP = [
    "LC_ALL=C grep -c 'caf.' latin1.txt", "LC_ALL=C grep 'caf.' latin1.txt | od -c",
    "LC_ALL=C grep -o 'na.ve' unicode.txt latin1.txt | od -c", "LC_ALL=C grep -c '^.\\{9\\}$' unicode.txt",
    "LC_ALL=C grep -i 'CAFÉ' unicode.txt; echo $?", "LC_ALL=C grep -o '\\w*' unicode.txt | head -4",
    "LC_ALL=C grep '[é]' unicode.txt", "export LC_ALL=C; grep -o '.' <<< 'é' | od -An -tx1",
    "LC_ALL=C grep -P 'caf.' latin1.txt | od -c", "LC_ALL=C grep -oP '\\w+' unicode.txt | head -5",
    "LC_ALL=C grep -Pc '[\\x80-\\xff]' unicode.txt latin1.txt", "LC_ALL=C grep -P 'caf\\S' unicode.txt",
    "LC_ALL=C grep -n 'caf' latin1.txt | od -c", "LC_ALL=C grep -Fi 'CAFÉ' unicode.txt; echo $?",
    "LC_ALL=C grep -iw 'caf' latin1.txt unicode.txt | od -c", "LC_ALL=C grep -b 'line' latin1.txt",
    "LC_ALL=C grep -bo 'e' unicode.txt latin1.txt", "LC_ALL=C grep -b -A1 'ascii' unicode.txt",
    "LC_ALL=C grep --color=always 'caf' unicode.txt | od -c",
    "unset LC_ALL; LANG=C grep -c '^.\\{9\\}$' unicode.txt",
    "LC_ALL=C grep -c $'[\\xc0-\\xdf]' unicode.txt", "LC_ALL=C grep -i 'ÜBER' unicode.txt",
    "LC_ALL=C grep -oP '.{3}$' unicode.txt | od -c", "LC_ALL=C grep -P '^\\w+$' unicode.txt latin1.txt",
]

SED = [
    "LC_ALL=C sed 's/./X/g' unicode.txt", "LC_ALL=C sed 's/./X/g' latin1.txt",
    "LC_ALL=C sed 's/.$//' unicode.txt | od -c", "LC_ALL=C sed 's/.*/\\U&/' unicode.txt | od -c",
    "LC_ALL=C sed -E 's/^(.)(.)/\\2\\1/' unicode.txt | od -c",
    "LC_ALL=C sed 's/[[:alpha:]]*//' unicode.txt", "export LC_ALL=C; sed 's/\\w\\+/W/g' unicode.txt",
    "LC_ALL=C sed 'y/é/ab/' unicode.txt | od -c", "LC_ALL=C sed 'y/é/e/' unicode.txt",
    "LC_ALL=C sed 's/\\(.\\)/\\u\\1/g' latin1.txt | od -c",
    "printf 'a\\xe9\\0\\xe9b\\n' | LC_ALL=C sed 's/.*/\\U&/' | od -c",
    "printf 'aé\\n' | LC_ALL=C sed 's/\\(a\\)\\(.*\\)/\\u\\2\\1/' | od -c",
    "LC_ALL=C sed -n '/^.\\{6\\}$/p' unicode.txt", "LC_ALL=C sed -E 's/(.)\\1/<&>/g' <<< 'aa éé'",
    "LC_ALL=C sed 's/[\\x80-\\xff]/?/g' unicode.txt", "LC_ALL=C sed 's/[^\\x00-\\x7f]//g' unicode.txt",
    "LC_ALL=C sed 's/[a-\\xff]/_/g' latin1.txt", "LC_ALL=C sed 's/[\\xff-\\x80]/_/g' latin1.txt",
    "LC_ALL=C sed -n '/[\\xc0-\\xdf][\\x80-\\xbf]/=' unicode.txt", "LC_ALL=C sed 's/É/x/Ig' unicode.txt",
]

AWK = [
    "LC_ALL=C awk '{print length($0)}' unicode.txt",
    "LC_ALL=C awk '{print substr($0,1,3)}' unicode.txt | od -c",
    "LC_ALL=C awk '{print toupper($0)}' unicode.txt", "LC_ALL=C awk '{print tolower($0)}' latin1.txt",
    "LC_ALL=C awk '{print index($0,\"é\")}' unicode.txt",
    "LC_ALL=C awk 'match($0,/é/){print RSTART, RLENGTH}' unicode.txt",
    "LC_ALL=C awk '{n=split($0,a,\"\"); print n}' unicode.txt",
    "LC_ALL=C awk 'BEGIN{FS=\"\"} {print NF}' unicode.txt",
    "LC_ALL=C awk 'BEGIN{printf \"%c|%.2s|%5s|\\n\", \"été\", \"été\", \"é\"}' | od -c",
    "LC_ALL=C awk '/^.{6}$/' unicode.txt", "LC_ALL=C awk '{gsub(/./,\"x\"); print}' unicode.txt",
    "LC_ALL=C awk 'BEGIN{printf \"%c%c\\n\", 233, 256}' | od -An -tx1",
    "LC_ALL=C awk -F'é' '{print NF, $2}' unicode.txt",
    "LC_ALL=C awk 'BEGIN{RS=\"é\"} {print NR\": \"$0}' unicode.txt",
    "unset LC_ALL; LC_CTYPE=C awk '{print length}' unicode.txt",
    "awk -b '/^.{6}$/' unicode.txt", "awk -b 'BEGIN{printf \"%c|%.2s|\\n\", 233, \"été\"}' | od -c",
    # gawk warns once when a string it takes as wide characters holds invalid UTF-8
    "awk '{print length}' latin1.txt", "awk '{print toupper($0)}' latin1.txt",
    "awk '{print substr($0,2)}' latin1.txt", "awk '{print index($0,\"x\")}' latin1.txt",
    "awk '{print match($0,/a/)}' latin1.txt", "awk '{print match($0,/zzz/)}' latin1.txt",
    "awk 'BEGIN{print length(\"a\\351\")}'", "awk 'NR==3{print length($0)}' latin1.txt",
    "awk '{printf \"%.2s|%c\\n\", $0, $1}' latin1.txt",
]

COREUTILS = [
    "LC_ALL=C wc -m unicode.txt latin1.txt", "LC_ALL=C wc -L unicode.txt", "export LC_ALL=C; wc unicode.txt",
    "printf 'a\\x01b c\\xff d\\te\\rxy\\n' | LC_ALL=C wc", "printf '\\xe9t\\xe9 x' | LC_ALL=C wc -mwcL",
    "unset LC_ALL; LC_CTYPE=C LANG=C.UTF-8 wc -m unicode.txt",
    "unset LC_ALL; LC_CTYPE=C.UTF-8 LANG=C wc -m unicode.txt", "LC_ALL=POSIX wc -m unicode.txt",
    "LC_ALL=C.utf8 wc -m unicode.txt", "LC_ALL= wc -m unicode.txt",
    "LC_ALL=C.UTF-8 LC_CTYPE=C wc -m unicode.txt",
    "LC_ALL=C rev unicode.txt; echo $?", "printf 'abc\\ndef\\nxé\\nghi\\n' | LC_ALL=C rev; echo $?",
    "LC_ALL=C rev a.txt unicode.txt a.txt",
    "LC_ALL=C column -t <<< $'é b\\naa c'", "printf 'é\\tb\\n' | LC_ALL=C column -t -s $'\\t' -N 'Ñ,x'",
    "printf 'é b\\naa c\\n' | LC_ALL=C column -t -o 'é'",
    "printf 'é b\\naa c\\n' | LC_ALL=C column -t -s 'é'; echo $?",
    # expr: length, index, substr and : count bytes in the C locale, characters in UTF-8
    "LC_ALL=C expr length é; expr length é; LC_ALL=C expr substr héllo 2 2 | od -c | head -1",
    "expr substr héllo 2 2; LC_ALL=C expr index héllo l; expr index héllo l",
    "LC_ALL=C expr héllo : 'h.*'; expr héllo : 'h.*'; LC_ALL=C expr héllo : '\\(h.l\\)'; echo $?",
    "LC_ALL=C expr héllo : '\\(h..l\\)' | od -c | head -1; export LC_ALL=C; expr length ab€; expr é : '[^a]*'",
]


@_skip("grep", "od")
@pytest.mark.parametrize("script", GREP)
def test_grep_in_the_c_locale(script: str) -> None:
    check(script, files=FILES)


@_skip("sed", "od")
@pytest.mark.parametrize("script", SED)
def test_sed_in_the_c_locale(script: str) -> None:
    check(script, files=FILES)


@_skip("awk", "od")
@pytest.mark.parametrize("script", AWK)
def test_gawk_locale_and_multibyte_warning(script: str) -> None:
    version = subprocess.run(["awk", "--version"], capture_output=True).stdout
    if not version.startswith(b"GNU Awk"):
        pytest.skip("the host's awk is not gawk")
    check(script, files=FILES)


@_skip("wc", "rev", "column", "expr", "od")
@pytest.mark.parametrize("script", COREUTILS)
def test_wc_rev_column_expr_in_the_c_locale(script: str) -> None:
    check(script, files=FILES)


@_skip("sed", "gawk", "grep", "md5sum")
@pytest.mark.parametrize("script", [
    "LC_ALL=C sed 's/a/X/g' long.txt | md5sum", "LC_ALL=C sed 's/a\\(.\\)/\\1/g' long.txt | md5sum",
    "LC_ALL=C awk '{n=gsub(/a./,\"X\"); print n}' long.txt", "LC_ALL=C grep -bo 'x.' long.txt | md5sum",
])
def test_long_lines_in_the_c_locale(script: str) -> None:
    """Offsets are mapped with one pass over a subject, not one per match (200 KB line)."""
    import random
    rng = random.Random(2)
    line = bytes(rng.choice(b"abc \xe9x") for _ in range(200000)) + b"\n"
    check(script, files={"long.txt": line})


@pytest.mark.parametrize("env,name,utf8", [
    ({}, "C.UTF-8", True), ({"LC_ALL": "C"}, "C", False), ({"LANG": "C"}, "C", False),
    ({"LC_ALL": "", "LANG": ""}, "C", False), ({"LC_CTYPE": "C", "LANG": "C.UTF-8"}, "C", False),
    ({"LC_ALL": "en_US.utf8", "LC_CTYPE": "C"}, "en_US.utf8", True),
    ({"LANG": "de_DE.UTF-8@euro"}, "de_DE.UTF-8@euro", True), ({"LANG": "POSIX"}, "POSIX", False),
    ({"LANG": "en_US"}, "en_US", False),
])
def test_ctype_resolution(env: dict[str, str], name: str, utf8: bool) -> None:
    """glibc's order (LC_ALL, LC_CTYPE, LANG; empty is unset) over the sandbox's implicit
    C.UTF-8; the codeset decides whether characters are UTF-8."""
    assert ctype_locale(env) == name
    assert is_utf8_locale(name) is utf8


#: jq programs with a syntax error, and the 1.8 messages' start (libjq 1.8 as PyPI's ``jq``
#: bundles it: bison's expected tokens, the lexer's INVALID_CHARACTER for a closing bracket
#: that does not match, BINDING and QQSTRING_INTERP_END).
JQ_SYNTAX = [
    ("{", "unexpected end of file"), ("{a:1,", "unexpected end of file"),
    ("{]", "unexpected INVALID_CHARACTER"), ("{,}", "unexpected ','"),
    ("{a", "unexpected end of file, expecting '}'"),
    (".a)", "unexpected INVALID_CHARACTER, expecting end of file"),
    ("[1,2}", "unexpected INVALID_CHARACTER, expecting '|' or ',' or ']'"),
    ("(1 2)", "unexpected LITERAL, expecting '|' or ',' or ')'"),
    ("map(.a b)", "unexpected IDENT, expecting ';' or ')'"),
    (".[1 2]", "unexpected LITERAL, expecting '|' or ',' or ':' or ']'"),
    (".[:1 2]", "unexpected LITERAL, expecting '|' or ',' or ']'"),
    ('"\\(1 2)"', "unexpected LITERAL, expecting QQSTRING_INTERP_END or '|' or ','"),
    ('"\\(1 +)"', "unexpected QQSTRING_INTERP_END"), ('"\\()"', "unexpected QQSTRING_INTERP_END"),
    ("reduce . as $x (0 1)", "unexpected LITERAL, expecting '|' or ',' or ';'"),
    ("foreach . as $x (0; 1 2)", "unexpected LITERAL, expecting '|' or ',' or ';' or ')'"),
    ("foreach . as $x (0; 1; 2 3)", "unexpected LITERAL, expecting '|' or ',' or ')'"),
    ("def f(a b): 1; 1", "unexpected IDENT, expecting ';' or ')'"),
    (".a as [$x $y] | 1", "unexpected BINDING, expecting ',' or ']'"),
    ("{(1 2):3}", "unexpected LITERAL, expecting '|' or ',' or ')'"),
    ("1 $__loc__", "unexpected $__loc__, expecting end of file"),
]


def _libjq():  # type: ignore[no-untyped-def]
    try:
        import jq  # type: ignore[import-not-found]
    except ImportError:
        return None
    return jq


@pytest.mark.parametrize("program,message", JQ_SYNTAX)
def test_jq_syntax_errors_as_jq_1_8(program: str, message: str) -> None:
    """Differential when libjq 1.8 (PyPI ``jq``) is importable; else against its recorded
    wording (the host's jq is 1.6, whose bison messages differ)."""
    from sandbox.commands.testing import run_command
    code, out, err = run_command(["jq", "-n", program])
    first = err.decode().split("\n")[0]
    got = first.removeprefix("jq: error: syntax error, ").split(" at <top-level>")[0]
    jq = _libjq()
    if jq is not None:
        with pytest.raises(ValueError) as info:
            jq.compile(program)
        message = str(info.value).split("\n")[0].removeprefix(
            "jq: error: syntax error, ").split(" at <top-level>")[0]
    assert (code, got) == (3, message)

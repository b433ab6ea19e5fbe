"""getconf and locale: differential tests against glibc 2.36's tools (bytes, status, stderr)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

from sandbox.commands import _identity  # noqa: E402
from sandbox.commands import getconf as getconf_module  # noqa: E402
from sandbox.commands import locale as locale_module  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402

SYSTEM_NAMES = sorted(set(getconf_module.SYSTEM) - getconf_module.FROM_RLIMITS)
PATH_NAMES = sorted(getconf_module.PATHCONF)


@pytest.mark.parametrize("name", SYSTEM_NAMES)
def test_getconf_system_names(name: str) -> None:
    tcs.compare(["getconf", name])
    tcs.compare(["getconf", name, "f"], files={"f": b""})


@pytest.mark.parametrize("name", sorted(getconf_module.FROM_RLIMITS))
def test_getconf_names_from_rlimits_are_fixed(name: str) -> None:
    """glibc reads these from the process's limits, so the host's value is another machine's
    (CI's differs from the one the table was taken on): ours is the table's, whatever the host
    has, and glibc's answer only shows the form (a positive decimal)."""
    value = getconf_module.SYSTEM[name]
    assert run_command(["getconf", name]) == (0, f"{value}\n".encode(), b"")
    tcs.compare(["getconf", name, "f"], files={"f": b""})  # a usage error, as on every host
    ref = tcs.gts.reference(["getconf", name])
    assert ref[0] == 0 and ref[1].strip().isdigit() and int(ref[1]) > 0


@pytest.mark.parametrize("name", PATH_NAMES)
def test_getconf_path_names(name: str) -> None:
    tcs.compare(["getconf", name, "f"], files={"f": b"x"})
    tcs.compare(["getconf", name, "nope"])
    tcs.compare(["getconf", name])


GETCONF_LINES = ["", "BOGUS", "BOGUS /", "BOGUS a b", "-z", "-V", "--ver", "--version", "--help",
                 "--help x", "-v", "-vX", "-v POSIX_V7_LP64_OFF64 LONG_BIT", "-v BOGUS LONG_BIT",
                 "-- ARG_MAX", "ARG_MAX extra", "PATH_MAX a b", "''", "NAME_MAX ''", "PATH_MAX ''",
                 "_SC_ARG_MAX", "arg_max", "LONG_MAX"]


@pytest.mark.parametrize("args", GETCONF_LINES, ids=repr)
def test_getconf_lines(args: str) -> None:
    tcs.compare(["getconf", *shlex.split(args)])


def test_getconf_processors_are_virtual() -> None:
    for name in ("_NPROCESSORS_ONLN", "_NPROCESSORS_CONF"):
        assert run_command(["getconf", name]) == (0, f"{_identity.NPROC}\n".encode(), b"")


def test_getconf_host_hardware_is_unknown() -> None:
    for name in ("_PHYS_PAGES", "_AVPHYS_PAGES", "LEVEL1_DCACHE_LINESIZE"):
        code, out, err = run_command(["getconf", name])
        assert (code, out) == (2, b"") and b"Unrecognized variable" in err
    code, out, err = run_command(["getconf", "-a"])
    assert (code, out) == (1, b"") and err.count(b"\n") == 1


C_UTF8 = {"LC_ALL": "C.UTF-8"}
NAMES = sorted(locale_module.CATEGORIES) + [row[0] for rows in locale_module.CATEGORIES.values()
                                            for row in rows]


@pytest.mark.parametrize("flags", ["", "-k", "-c", "-ck"])
def test_locale_every_name(flags: str) -> None:
    """Every category and keyword of C.UTF-8, one by one and all at once."""
    for name in NAMES:
        tcs.compare(["locale", *flags.split(), name], env=C_UTF8)
    tcs.compare(["locale", *flags.split(), *NAMES], env=C_UTF8)


LOCALE_LINES = ["", "-a", "-a x", "-a -k", "charmap", "-k charmap", "-c charmap bogus LC_PAPER",
                "bogus", "LC_ALL", "-z", "--frob", "--help", "--usage", "-V", "--version", "-?",
                "-v charmap", "-k LC_PAPER LC_NUMERIC", "--keyword-name --category-name decimal_point"]


@pytest.mark.parametrize("args", LOCALE_LINES, ids=repr)
def test_locale_lines(args: str) -> None:
    tcs.compare(["locale", *shlex.split(args)], env=C_UTF8)


@pytest.mark.parametrize("env", [{"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"},
                                 {"LC_ALL": "C.UTF-8", "LC_TIME": "POSIX", "LANGUAGE": "en"},
                                 {"LC_ALL": "", "LANG": "C.UTF-8", "LC_TIME": "POSIX"},
                                 {"LC_ALL": "", "LC_NUMERIC": "C"}, {"LC_ALL": ""}],
                         ids=repr)
def test_locale_listing_follows_environment(env: dict[str, str]) -> None:
    tcs.compare(["locale"], env=env)


def test_locale_charmaps_refused_in_one_line() -> None:
    code, out, err = run_command(["locale", "-m"])
    assert (code, out) == (1, b"") and err.count(b"\n") == 1

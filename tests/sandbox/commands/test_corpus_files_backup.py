"""cp/mv -b, --backup[=CONTROL], -S SUFFIX, VERSION_CONTROL, SIMPLE_BACKUP_SUFFIX (from the
file-management corpus), against bash + GNU cp/mv: stdout, stderr, status and files."""

from __future__ import annotations

import pytest

from tests.sandbox.shell.shell_difftools import check

SETUP = "echo a > a && echo b > b && "
SCRIPTS = [
    "cp -bv a b; ls", "cp --backup=numbered -v a b; cp --backup=numbered a b; ls",
    "cp -b a b; cp -b a b; ls", "cp --backup=numbered a b; cp -b -S .old a b; ls",
    "cp --backup=t -S .bak a b; ls", "cp --backup=bogus a b; echo $?", "cp --backup=n a b; echo $?",
    "cp -b a newfile; ls", "mv -bv a b; ls; cat b b~", "VERSION_CONTROL=numbered cp -b a b; ls",
    "cp --backup=simple --suffix=.x a b; ls", "cp -b b b; echo $?", "cp -S .bak a b; ls",
    "cp -bn a b; echo $?", "cp --backup a b; ls", "SIMPLE_BACKUP_SUFFIX=.orig cp --backup=simple a b; ls",
    "mv -b -S .s a b; ls", "cp --backup=nu a b; ls", "mv --backup=none a b; ls",
    "VERSION_CONTROL=bogus cp -b a b; echo $?", "cp --backup=existing a b; ls",
    "cp --backup=never -v a b; ls", "mkdir d && cp -b a b d/ && cp -bv a b d/; ls d",
    "cp core.md core.md.bak 2>/dev/null; cp -b --suffix=.$(date +%Y) a b; ls | wc -l",
    "mv -bn a b; echo $?", "mv -bt . a 2>&1; ls",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_backups(script: str) -> None:
    check(SETUP + script)


UPDATE = [
    "touch -d 2026-01-01 a; touch -d 2026-02-01 b; mv -u a b; ls; cat b",
    "touch -d 2026-03-01 a; touch -d 2026-02-01 b; mv -u a b; ls; cat b",
    "touch -d 2026-02-01 a b; mv -uv a b; ls", "mv -u a new; ls", "mkdir d; mv -u a d; ls d",
    "touch -d 2026-01-01 a; cp b c; mv -u -t . a 2>&1; mv --update a b c 2>&1; ls",
]


@pytest.mark.parametrize("script", UPDATE)
def test_mv_update(script: str) -> None:
    check(SETUP + script)


OPTIONS = [
    "mkdir d; cp --strip-trailing-slashes a x/; echo $?", "mkdir d; cp --strip-trailing-slashes d/ e; echo $?",
    "mkdir d; cp -r --strip-trailing-slashes d/ e; ls", "mkdir d; mv --strip-trailing-slashes d/ f; ls",
    "mv -Z a c; ls", "cp --reflink=auto a c && cmp a c && echo ok", "cp --reflink a c; echo $?; ls",
    "cp --reflink=bogus a c; echo $?", "cp --sparse=always a c; echo $?", "cp --sparse=x a c; echo $?",
    "cp --sparse a c; echo $?", "cp --reflink=never -v a c", "mkdir g; cp --strip-trailing-slashes -t g/ a; ls g",
    "touch --time=bogus a; echo $?", "touch --time= a; echo $?", "touch --time=m a; echo $?",
    "ls a/; echo $?", "ls a/ b; echo $?", "cp --reflink a b; echo $?; cat b", "ls -d a/ dir/",
]


@pytest.mark.parametrize("script", OPTIONS)
def test_more_options(script: str) -> None:
    check(SETUP + script)

"""Pathname expansion inside the jail, as bash 5.2 does it: ``* ? [...]`` and extglob per
path component, ``**`` under ``shopt -s globstar``, and the options dotglob, nocaseglob,
globskipdots, and the ``GLOBIGNORE`` variable. Results are sorted bytewise (C.UTF-8 order);
their count is bounded by ``Limits.glob_results``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sandbox.errors import LimitExceeded
from sandbox.fs.base import FSError
from sandbox.fs.paths import normalize
from sandbox.interpreter import patterns

if TYPE_CHECKING:
    from sandbox.interpreter.core import Shell

Chunk = tuple[str, bool]


def split_components(field: list[Chunk]) -> list[list[Chunk]]:
    """Split a field's chunks on ``/`` into path components."""
    comps: list[list[Chunk]] = [[]]
    for text, quoted in field:
        pieces = text.split("/")
        for k, piece in enumerate(pieces):
            if k:
                comps.append([])
            if piece:
                comps[-1].append((piece, quoted))
    return comps


class _Globber:
    """One pathname expansion: the shell's options read once, the result count bounded."""

    def __init__(self, sh: "Shell"):
        self.sh = sh
        self.fs = sh.fs
        self.limit = sh.limits.glob_results
        ignore = sh.get_var("GLOBIGNORE")
        self.ignore = [p for p in (ignore or "").split(":") if p]
        self.dotglob = "dotglob" in sh.shopts or bool(ignore)
        self.nocase = "nocaseglob" in sh.shopts
        self.skipdots = "globskipdots" in sh.shopts
        self.globstar = "globstar" in sh.shopts
        self.count = 0

    def _bump(self, n: int = 1) -> None:
        self.count += n
        if self.count > self.limit:
            raise LimitExceeded("glob_results", f"glob limit of {self.limit} results "
                                "exceeded; use a narrower pattern")

    def _names(self, vpath: str) -> list[str]:
        try:
            return sorted(self.fs.listdir(vpath))
        except (FSError, OSError):
            return []

    def _is_dir(self, vpath: str) -> bool:
        try:
            return self.fs.stat(vpath).is_dir
        except (FSError, OSError):
            return False

    def _walk(self, display: str, vpath: str, dirs_only: bool) -> list[tuple[str, str]]:
        """Everything below a directory (``**``), hidden names only with dotglob."""
        out: list[tuple[str, str]] = []
        stack = [(display, vpath)]
        while stack:
            self.sh.budget.check_time()
            d, v = stack.pop()
            for name in self._names(v):
                if name.startswith(".") and not self.dotglob:
                    continue
                dd, vv = _join(d, name), normalize(name, v)
                is_dir = self._is_dir(vv)
                if is_dir:
                    stack.append((dd, vv))
                if is_dir or not dirs_only:
                    self._bump()
                    out.append((dd, vv))
        return out

    def run(self, field: list[Chunk]) -> list[str]:
        sh = self.sh
        text = "".join(t for t, _ in field)
        absolute = text.startswith("/")
        comps = split_components(field)
        if absolute:
            comps = comps[1:]
        cands: list[tuple[str, str]] = [("/" if absolute else "", "/" if absolute else sh.cwd)]
        last = len(comps) - 1
        for idx, comp in enumerate(comps):
            sh.budget.check_time()
            tcomp = tuple(comp)
            name_text = "".join(t for t, _ in comp)
            trailing = idx == last
            nxt: list[tuple[str, str]] = []
            if not comp:  # an empty component (a//b, a trailing slash)
                nxt = [(d if d.endswith("/") else d + "/", v) for d, v in cands if d]
                if trailing:
                    nxt = [(d, v) for d, v in nxt if self._is_dir(v)]
            elif not patterns.has_glob(tcomp):
                for d, v in cands:
                    nxt.append((_join(d, name_text), normalize(name_text, v)))
                if trailing:
                    nxt = [(d, v) for d, v in nxt if self.fs.exists(v)]
            elif self.globstar and tcomp == (("**", False),):
                for d, v in cands:
                    if trailing:
                        if d:
                            nxt.append((d if d.endswith("/") else d + "/", v))
                        nxt.extend(self._walk(d, v, dirs_only=False))
                    else:
                        nxt.append((d, v))
                        nxt.extend(self._walk(d, v, dirs_only=True))
            else:
                nxt = self._match(cands, tcomp, name_text)
                if not trailing:
                    nxt = [(dd, vv) for dd, vv in nxt if self._is_dir(vv)]
            cands = nxt
        found = sorted({d for d, _ in cands if d})
        if self.ignore:
            found = [f for f in found if not self._ignored(f)]
        return found

    def _match(self, cands: list[tuple[str, str]], tcomp: tuple[Chunk, ...],
               name_text: str) -> list[tuple[str, str]]:
        rx = patterns.to_regex(tcomp)
        if self.nocase:
            rx = re.compile(rx.pattern, re.DOTALL | re.IGNORECASE)
        extglob = patterns.has_extglob(tcomp)
        dot = patterns.leads_with_dot(patterns.joined(tcomp))
        dot_ok = dot or self.dotglob
        out: list[tuple[str, str]] = []
        for d, v in cands:
            names = self._names(v)
            if dot and not self.skipdots:
                names = [".", ".."] + names
            for name in names:
                if name.startswith(".") and not dot_ok:
                    continue
                if name in (".", "..") and (self.skipdots or not dot):
                    continue
                hit = patterns.match(tcomp, name) if extglob and not self.nocase \
                    else rx.fullmatch(name)
                if hit:
                    self._bump()
                    out.append((_join(d, name), normalize(name, v)))
        return out

    def _ignored(self, path: str) -> bool:
        """True if ``path`` matches a ``GLOBIGNORE`` pattern (``*`` never matches a ``/``);
        ``.`` and ``..`` always are."""
        base = path.rstrip("/").rsplit("/", 1)[-1]
        if base in (".", ".."):
            return True
        parts = path.split("/")
        for pat in self.ignore:
            pparts = pat.split("/")
            if len(pparts) == len(parts) and all(
                    patterns.to_regex(((pp, False),)).fullmatch(p)
                    for pp, p in zip(pparts, parts)):
                return True
        return False


def _join(display: str, name: str) -> str:
    if not display:
        return name
    if display.endswith("/"):
        return display + name
    return display + "/" + name


def glob(sh: "Shell", field: list[Chunk]) -> list[str]:
    """Paths in the jail matching a glob field, sorted; [] if none."""
    return _Globber(sh).run(field)

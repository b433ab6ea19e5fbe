"""Path rules of the structured memory tool.

``/memories/x``, ``/.memory/x`` and ``x`` all name ``<root>/x``. Refused, before anything is
read or written: ``..`` anywhere, percent-encoded characters (``%2e%2e``, ``%2f``...),
look-alike characters that normalise to ``.``, ``/`` or ``\\``, backslashes, NUL and other
control characters, ``/memories_x/...`` and every other absolute path, ``~``, names longer
than 255 bytes, and more than ``max_depth`` directory levels. Symbolic links, binary files and
the size cap are checked against the store by the tool.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

PREFIXES = ("/memories", "/.memory")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class PathRefused(Exception):
    """A path broke a rule; ``reason`` says which, in a few words."""

    def __init__(self, path: str, reason: str):
        super().__init__(reason)
        self.path = path
        self.reason = reason


def shown(path: object, limit: int = 120) -> str:
    """A path as it may appear in a message: control characters escaped, length capped."""
    text = path if isinstance(path, str) else repr(path)
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass(frozen=True)
class ToolPath:
    """A checked path: ``rel`` inside the store ("" is the root), ``display`` for messages."""

    rel: str
    display: str

    @property
    def is_root(self) -> bool:
        """True for the memory root itself."""
        return self.rel == ""


def resolve(raw: object, *, max_depth: int = 6, display_prefix: str = "/memories") -> ToolPath:
    """Check ``raw`` against the rules and return where it points; ``PathRefused`` if not."""
    if not isinstance(raw, str):
        raise PathRefused(shown(raw), "the path must be a string")
    if raw == "":
        raise PathRefused(raw, "the path is empty")
    if "\x00" in raw:
        raise PathRefused(raw, "it contains a NUL byte")
    if _CONTROL.search(raw):
        raise PathRefused(raw, "it contains a control character")
    if "\\" in raw:
        raise PathRefused(raw, "it contains a backslash; use / between directories")
    if _PERCENT.search(raw):
        raise PathRefused(raw, "it contains a percent-encoded character; write paths literally")
    folded = unicodedata.normalize("NFKC", raw)
    if folded != raw and any(c in folded for c in "./\\%") and (
        folded.count(".") != raw.count(".") or folded.count("/") != raw.count("/")
        or "\\" in folded or "%" in folded
    ):
        raise PathRefused(raw, "it contains look-alike characters for '.', '/' or '\\'")
    if ".." in raw:
        raise PathRefused(raw, "'..' is not allowed in memory paths")
    prefix = display_prefix
    rest: str
    for p in PREFIXES:
        if raw == p or raw.startswith(p + "/"):
            rest = raw[len(p):]
            prefix = p if p != "/memories" else display_prefix
            break
    else:
        if raw.startswith("/"):
            raise PathRefused(raw, f"it is outside the memory directory; paths start with {display_prefix}/")
        if raw.startswith("~"):
            raise PathRefused(raw, "'~' is not allowed; paths are relative to the memory directory")
        rest = raw
    parts = [p for p in rest.split("/") if p not in ("",)]
    for part in parts:
        if part == ".":
            raise PathRefused(raw, "'.' components are not allowed")
        if len(part.encode("utf-8", "surrogatepass")) > 255:
            raise PathRefused(raw, "a name in it is longer than 255 bytes")
        try:
            part.encode("utf-8")
        except UnicodeEncodeError:
            raise PathRefused(raw, "it is not valid Unicode") from None
    if len(parts) > max_depth:
        raise PathRefused(raw, f"it is more than {max_depth} levels deep")
    rel = "/".join(parts)
    return ToolPath(rel, prefix + ("/" + rel if rel else ""))

"""Scope keys: one memory per agent, per session or per user.

A scope key such as ``"user:42"`` selects the sub-directory ``scopes/<encoded key>`` of the
memory. The encoding keeps lower-case ASCII letters, digits, ``-`` and ``_`` and writes every
other byte of the key's UTF-8 as ``%XX`` (upper-case hex), so ``user:Alice`` and ``user:alice``
stay apart on case-insensitive filesystems and no key can name ``.``, ``..`` or a path.

Keys that would pool everyone's memory are refused: empty or blank keys, ``None``,
``"undefined"``, ``"null"``, ``"None"``, ``"nil"``, ``"NaN"`` and such placeholders, also as
a part (``"user:None"``, ``"session:"``), control characters and path separators.
"""

from __future__ import annotations

import re

from memtool.errors import ScopeError

SCOPES_DIR = "scopes"
MAX_KEY_LENGTH = 80

_PLACEHOLDERS = frozenset(
    {"none", "null", "nil", "undefined", "nan", "void", "unknown", "anonymous",
     "[object object]", "{}", "[]", "''", '""', "0x0"}
)
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")
_PART_SPLIT = re.compile(r"[:=|,;@#]")


def validate_scope(key: object) -> str:
    """Return ``key`` if it is a usable scope key; raise ``ScopeError`` naming the problem."""
    if key is None:
        raise ScopeError("scope key is None; pass the user's, session's or agent's real id")
    if not isinstance(key, str):
        raise ScopeError(f"scope key must be a string, not {type(key).__name__}")
    if not key.strip():
        raise ScopeError("scope key is empty; pass the user's, session's or agent's real id")
    if key != key.strip():
        raise ScopeError("scope key has leading or trailing whitespace")
    if len(key) > MAX_KEY_LENGTH:
        raise ScopeError(f"scope key is longer than {MAX_KEY_LENGTH} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in key):
        raise ScopeError("scope key contains a control character")
    if "/" in key or "\\" in key:
        raise ScopeError("scope key contains a path separator ('/' or '\\')")
    parts = [p.strip() for p in _PART_SPLIT.split(key)]
    for part in parts:
        if part == "":
            raise ScopeError(f"scope key {key!r} has an empty part")
        if part.lower() in _PLACEHOLDERS:
            raise ScopeError(
                f"scope key {key!r} contains the placeholder {part!r}, which would pool the "
                f"memory of everyone whose id is missing; pass the real id"
            )
    return key


def encode_scope(key: str) -> str:
    """The directory name of a valid scope key (reversible, case-insensitively unique)."""
    validate_scope(key)
    out: list[str] = []
    for ch in key:
        if ch in _SAFE:
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
    return "".join(out)


def decode_scope(name: str) -> str:
    """The scope key of a directory name made by ``encode_scope``."""
    data = bytearray()
    i = 0
    while i < len(name):
        if name[i] == "%":
            data.append(int(name[i + 1 : i + 3], 16))
            i += 3
        else:
            data.extend(name[i].encode())
            i += 1
    return data.decode("utf-8")


def scope_prefix(key: str) -> str:
    """The store path of a scope's sub-directory: ``scopes/<encoded key>``."""
    return f"{SCOPES_DIR}/{encode_scope(key)}"

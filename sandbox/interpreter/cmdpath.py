"""``/bin/true``, ``/usr/bin/env``: a command named by its path in a standard directory is
the command of that name (the allowlist and every check apply to the name). Other paths are
files, which the sandbox never runs."""

from __future__ import annotations

import re

#: The directories bash would find the sandbox's commands in on a usual system.
_STANDARD_RE = re.compile(r"/(?:usr/(?:local/)?)?s?bin/+([A-Za-z0-9_.+\[-]+)\Z")


def standard_name(name: str) -> str:
    """``/usr/bin/X`` -> ``X`` (``X`` a plain name); any other word unchanged."""
    if not name.startswith("/"):
        return name
    m = _STANDARD_RE.match(name)
    return m.group(1) if m else name

"""Finding obvious secrets in text, to refuse them on write and redact them in the log.

Detected kinds: private key blocks, AWS access key IDs (``AKIA…``), provider API keys
(``sk-…``), GitHub tokens (``ghp_…``, ``github_pat_…``), Slack tokens (``xox…-``), Google API
keys (``AIza…``) and password or secret assignments (``password = hunter22``). A finding
names its kind and never carries the secret itself into a message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from memtool.errors import SecretRefused


@dataclass(frozen=True)
class SecretPattern:
    """One kind of secret: ``value_group`` is the regex group to redact (0: the whole match)."""

    kind: str
    regex: re.Pattern[str]
    value_group: int = 0


DEFAULT_PATTERNS: tuple[SecretPattern, ...] = (
    SecretPattern(
        "private key block",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*\Z)",
            re.S,
        ),
    ),
    SecretPattern("AWS access key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    SecretPattern("API key (sk-…)", re.compile(r"\bsk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_]{16,}")),
    SecretPattern(
        "GitHub token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\b"),
    ),
    SecretPattern("Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    SecretPattern("Google API key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    SecretPattern(
        "password assignment",
        re.compile(
            r"(?i)\b(?:[a-z0-9]*_)?(?:password|passwd|passphrase|pwd|secret|client_secret|api[_-]?key|"
            r"access[_-]?token|auth[_-]?token|private[_-]?key)\b\s*[:=]\s*"
            r"[\"']?([^\s\"'<>\[\]{}]{4,})"
        ),
        value_group=1,
    ),
)


@dataclass(frozen=True)
class Finding:
    """A secret found in a text: its kind and where its value is (never the value)."""

    kind: str
    start: int
    end: int


class SecretScanner:
    """Finds secrets in text. ``enabled=False`` turns every check into a no-op.

    ``markers``: lower-case substrings one of which every secret contains; text without any
    is not scanned further. Custom patterns should add theirs (or set ``markers=()``).
    """

    def __init__(self, enabled: bool = True, patterns: Iterable[SecretPattern] = DEFAULT_PATTERNS):
        self.enabled = enabled
        self.patterns = tuple(patterns)
        # A cheap prefilter: most text contains none of these markers (checked on the
        # lower-cased text with ``in``) and skips the regexes.
        self.markers: tuple[str, ...] = (
            "private key", "akia", "asia", "abia", "acca", "sk-", "ghp_", "gho_", "ghu_", "ghs_",
            "ghr_", "github_pat_", "xox", "aiza", "pass", "pwd", "secret", "key", "token",
        )
        self._marker_src: tuple[str, ...] = ()
        self._marker_re: re.Pattern[str] | None = None

    def find(self, text: str) -> list[Finding]:
        """Every secret in ``text``, in order of position (overlaps removed)."""
        if not self.enabled or not text:
            return []
        if self.markers:
            if self._marker_re is None or self._marker_src != self.markers:
                self._marker_src = self.markers
                self._marker_re = re.compile("|".join(map(re.escape, self.markers)))
            if not self._marker_re.search(text.lower()):
                return []
        found: list[Finding] = []
        for pattern in self.patterns:
            for m in pattern.regex.finditer(text):
                g = pattern.value_group
                found.append(Finding(pattern.kind, m.start(g), m.end(g)))
        found.sort(key=lambda f: (f.start, -f.end))
        merged: list[Finding] = []
        for f in found:
            if merged and f.start < merged[-1].end:
                continue
            merged.append(f)
        return merged

    def check(self, text: str) -> None:
        """Raise ``SecretRefused`` naming the first secret's kind, if ``text`` holds one."""
        found = self.find(text)
        if found:
            raise SecretRefused(found[0].kind)

    def redact(self, text: str) -> str:
        """``text`` with every secret replaced by ``[redacted: KIND]``."""
        found = self.find(text)
        if not found:
            return text
        out: list[str] = []
        pos = 0
        for f in found:
            out.append(text[pos : f.start])
            out.append(f"[redacted: {f.kind}]")
            pos = f.end
        out.append(text[pos:])
        return "".join(out)

"""Secrets: refused on write through both tools (kind named, value never echoed), redacted in
the log, configurable."""

from __future__ import annotations

import pytest

from memtool import Memory, SecretScanner
from memtool.tools.bash_tool import sandbox_available

SECRETS = [
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----", "private key block"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA", "private key block"),
    ("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----", "private key block"),
    ("AKIAIOSFODNN7EXAMPLE", "AWS access key"),
    ("ASIAY34FZKBOKMUTVV7A", "AWS access key"),
    ("sk-proj-4f9aQ2mZ8xY1bC3dE5fG7hJ9kL", "API key (sk-…)"),
    ("sk-ant-api03-abcdefghijklmnopqrstuvwx", "API key (sk-…)"),
    ("sk-abcdefghijklmnopqrstuvwxyz012345", "API key (sk-…)"),
    ("ghp_" + "A1b2C3d4E5" * 4, "GitHub token"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "GitHub token"),
    ("xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp", "Slack token"),
    ("xoxp-1234567890-abcdef", "Slack token"),
    ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "Google API key"),
    ("password = hunter2!", "password assignment"),
    ("PASSWORD: 'correct horse'", "password assignment"),
    ("db_pwd=s3cr3tValue", "password assignment"),
    ("api_key: 1234abcd5678efgh", "password assignment"),
]

NOT_SECRETS = [
    "The password policy needs 12 characters.",
    "Ask about the api key rotation on Monday.",
    "skills: python, sk-learn",
    "The token count was high.",
    "AKIA is the prefix of AWS keys",
    "ghp_ tokens start like this",
]


@pytest.mark.parametrize("secret,kind", SECRETS)
def test_scanner_finds_kind(secret, kind):
    found = SecretScanner().find(f"note: {secret} end")
    assert [f.kind for f in found] == [kind]


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_no_false_alarm(text):
    assert SecretScanner().find(text) == []


def _value(secret: str) -> str:
    # the part a message must never repeat
    return secret.split("=")[-1].split(":")[-1].strip(" '") if "assignment" in secret else secret


@pytest.mark.parametrize("secret,kind", SECRETS)
def test_memory_tool_refuses(mem, secret, kind, snapshot):
    mem.store.write_bytes("notes.md", b"- old note\n")
    before = snapshot(mem.store)
    text = f"- remember: {secret}\n"
    for args in (
        dict(command="create", path="/memories/s.md", file_text=text),
        dict(command="update", path="/memories/notes.md", content=text, mode="append"),
        dict(command="update", path="/memories/notes.md", content=text),
        dict(command="str_replace", path="/memories/notes.md", old_str="old note", new_str=text),
        dict(command="insert", path="/memories/notes.md", insert_line=0, insert_text=text),
    ):
        out = mem.call("memory", args)
        assert out == (f"Error: refused to store a secret ({kind}); remove it, or note where the secret "
                       "is kept instead of the secret itself. Nothing was written."), out
        assert secret not in out
    assert snapshot(mem.store) == before


@pytest.mark.skipif(not sandbox_available(), reason="the sandbox (sandbox.api) is not installed")
@pytest.mark.parametrize("secret,kind", SECRETS[:6] + SECRETS[-3:])
def test_bash_tool_refuses(mem, secret, kind, snapshot):
    before = snapshot(mem.store)
    quoted = secret.replace("'", "").replace("\n", " ")
    out = mem.bash(f"echo '{quoted}' >> /.memory/notes.md")
    assert out.startswith(f"Error: refused to run a command containing a secret ({kind});"), out
    assert quoted not in out
    assert snapshot(mem.store) == before


def test_secrets_check_can_be_disabled(store):
    mem = Memory(store, secrets=False)
    out = mem.call("memory", dict(command="create", path="k.md", file_text="AKIAIOSFODNN7EXAMPLE"))
    assert out == "File created successfully at: /memories/k.md"


def test_custom_scanner(store):
    from memtool.secrets import DEFAULT_PATTERNS, SecretPattern
    import re
    scanner = SecretScanner(patterns=DEFAULT_PATTERNS + (SecretPattern("employee id", re.compile(r"\bEMP-\d{6}\b")),))
    scanner.markers = ()  # custom patterns: no prefilter
    mem = Memory(store, secrets=scanner)
    out = mem.call("memory", dict(command="create", path="k.md", file_text="EMP-123456"))
    assert out.startswith("Error: refused to store a secret (employee id)")

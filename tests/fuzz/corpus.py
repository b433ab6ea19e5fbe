"""Where fuzz inputs come from: seed scripts (the differential corpus and the Oils spec cases),
mutations of them as a truncated or mis-escaped model output looks, and a grammar generator."""

from __future__ import annotations

import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OILS = ROOT.parent / "shared" / "conformance" / "oils"

#: Metacharacters and fragments a mutation inserts (NUL and a lone surrogate included: the
#: API takes str, and undecodable bytes arrive as surrogate escapes).
META = list("$`\"'\\(){}[]|&;<>*?~!#=%^-+:,.@/ \n\t") + [
    "$(", "${", "$((", "((", "))", "<<", "<<<", "<<-", ">>", "2>&1", "&>", ">&", "<&", "&&",
    "||", ";;", ";&", ";;&", "[[", "]]", "${#", "${!", "${x:", "${x/", "${x//", "${x#", "${x%",
    "${x^^", "${x@Q}", "$@", "$*", "$?", "$#", "$1", "$-", "$$", "$!", "$_", "<(", ">(", "{1..",
    "..}", "[@]", "[*]", "[-1]", "\x00", "é", "\udcff", "\udc80", "\u202e", "\r", "\\\n",
    "9223372036854775807", "-9223372036854775808", "99999999999999999999", "2**62", "-1", "0",
    "case x in", "esac", "if", "then", "fi", "do", "done", "function", "declare -A", "local",
    "readonly", "export", "unset", "shift", "set --", "IFS=", "break", "continue", "return",
    "exit", "test -v", "[ -z", "] ", "eval", "exec", "source", "alias", "trap", "&", "|&",
]

#: Commands the generator and the word-swap mutation use.
COMMANDS = ["echo", "printf", "cat", "grep", "sed", "jq", "head", "tail", "wc", "sort", "uniq",
            "cut", "tr", "ls", "mkdir", "touch", "rm", "mv", "cp", "tee", "seq", "date",
            "basename", "dirname", "test", "[", "read", "set", "shift", "local", "export",
            "unset", "cd", "pwd", "true", "false", ":", "let", "awk", "find", "xargs", "diff",
            "env", "timeout", "expr", "nl", "tac", "rev", "od", "stat", "du", "python3", "bash",
            "sh", "curl", "perl"]


def seed_scripts() -> list[str]:
    """Every script of the differential corpus and of the Oils spec files."""
    out: list[str] = []
    try:
        import sys
        sys.path.insert(0, str(ROOT / "tests" / "sandbox" / "shell"))
        from diff_scripts import SCRIPTS  # type: ignore[import-not-found]
        out.extend(script for script, _stdin in SCRIPTS)
    except Exception:  # pragma: no cover - the corpus module is part of the repo
        pass
    for path in sorted(OILS.glob("*.test.sh")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for block in re.split(r"^#### .*$", text, flags=re.M)[1:]:
            code = "\n".join(line for line in block.split("\n") if not line.startswith("## "))
            if code.strip():
                out.append(code.strip()[:1500])
    return out or ["echo hi", "grep -n tea core.md", "for x in a b; do echo $x; done"]


def mutate(rng: random.Random, script: str, pool: list[str]) -> str:
    """One to six edits: delete a span, insert a metacharacter, splice from another script,
    swap two characters, cut the end off, swap a command name, duplicate a span."""
    s = list(script)
    for _ in range(rng.randint(1, 6)):
        op = rng.random()
        if op < 0.2 and s:
            i = rng.randrange(len(s))
            del s[i:i + rng.randint(1, 8)]
        elif op < 0.5:
            i = rng.randrange(len(s) + 1)
            s[i:i] = list(rng.choice(META))
        elif op < 0.7:
            other = rng.choice(pool)
            a = rng.randrange(len(other) + 1)
            i = rng.randrange(len(s) + 1)
            s[i:i] = list(other[a:a + rng.randint(1, 60)])
        elif op < 0.78 and s:
            del s[rng.randrange(len(s)):]
        elif op < 0.86:
            text = "".join(s)
            words = list(re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", text))
            if words:
                w = rng.choice(words)
                text = text[:w.start()] + rng.choice(COMMANDS) + text[w.end():]
            s = list(text)
        elif op < 0.93 and s:
            i = rng.randrange(len(s))
            s[i:i] = s[i:i + rng.randint(1, 20)]
        elif s:
            i, j = rng.randrange(len(s)), rng.randrange(len(s))
            s[i], s[j] = s[j], s[i]
    return "".join(s)


class Grammar:
    """Random scripts from a grammar of the shell a model writes (every construct the
    interpreter knows, plus ones it refuses), with random commands, options and words."""

    WORDS = ["a", "b c", "", "x*", "?", "[ab]", "core.md", "notes.md", "dir/f", "-n", "-e",
             "--", "-", "0", "-1", "3", "9999999999999", "é", "'q'", "\"d\"", "\\n", "%s", "%d",
             "%b", "%q", "%-5s|", "%(%F)T", "a=b", "[a-z]", "{1..3}", "{a,b}", "~", ".", "..",
             "/", "/.memory", "/etc/passwd", "$x", "${x}", "${x:-d}", "${x:1:2}", "${#x}",
             "${x/a/b}", "${x^^}", "${!x}", "${a[@]}", "${a[1]}", "$((x+1))", "$(echo s)",
             "`echo t`", "$'\\t'", "\"$@\"", "$*", "$1", "$?", "*.md", "**"]
    OPTS = ["-n", "-c", "-i", "-v", "-r", "-e", "-s", "-u", "-f", "-d", "-k2", "-t:", "-w",
            "-x", "-E", "-F", "-o", "-l", "-a", "-1", "-z", "-0", "--help", "--version", "-Z"]
    VARS = ["x", "y", "a", "IFS", "PATH", "HOME", "OPTIND", "REPLY", "i", "m"]

    def __init__(self, rng: random.Random):
        self.rng = rng

    def word(self) -> str:
        """One shell word."""
        w = self.rng.choice(self.WORDS)
        if self.rng.random() < 0.3:
            w = w + self.rng.choice(self.WORDS)
        return w if self.rng.random() < 0.5 else f'"{w}"'

    def simple(self) -> str:
        """A simple command with assignments, options, words and redirections."""
        r = self.rng
        parts: list[str] = []
        if r.random() < 0.25:
            parts.append(f"{r.choice(self.VARS)}={self.word()}")
        if r.random() < 0.1:
            parts.append(f"{r.choice(self.VARS)}=({self.word()} {self.word()})")
            return " ".join(parts)
        parts.append(r.choice(COMMANDS))
        for _ in range(r.randint(0, 3)):
            parts.append(r.choice(self.OPTS) if r.random() < 0.4 else self.word())
        if r.random() < 0.2:
            parts.append(r.choice([">", ">>", "<", "2>", "2>&1", "&>", "<<<"]) + " " +
                         r.choice(["out.txt", "core.md", "/dev/null", "/nonexistent/x", "''",
                                   "../../x", "dir"]))
        return " ".join(parts)

    def command(self, depth: int = 0) -> str:
        """A command: simple, compound, a function, or a pipeline/list of commands."""
        r = self.rng
        if depth > 3:
            return self.simple()
        k = r.random()
        c = lambda: self.command(depth + 1)  # noqa: E731
        if k < 0.35:
            return self.simple()
        if k < 0.45:
            return f"{c()} | {c()}"
        if k < 0.52:
            return f"{c()} {r.choice(['&&', '||', ';'])} {c()}"
        if k < 0.58:
            return f"if {c()}; then {c()}; else {c()}; fi"
        if k < 0.63:
            return f"for {r.choice(self.VARS)} in {self.word()} {self.word()}; do {c()}; done"
        if k < 0.67:
            return f"while {c()}; do {c()}; break; done"
        if k < 0.72:
            return f"case {self.word()} in {self.word()}) {c()};; *) {c()};; esac"
        if k < 0.77:
            op = r.choice(["==", "!=", "=~", "-eq", "<", "-lt", "-n", "-z", "-v", "-f"])
            return f"[[ {self.word()} {op} {self.word()} ]] && {c()}"
        if k < 0.81:
            return f"f() {{ {c()}; return {r.randint(0, 3)}; }}; f {self.word()}"
        if k < 0.85:
            return f"( {c()} )"
        if k < 0.88:
            return f"{{ {c()}; }}"
        if k < 0.91:
            return f"(( {r.choice(self.VARS)} {r.choice(['+=', '=', '/=', '<<=', '**='])} {r.randint(-3, 70)} ))"
        if k < 0.94:
            return f"echo $( {c()} )"
        if k < 0.96:
            return f"cat <<EOF\n{self.word()} $({self.simple()})\nEOF"
        if k < 0.98:
            return f"declare {r.choice(['-a', '-A', '-i', '-r', '-n', '-x', '-l', '-u', '-p'])} {r.choice(self.VARS)}={self.word()}"
        return f"read {r.choice(['-r', '-a', '-d', '-n 2'])} {r.choice(self.VARS)} <<< {self.word()}"

    def script(self) -> str:
        """One to four commands, one a line."""
        return "\n".join(self.command() for _ in range(self.rng.randint(1, 4)))


#: Structured-tool calls: commands and path strings an attacker (or a confused model) sends.
MEMORY_COMMANDS = ["view", "create", "update", "search", "str_replace", "insert", "delete",
                   "rename", "bogus", "", None]
PATHS = ["/memories", "/memories/core.md", "/memories/notes.md", "core.md", "/.memory/x.md",
         "/memories/../../etc/passwd", "../x", "%2e%2e/x", "/memories/%2e%2e/x", "/etc/passwd",
         "/memories_x/a", "~/x", "a\\b", "a\x00b", "/memories/" + "a" * 300, "/memories/a/b/c/d/e/f/g/h",
         "/memories/conversations.jsonl", "/memories/.", "/memories/./core.md", "x\u2025y",
         "/memories/\u2215etc", "", None, 7, ["a"], "/memories/new dir/f.md", "\udcff"]


def memory_call(rng: random.Random, pool: list[str]) -> tuple[str, dict]:
    """One random call of either memtool tool."""
    if rng.random() < 0.4:
        return "bash", {"command": mutate(rng, rng.choice(pool), pool)}
    args: dict = {"command": rng.choice(MEMORY_COMMANDS)}
    for key in ("path", "old_path", "new_path"):
        if rng.random() < 0.7:
            args[key] = rng.choice(PATHS)
    for key in ("file_text", "content", "old_str", "new_str", "insert_text", "query"):
        if rng.random() < 0.4:
            args[key] = rng.choice([mutate(rng, "- likes tea", pool), "", "tea", None, 3,
                                    "x" * 70000, "AKIAABCDEFGHIJKLMNOP", "</memory>"])
    for key in ("insert_line", "view_range", "mode"):
        if rng.random() < 0.3:
            args[key] = rng.choice([0, -1, 1, 10**20, "2", [1, 2], [3, -1], [-5, 2], None,
                                    "append", "overwrite", "x"])
    return "memory", args

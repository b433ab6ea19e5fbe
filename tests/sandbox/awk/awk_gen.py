"""A seeded generator of awk programs (a grammar of the language) and of inputs."""

from __future__ import annotations

import random

NUM_SHAPES = ["0", "1", "-1", "12", " 12 ", "1e3", "-0", ".5", "+3", "0x1A", "inf", "nan",
              "+inf", "-nan", "3.14159", "1e-7", "123456789012", "007", "1.0", "2.50",
              "1e308", "abc", "12abc", "", "-", ".", "1,000", "١٢"]
WORDS = ["alpha", "Beta", "gamma", "the", "fox", "été", "ñandú", "🙂", "a:b", "x,y", "tab\tin",
         "UPPER", "lower", "foo", "bar", "budget", "pricing", "2026-01-05", "k=v"]


def gen_input(rng: random.Random) -> bytes:
    lines = []
    for _ in range(rng.randint(0, 7)):
        kind = rng.random()
        if kind < 0.1:
            lines.append(b"")
            continue
        if kind < 0.13:
            lines.append(b"x" * rng.randint(200, 3000))
            continue
        n = rng.randint(1, 6)
        fields = []
        for _ in range(n):
            if rng.random() < 0.5:
                fields.append(rng.choice(NUM_SHAPES).encode())
            else:
                fields.append(rng.choice(WORDS).encode())
        sep = rng.choice([b" ", b"  ", b"\t", b",", b":", b" , "])
        line = sep.join(fields)
        if rng.random() < 0.1:
            line = b"  " + line + b" "
        if rng.random() < 0.05:
            line += b"\xff\xfe"
        lines.append(line)
    eol = b"\r\n" if rng.random() < 0.1 else b"\n"
    data = eol.join(lines)
    if lines and rng.random() < 0.85:
        data += eol
    return data


class Gen:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.depth = 0
        self.loopvars = 0

    def choice(self, xs):
        return self.rng.choice(xs)

    # -- expressions --------------------------------------------------------------------

    def num(self) -> str:
        return self.choice(["0", "1", "2", "3", "10", "-1", "0.5", "1e3", "100", "7", "2.5",
                            "0x10", "011", "1e-3", "123456789"])

    def string(self) -> str:
        return '"' + self.choice(["", "a", "abc", "x y", "10", "9", "1e2", " 3 ", "é", "A,B",
                                  "%d", "\\t", "foo", "0", "-", "a.b"]) + '"'

    def regex(self) -> str:
        return "/" + self.choice(["a", "^a", "o$", "[0-9]+", "^$", "x|y", "[[:upper:]]",
                                  "(ab)+", "a.c", "\\.", "[^ ]+", "e{2}", "\\<f", "é", "^.",
                                  "[a-z]*", "1|2|3", "\\t", "[,:]"]) + "/"

    def lvalue(self) -> str:
        r = self.rng.random()
        if r < 0.5:
            return self.choice(["x", "y", "z", "n", "s"])
        if r < 0.8:
            return "a[" + self.atom() + "]"
        return "$" + self.choice(["1", "2", "3", "(1+1)", "NF"])

    def atom(self) -> str:
        r = self.rng.random()
        if r < 0.15:
            return self.num()
        if r < 0.27:
            return self.string()
        if r < 0.45:
            return "$" + self.choice(["0", "1", "2", "3", "NF", "(NF-1)", "4"])
        if r < 0.6:
            return self.choice(["x", "y", "z", "n", "s", "NF", "NR", "FNR", "a[1]",
                                "a[\"k\"]", "a[$1]"])
        if r < 0.8 and self.depth < 3:
            return self.builtin()
        if r < 0.9 and self.depth < 3:
            return "(" + self.expr() + ")"
        return self.num()

    def builtin(self) -> str:
        self.depth += 1
        e = self.expr
        s = self.choice([
            lambda: f"length({e()})", lambda: "length", lambda: f"substr({e()}, {e()})",
            lambda: f"substr({e()}, {e()}, {e()})", lambda: f"index({e()}, {e()})",
            lambda: f"split({e()}, arr)", lambda: f"split({e()}, arr, {self.string()})",
            lambda: f"toupper({e()})", lambda: f"tolower({e()})", lambda: f"int({e()})",
            lambda: f"sqrt({self.num()})", lambda: f"exp({self.num()})",
            lambda: f"log({self.num()})", lambda: f"sin({e()})", lambda: f"cos({e()})",
            lambda: f"atan2({e()}, {e()})", lambda: f"match({e()}, {self.regex()})",
            lambda: f"sprintf({self.fmt()}, {e()}, {e()})",
            lambda: f"sub({self.regex()}, {self.string()}, {self.lvalue()})",
            lambda: f"gsub({self.regex()}, {self.string()}, {self.lvalue()})",
            lambda: f"gensub({self.regex()}, {self.string()}, \"g\", ({e()} \"\"))",
            lambda: f"({e()} in a)", lambda: f"f1({e()})",
            lambda: f"f2({e()}, {e()})", lambda: f"and({self.num()}, 6)",
            lambda: f"strtonum({e()})", lambda: "rand()",
        ])()
        self.depth -= 1
        return s

    def fmt(self) -> str:
        convs = ["%d", "%i", "%s", "%5s", "%-5s|", "%.2f", "%e", "%g", "%x", "%o", "%c",
                 "%05d", "%+d", "%.3s", "%10.4g", "%u", "%%", "%X", "%#x", "% d", "%.0f",
                 "%E", "%G", "%-8.3e"]
        a, b = self.choice(convs), self.choice(convs)
        if a == "%%":
            a = "%s"
        return '"' + a + " " + b.replace("%%", "%s") + '\\n"'

    def expr(self) -> str:
        if self.depth > 3:
            return self.atom()
        self.depth += 1
        r = self.rng.random()
        a = self.atom
        if r < 0.25:
            s = a()
        elif r < 0.45:
            s = f"{a()} {self.choice(['+', '-', '*', '/', '%', '^'])} {a()}"
        elif r < 0.55:
            s = f"{a()} {a()}"
        elif r < 0.68:
            s = f"{a()} {self.choice(['<', '<=', '==', '!=', '>', '>='])} {a()}"
        elif r < 0.74:
            s = f"{a()} {self.choice(['~', '!~'])} {self.regex()}"
        elif r < 0.8:
            s = f"{a()} {self.choice(['&&', '||'])} {a()}"
        elif r < 0.85:
            s = f"!{a()}"
        elif r < 0.9:
            s = f"-{a()}"
        elif r < 0.95:
            s = f"{a()} ? {a()} : {a()}"
        else:
            s = f"{self.lvalue()}{self.choice(['++', '--'])}"
        self.depth -= 1
        return s

    # -- statements ---------------------------------------------------------------------

    def simple(self) -> str:
        r = self.rng.random()
        if r < 0.3:
            args = ", ".join(self.expr() for _ in range(self.rng.randint(0, 3)))
            return f"print {args}" if args else "print"
        if r < 0.42:
            return f"printf {self.fmt()}, {self.expr()}, {self.expr()}"
        if r < 0.62:
            return f"{self.lvalue()} {self.choice(['=', '+=', '-=', '*=', '=', '='])} " \
                   f"{self.expr()}"
        if r < 0.68:
            return f"{self.lvalue()}++"
        if r < 0.72:
            return self.choice(["delete a", "delete a[1]", "delete a[$1]"])
        if r < 0.76:
            return self.choice(["$0 = " + self.expr(), "NF = " + self.choice(["1", "2", "5"]),
                                "$1 = $1", "$(NF+2) = \"e\""])
        if r < 0.8:
            sep = self.choice(['" "', '","', "/[:,]/", '""'])
            return f"n = split({self.expr()}, arr, {sep}); print n, arr[1], arr[n]"
        return f"print {self.expr()}"

    def stmt(self, in_main: bool) -> str:
        if self.depth > 2:
            return self.simple()
        self.depth += 1
        r = self.rng.random()
        if r < 0.55:
            s = self.simple()
        elif r < 0.7:
            s = f"if ({self.expr()}) {self.stmt(in_main)}; else {self.stmt(in_main)}"
        elif r < 0.78:
            self.loopvars += 1
            v = f"i{self.loopvars}"
            s = f"for ({v} = 0; {v} < {self.rng.randint(0, 4)}; {v}++) {{ {self.stmt(in_main)} }}"
        elif r < 0.84:
            self.loopvars += 1
            v = f"k{self.loopvars}"
            s = f"for ({v} in a) print {v}, a[{v}]"
        elif r < 0.88:
            self.loopvars += 1
            v = f"w{self.loopvars}"
            s = f"while ({v}++ < {self.rng.randint(0, 3)}) {{ {self.stmt(in_main)} }}"
        elif r < 0.91:
            self.loopvars += 1
            v = f"d{self.loopvars}"
            s = f"do {{ {self.stmt(in_main)} }} while (++{v} < 2)"
        elif r < 0.94 and in_main:
            s = f"if ({self.expr()}) next"
        else:
            s = "{ " + "; ".join(self.stmt(in_main) for _ in range(2)) + " }"
        self.depth -= 1
        return s

    def block(self, in_main: bool) -> str:
        return "{ " + "; ".join(self.stmt(in_main) for _ in range(self.rng.randint(1, 3))) + " }"

    def program(self) -> str:
        parts = []
        if self.rng.random() < 0.4:
            parts.append("function f1(p) { return p \"\" p }")
        if self.rng.random() < 0.3:
            parts.append("function f2(p, q,  t) { t = p + q; return t * 2 }")
        if self.rng.random() < 0.4:
            parts.append("BEGIN " + self.block(False))
        for _ in range(self.rng.randint(1, 3)):
            r = self.rng.random()
            if r < 0.3:
                parts.append(self.block(True))
            elif r < 0.5:
                parts.append(self.regex() + " " + self.block(True))
            elif r < 0.65:
                parts.append(self.expr())
            elif r < 0.75:
                parts.append(f"NR=={self.rng.randint(1, 3)},NR=={self.rng.randint(2, 5)}")
            else:
                parts.append(self.expr() + " " + self.block(True))
        if self.rng.random() < 0.5:
            parts.append("END " + self.block(False))
        return "\n".join(parts)

    def options(self) -> list[str]:
        opts = []
        r = self.rng.random()
        if r < 0.15:
            opts += ["-F", ","]
        elif r < 0.25:
            opts += ["-F", ":"]
        elif r < 0.3:
            opts += ["-F", "[:,]"]
        elif r < 0.35:
            opts += ["-F", "\\t"]
        elif r < 0.38:
            opts += ["-F", ""]
        if self.rng.random() < 0.15:
            opts += ["-v", "OFS=" + self.choice(["-", "::", "\\t"])]
        if self.rng.random() < 0.08:
            opts += ["-v", "RS=" + self.choice(["", ";", "a", "[,:]"])]
        if self.rng.random() < 0.08:
            opts += ["-v", "CONVFMT=%.2g"]
        if self.rng.random() < 0.08:
            opts += ["-v", "OFMT=%.3f"]
        if self.rng.random() < 0.1:
            opts += ["-v", "x=" + self.choice(NUM_SHAPES)]
        return opts


def gen_case(seed: int):
    rng = random.Random(seed)
    g = Gen(rng)
    prog = g.program()
    if prog.startswith("-"):
        prog = "(" + prog.split("\n", 1)[0] + ")" + ("\n" + prog.split("\n", 1)[1]
                                                    if "\n" in prog else "")
    if "rand()" in prog:
        prog = "BEGIN { srand(" + str(rng.randint(0, 99)) + ") }\n" + prog
    return g.options() + [prog], gen_input(rng)

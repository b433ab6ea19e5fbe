"""The hand-written sed corpus: commands and inputs chosen for each option and edge case.

Expectations are not written here: every case runs through GNU sed and ours and must agree.
"""

from __future__ import annotations

from sed_harness import Case

LINES = b"alpha\nbeta\ngamma\ndelta\nepsilon\n"
NUMS = b"".join(b"%d\n" % i for i in range(1, 13))
NOEOL = b"one\ntwo\nthree"
MIXED = b"Hello World\n\nfoo bar foo\r\nBAZ qux\n\xc3\xa9t\xc3\xa9 caf\xc3\xa9\n\xff\xfe bad\nnul\x00byte\n"
CONV = (b'{"role": "user", "content": "what is the pricing of the project budget?"}\n'
        b'{"role": "assistant", "content": "The budget is concise."}\n'
        b'{"role": "user", "content": "prefer detailed answers"}\n')
FILES = {"a.txt": b"a1\na2\na3\n", "b.txt": b"b1\nb2\n", "c.txt": b"c1", "empty.txt": b"",
         "core.md": b"# Core\n- prefers concise answers\n- likes tea\n"}

# (args, stdin)
_SIMPLE: list[tuple[list[str], bytes]] = [
    # printing and basic commands
    (["p"], LINES), (["-n", "p"], LINES), (["-n", "2p"], LINES), (["-n", "$p"], LINES),
    (["1d"], LINES), (["$d"], LINES), (["2,4d"], LINES), (["2,4!d"], LINES),
    (["-n", "/a/p"], LINES), (["/e/d"], LINES), (["-n", "/^g/,/^e/p"], LINES),
    (["="], LINES), (["-n", "$="], LINES), (["-n", "$="], NOEOL), (["p"], NOEOL),
    (["-n", "l"], MIXED), (["l"], MIXED), (["-n", "l 5"], LINES), (["-n", "l 1"], LINES),
    (["-n", "l 0"], MIXED), (["-l", "4", "-n", "l"], LINES), (["-n", "l;l 2"], b"a\\b\tc\n"),
    (["-n", "l"], b"x" * 150 + b"\n"), (["-n", "l"], b"\x01\x7f\x80\x1b[0m\n"),
    # substitution
    (["s/a/X/"], LINES), (["s/a/X/g"], LINES), (["s/a/X/2"], LINES), (["s/a/X/2g"], LINES),
    (["s/x*/-/g"], b"abc\n"), (["s/b*/X/g"], b"abc\nbbb\n\n"), (["s/b*/X/2"], b"abc\n"),
    (["s/^/> /"], LINES), (["s/$/ </"], LINES), (["s/.*/[&]/"], LINES),
    (["s/\\(a\\)\\(l\\)/\\2\\1/"], LINES), (["-E", "s/(a|e)+/<\\1>/g"], LINES),
    (["-E", "s/a|al/X/"], b"alpha\n"), (["s/a\\|al/X/"], b"alpha\n"),
    (["s/[aeiou]/\\U&/g"], LINES), (["s/\\w\\+/\\u&/g"], b"hello big world\n"),
    (["s/.*/\\L&/"], b"HeLLo WORLD\n"), (["s/\\(.\\)\\(.*\\)/\\2\\U\\1\\E!/"], LINES),
    (["s/l/\\n/"], LINES), (["s/l/\\t/g"], LINES), (["s/a/\\\n/g"], LINES),
    (["s/a/&&/g"], LINES), (["s/a/\\&/g"], LINES), (["s|a|/|g"], LINES), (["s,a,\\,,g"], LINES),
    (["s/a/X/w out.txt"], LINES), (["-n", "s/a/X/gpw out.txt"], LINES),
    (["s/A/x/I"], LINES), (["s/A/x/gi"], LINES), (["s/^b/X/M;N;s/^b/Y/Mg"], LINES),
    (["N;s/a$/X/M"], LINES), (["N;s/a$/X/"], LINES), (["s/e/X/3"], b"eeeeee\n"),
    (["s/\\(b\\)*/[\\1]/g"], b"abbc\n"), (["s/\\x41/z/"], b"ABA\n"), (["s/a/\\x26/"], b"a\n"),
    (["s/\\t/T/"], b"a\tb\n"), (["s/[\\t]/T/"], b"a\tb\n"), (["s/\\d65/d/"], b"A\n"),
    (["s/\\o101/o/"], b"A\n"), (["s/\\cA/c/"], b"\x01\n"), (["s/x/\\cz/"], b"x\n"),
    (["s/\\n/X/;N;s/\\n/-/"], LINES), (["$!N;s/\\n/ /"], LINES),
    (["s/é/E/g"], MIXED), (["s/./X/g"], b"\xc3\xa9\xff\n"), (["s/[^a]/_/g"], b"a\xc3\xa9b\n"),
    (["s/\\(é\\)/\\U\\1/"], MIXED), (["s/.*/\\U&/"], b"stra\xc3\x9fe \xc3\xa9t\xc3\xa9\n"),
    (["s/x*/-/g"], b"\xc3\xa9a\n"), (["s/a*/-/g"], b"baaac\n"),
    (["-E", "s/(x)?b/[\\1]/"], b"abc\n"), (["s/\\(a\\)\\|b/\\u\\1x/g"], b"ab\n"),
    (["-E", "s/()(.)/\\u\\1\\2/"], b"abc\n"), (["s/a/\\U/"], b"aaa\n"),
    (["-E", "s/(.)(.)/\\u\\L\\1\\2X/g"], b"ABCD\n"), (["s/b/\\lX\\uy/"], b"abc\n"),
    (["s/a/1/;ta;s/$/ no/;b;:a;s/$/ yes/"], LINES), (["s/q/1/;Ta;s/$/ yes/;b;:a;s/$/ no/"], LINES),
    (["-E", "s/(a)(b)(c)(d)(e)(f)(g)(h)(i)/\\9\\8\\7\\6\\5\\4\\3\\2\\1/"], b"abcdefghi\n"),
    (["-E", "s/a{2}/X/g"], b"aaaaa\n"), (["s/a\\{2,\\}/X/g"], b"aaaaa a aa\n"),
    (["-E", "s/\\<./X/g"], b"one two\n"), (["s/\\bt/T/g"], b"one two ttt\n"),
    (["s/o\\b/0/g"], b"foo boo o\n"), (["s/\\`a/X/g;s/a\\'/Y/"], b"aaa\n"),
    # y
    (["y/abc/xyz/"], LINES), (["y/a\\/b/x|y/"], b"a/b\n"), (["y,a\\,b,xyz,"], b"a,b\n"),
    (["y/\\n/ /;N;N;y/\\n/|/"], LINES), (["y/é/e/"], MIXED), (["y/ae/éè/"], LINES),
    (["y/abc/\\n\\t\\\\/"], b"abcabc\n"),
    # a i c
    (["a foo"], LINES), (["2a\\\nfoo\\\nbar"], LINES), (["2i\\  indented"], LINES),
    (["$a\\"], LINES), (["1i hello"], b""), (["a   spaced  "], b"x\n"),
    (["2c\\\nchanged"], LINES), (["2,4c\\\nrange"], LINES), (["2,4!c\\\nnot"], LINES),
    (["$!N;c\\\nX"], LINES), (["/beta/,/zzz/c\\\nX"], LINES), (["c X"], NOEOL),
    (["a X"], NOEOL), (["i X"], NOEOL), (["1{a foo\n}"], LINES), (["a foo\\tbar\\nq"], b"x\n"),
    (["a\\tb"], b"x\n"), (["a\\\\tb"], b"x\n"), (["a foo\\"], b"x\n"), (["1a\\", "-e", "text"], LINES),
    (["-e", "1a\\", "-e", "two\\", "-e", "lines"], LINES), (["1d;a\\"], LINES),
    (["a\\\n  lead\\\n  two"], b"x\n"), (["2q;a after"], LINES), (["2Q;a after"], LINES),
    # n N D P G H x g h z
    (["n;d"], LINES), (["-n", "n;p"], LINES), (["n;d"], NOEOL), (["$!N;P;D"], LINES),
    (["N;N;D"], NUMS), (["N;P;D"], NOEOL), (["N"], LINES), (["-n", "N;p"], LINES),
    (["N;s/\\n/+/"], NUMS), (["$!N;$!D"], NUMS), (["1!G;h;$!d"], LINES), (["-n", "1!G;h;$p"], LINES),
    (["G"], LINES), (["H;$!d;x"], LINES), (["x;$G"], LINES), (["h;s/a/X/g;G"], LINES),
    (["z;s/^$/empty/"], LINES), (["-n", "H;${x;s/\\n/,/g;s/^,//;p}"], LINES),
    (["N;N;P;D"], NUMS), (["$!{N};P;D"], NUMS), (["D"], LINES), (["P"], b"a\nb\n"),
    (["N;P"], NOEOL), (["-n", "N;l"], NOEOL), (["$!N;W out.txt"], LINES),
    # q Q
    (["q"], LINES), (["2q"], LINES), (["2q5"], LINES), (["3Q7"], LINES), (["-n", "2q"], LINES),
    (["q"], NOEOL), (["$q3"], NOEOL), (["/gam/Q"], LINES), (["2{p;q}"], LINES),
    # addresses
    (["-n", "0~3p"], NUMS), (["-n", "2~3p"], NUMS), (["-n", "2~0p"], NUMS), (["-n", "5,+2p"], NUMS),
    (["-n", "5,~4p"], NUMS), (["-n", "4,~4p"], NUMS), (["-n", "0,/1/p"], NUMS), (["-n", "1,/1/p"], NUMS),
    (["-n", "0,/3/p"], NUMS), (["-n", "/2/,/4/p"], NUMS), (["-n", "/2/,+1p"], NUMS),
    (["-n", "5,3p"], NUMS), (["-n", "$!p"], NUMS), (["-n", "/1/!p"], NUMS), (["-n", "3,$p"], NUMS),
    (["-n", "\\%1%p"], NUMS), (["-n", "\\,1,p"], NUMS), (["-n", "/ALPHA/Ip"], LINES),
    (["-n", "/^b/Mp"], LINES), (["N;/^b/Md"], LINES), (["-n", "/1/,/1/p"], NUMS),
    (["-n", "2,4{=;p}"], NUMS), (["-n", "2,4!{p}"], NUMS), (["-n", "/a/ , /e/ p"], LINES),
    (["-n", "1~2{n;p}"], NUMS), (["2,5{N;N;s/\\n/,/g}"], NUMS), (["-n", "3,1p"], NUMS),
    (["-n", "/2/,3p"], NUMS), (["0,/2/d"], NUMS), (["2,4c\\\nX"], NUMS), (["$!N;2,3d"], NUMS),
    (["-n", "2,~0p"], NUMS), (["-n", "2,+0p"], NUMS), (["-n", "1,2!p;4,6!p"], NUMS),
    (["-n", "//p"], LINES), (["-n", "/a/p;//p"], LINES), (["s/a/X/;//d"], LINES),
    (["/l/s//L/g"], LINES), (["-n", "/x/I,/y/p"], LINES),
    # branching and blocks
    (["-n", ":a;N;$!ba;s/\\n/,/g;p"], LINES), (["b end;s/a/X/;:end"], LINES),
    (["/beta/b;s/a/X/g"], LINES), (["/beta/!b;s/a/X/g"], LINES), (["-n", "/a/{/l/{p}}"], LINES),
    (["{p};{p}"], b"x\n"), (["1{/a/d}"], LINES), (["-n", "{\np\n}"], LINES),
    (["-n", "/l/{s/l/L/;p;}"], LINES), (["s/a/X/;t;s/$/!/"], LINES), (["-e", ":x", "-e", "s/aa/a/;tx"], b"aaaaa\n"),
    (["-n", "$!{h;d};x;G;p"], LINES), (["-s", "-n", "$p"], b"x\n"),
    # comments, #n, separators
    (["#n\np"], LINES), (["#n"], LINES), (["-e", "#n", "-e", "p"], LINES), (["#np"], LINES),
    (["  #n\np"], LINES), (["p # comment"], LINES), (["p;# c\np"], b"x\n"), (["p ; p"], b"x\n"),
    (["-n", "p;p"], b"x\n"), (["s/a/b/ ; p"], b"a\n"), (["y/a/b/;p"], b"a\n"),
    # -z, -s, -E, -r, -u
    (["-z", "s/a/X/g"], b"a\x00ba\x00"), (["-z", "N;s/\\x00/+/"], b"a\x00b\x00"),
    (["-z", "="], b"a\x00b"), (["-z", "-n", "l"], b"a\nb\x00c"), (["-z", "$!d"], b"a\x00b\x00c"),
    (["-z", "G;H"], b"a\x00b\x00"), (["-z", "s/^/>/"], b"l1\nl2\n"),
    (["-r", "s/(a)+/X/"], LINES), (["-u", "p"], LINES), (["--posix", "p"], LINES),
    (["--regexp-extended", "s/a+/X/"], b"aaa\n"), (["--quiet", "1p"], LINES),
    (["--silent", "--expression=1p"], LINES), (["--expression", "$p", "-n"], LINES),
    (["--null-data", "s/^/X/"], b"a\x00b"), (["--line-length=5", "-n", "l"], LINES),
    (["--separate", "-n", "$p"], LINES),
    # input shapes
    (["p"], b""), (["p"], b"\n"), (["p"], b"\n\n"), (["s/^$/E/"], b"\n\nx\n\n"),
    (["s/\\r$//"], b"crlf\r\nline\r\n"), (["-n", "/\\r/p"], b"a\r\nb\n"), (["l"], b"a\r\n"),
    (["s/\\x00/NUL/"], b"a\x00b\n"), (["-n", "/\\xff/p"], MIXED), (["s/$/!/"], MIXED),
    (["="], MIXED), (["s/\\W/_/g"], MIXED), (["s/\\s/_/g"], b"a b\tc\n"),
    (["-E", "s/[[:upper:]]+/U/g"], MIXED), (["s/[[:digit:]]\\+/#/g"], b"a12b3\n"),
    (["s/é/\\U&/I"], b"\xc3\x89t\xc3\xa9\n"), (["s/ÉT/x/I"], b"\xc3\xa9t\xc3\xa9\n"),
    # memory-style uses
    (["-n", "/pricing/p"], CONV), (["s/concise/detailed/"], CONV), (["-n", "/\"role\": \"user\"/="], CONV),
    (["-E", "s/\"(role)\": \"([a-z]+)\"/\\1=\\2/"], CONV), (["-n", "$p"], CONV),
    (["s/budget/B/2"], CONV), (["-n", "2{p;q}"], CONV),
    # errors (status 1, GNU's wording)
    (["s/a/b"], b"x\n"), (["s/a"], b"x\n"), (["s"], b"x\n"), (["k"], b"x\n"), (["}"], b"x\n"),
    (["{"], b"x\n"), (["1,p"], b"x\n"), (["1!!p"], b"x\n"), (["s/a/b/gg"], b"x\n"),
    (["s/a/b/pp"], b"x\n"), (["s/a/b/0"], b"x\n"), (["s/a/b/1/2"], b"x\n"), (["s/a/b/3g3"], b"x\n"),
    (["s/a/b/x"], b"x\n"), (["y/ab/c/"], b"x\n"), (["y/a/b"], b"x\n"), (["y/a/b/g"], b"x\n"),
    (["a"], b"x\n"), (["b nowhere"], b"x\n"), ([":"], b"x\n"), (["1:a"], b"x\n"), (["1}"], b"x\n"),
    (["0p"], b"x\n"), (["0,5p"], b"x\n"), (["+1p"], b"x\n"), (["~1p"], b"x\n"), (["1,2q"], b"x\n"),
    (["r"], b"x\n"), (["w"], b"x\n"), (["s/\\(a\\)/\\2/"], b"x\n"), (["s/a/\\1/"], b"x\n"),
    (["/a"], b"x\n"), (["\\%a"], b"x\n"), (["s/\\(/x/"], b"x\n"), (["-E", "s/(/x/"], b"x\n"),
    (["s/a\\{2/x/"], b"x\n"), (["s/[a/x/"], b"x\n"), (["p;p}"], b"x\n"), (["1{p}p"], b"x\n"),
    (["dp"], b"x\n"), (["q q"], b"x\n"), (["qx"], b"x\n"), (["-n"], b"x\n"), ([], b"x\n"),
    (["-k", "p"], b"x\n"), (["--bogus", "p"], b"x\n"), (["-e"], b"x\n"), (["//p"], b"x\n"),
    (["s//x/"], b"x\n"), (["s//x/I"], b"x\n"), (["//Mp"], b"x\n"), (["v 9.0"], b"x\n"),
    (["v 4.2"], b"x\n"), (["-e", "p", "-e", "1{"], b"x\n"), (["s/a/b/w"], b"x\n"),
    (["y/abc/xyz/;s/x/q/;p}"], b"x\n"), (["-e", "1{", "-e", "p", "-e", "}"], b"x\n"),
    (["--posix", "s/a/b/I"], b"x\n"), (["--posix", "a foo"], b"x\n"), (["s/\\c\\/x/"], b"x\n"),
    (["L"], b"x\n"), (["-i", "p"], b"x\n"), (["-l", "x", "-n", "l"], b"abc\n"), (["--version-x"], b""),
    (["-s"], b"x\n"), (["--follow-symlinks", "p"], b"x\n"), (["-b", "p"], b"x\n"),
    (["-e", "s/(a)/[\\1]/", "-E"], b"a\n"), (["-E", "-e", "s/(a)/[\\1]/"], b"a\n"),
    (["s/(a)/[\\1]/", "-E"], b"a\n"), (["-e", "N;s/a$/X/M", "-z"], b"a\nb\n"),
    (["-z", "-e", "N;s/a$/X/M"], b"a\nb\n"), (["--sandbox", "w x"], b"a\n"), (["--sandbox", "r x"], b"a\n"),
    (["--sandbox", "s/a/b/w x"], b"a\n"),
    (["--sandbox", "p"], b"a\n"), (["s/a/b/;s//c/"], b"aaa\n"), (["-n", "/a/{//p}"], b"a\nb\n"), (["s/a*/x/2"], b"baaac\n"),
    (["s/\\(a\\)\\|\\(b\\)/[\\2]/g"], b"abc\n"), (["-E", "s/(a)|(b)/[\\2\\1]/g"], b"abc\n"),
    (["s/[/]/X/"], b"a/b\n"), (["s/[^/]/X/g"], b"a/b\n"), (["s/[]/]/X/g"], b"a]/b\n"),
    (["s/[[:alpha:]/]/X/g"], b"a:b/\n"), (["s/[[:alp/X/g"], b"x\n"), (["s/[[.:.]/]/X/g"], b"a:b\n"),
    (["y/[]/xy/"], b"a]b[\n"), (["-n", "/[/]/p"], b"a/b\nc\n"), (["s/[\\n]/X/g"], b"anb\n"),
    (["s/[\\/]/X/g"], b"a\\b/\n"), (["-s", "x"], b"x\n"),
]

# (args, stdin, files): file operations
_WITH_FILES: list[tuple[list[str], bytes]] = [
    (["p", "a.txt", "b.txt"], b""), (["-n", "$p", "a.txt", "b.txt"], b""),
    (["-s", "-n", "$p", "a.txt", "b.txt"], b""), (["-s", "1d", "a.txt", "b.txt"], b""),
    (["-n", "=", "a.txt", "c.txt", "b.txt"], b""), (["-s", "-n", "$=", "a.txt", "c.txt"], b""),
    (["p", "c.txt", "b.txt"], b""), (["p", "missing.txt"], b""), (["p", "a.txt", "missing.txt", "b.txt"], b""),
    (["F", "a.txt", "-", "b.txt"], b"in\n"), (["-s", "F", "a.txt", "b.txt"], b""),
    (["-n", "$p", "a.txt", "empty.txt"], b""), (["$d", "a.txt", "empty.txt", "empty.txt"], b""),
    (["-i", "s/a/X/", "a.txt"], b""), (["-i", "1d", "a.txt", "b.txt"], b""),
    (["-i.bak", "s/1/one/", "a.txt"], b""), (["--in-place=.orig", "s/b/B/", "b.txt"], b""),
    (["-i", "$a\\\nlast", "c.txt"], b""), (["-i", "-n", "2p", "a.txt"], b""),
    (["-i", "2q", "a.txt"], b""), (["-i", "s/concise/detailed/", "core.md"], b""),
    (["-i", "p", "missing.txt", "a.txt"], b""), (["-i", "$=", "a.txt", "b.txt"], b""),
    (["-i", "-s", "F", "a.txt"], b""), (["-n", "-i", "w out.txt", "a.txt"], b""),
    (["-i", "1i\\\ntop", "empty.txt", "b.txt"], b""), (["-E", "-i", "s/(.)1/\\1X/", "a.txt"], b""),
    (["r b.txt", "a.txt"], b""), (["2r b.txt", "a.txt"], b""), (["r missing.txt", "a.txt"], b""),
    (["r c.txt"], b"x\ny\n"), (["$r b.txt"], b"x\ny"), (["R b.txt", "a.txt"], b""),
    (["R c.txt", "a.txt"], b""), (["1R b.txt\n1R b.txt", "a.txt"], b""),
    (["w out.txt", "a.txt"], b""), (["-n", "/2/w out.txt", "a.txt"], b""),
    (["w out.txt"], b"no\neol"), (["W out.txt"], b"x\ny\n"), (["-n", "N;W out.txt"], b"1\n2\n3\n4\n"),
    (["-n", "w /dev/stdout"], b"a\nb"), (["p;w /dev/stdout"], b"a\nb"),
    (["s/1/X/w /dev/stdout", "a.txt"], b""), (["w out1.txt\ns/a/b/w out2.txt", "a.txt"], b""),
    (["-n", "1w out.txt\n$w out.txt", "a.txt"], b""), (["-n", "w out.txt", "empty.txt"], b""),
    (["-f", "script.sed", "a.txt"], b""), (["-n", "-f", "script.sed", "-e", "p", "a.txt"], b""),
    (["-f", "bad.sed", "a.txt"], b""), (["-f", "missing.sed"], b"x\n"), (["-f", "quiet.sed", "a.txt"], b""),
    (["a\\", "a.txt"], b""), (["-s", "2,3p", "a.txt", "b.txt"], b""),
    (["-s", "/1/,/2/d", "a.txt", "b.txt"], b""), (["/a3/,/b1/d", "a.txt", "b.txt"], b""),
    (["-s", "0,/2/d", "a.txt", "b.txt"], b""), (["-s", "$!N;s/\\n/+/", "a.txt", "b.txt"], b""),
    (["N;N;N", "a.txt", "b.txt"], b""), (["-s", "N;N", "a.txt", "b.txt"], b""),
    (["-n", "/2/{R b.txt\np}", "a.txt"], b""), (["r /dev/stdin", "c.txt"], b"in1\nin2\n"),
    (["1h;1!H;$!d;x", "a.txt", "b.txt"], b""), (["-s", "1h;1!H;$!d;x", "a.txt", "b.txt"], b""),
    (["-i", "x", "a.txt", "b.txt"], b""), (["-i", "-e", "1{h;d};$G", "a.txt", "b.txt"], b""),
]

EXTRA_FILES = {"script.sed": b"s/a/A/\n# comment\n2d\n", "bad.sed": b"p\ns/x/\n",
               "quiet.sed": b"#n\n$p\n"}


def cases() -> list[Case]:
    """Every corpus case."""
    out = [Case(args, stdin) for args, stdin in _SIMPLE]
    files = dict(FILES)
    files.update(EXTRA_FILES)
    out += [Case(args, stdin, dict(files)) for args, stdin in _WITH_FILES]
    return out

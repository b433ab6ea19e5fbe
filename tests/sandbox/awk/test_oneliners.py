"""awk one-liners as people (and models) write them, each compared with gawk: stdout, exit
status and files written (stderr too for syntax errors)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import awk_support as S  # noqa: E402

NOTES = (b"# Notes\n\n2026-01-03: bought coffee beans\n2026-01-05: meeting with Ana: budget\n"
         b"2025-12-30: old note\n- todo: call Bob\n2026-02-01: pricing review: 3 items\n\n"
         b"2026-02-14: deadline moved: Friday\n")
CORE = b"# Core\nuser prefers metric\nuser prefers metric\nname: Sam\nname: Sam\ntz: UTC\n\n"
CSV = (b"name,dept,salary,age\nana,eng,120,31\nbob,ops,80,45\ncy,eng,95,28\n"
       b"dee,sales,70,39\neve,ops,88,52\n")
TABLE = (b"abc def ghi 5\nghi jkl mno 10\nmno pqr stu 15\nstu vwx abc 20\n")
JSONL = (b'{"role": "user", "content": "hello budget", "timestamp": "2026-01-01T10:00:00Z"}\n'
         b'{"role": "assistant", "content": "hi there", "timestamp": "2026-01-01T10:00:05Z"}\n'
         b'{"role": "user", "content": "pricing?", "timestamp": "2026-01-02T09:00:00Z"}\n')
NUMS = b"10\n20\n3\n-4.5\n1e3\n0x10\n 7 \nabc\n\n12abc\n"
WORDS = b"the quick brown fox\njumps over the lazy dog\nthe end\n"
FILES = {"notes.md": NOTES, "core.md": CORE, "data.csv": CSV, "table.txt": TABLE,
         "conv.jsonl": JSONL, "nums.txt": NUMS, "words.txt": WORDS,
         "a.txt": b"1 one\n2 two\n3 three\n", "b.txt": b"2 zwei\n3 drei\n4 vier\n",
         "crlf.txt": b"a,b\r\nc,d\r\n", "uni.txt": "héllo wörld\nñandú 🙂 x\n".encode(),
         "lines.txt": b"".join(b"line %d\n" % i for i in range(1, 31))}

CASES = [
    # field extraction
    ["-F: ", "/^2026-/{print $1}", "notes.md"],
    ["-F", ": ", "/^2026-/{print $2}", "notes.md"],
    ["{print $1}", "table.txt"],
    ["{print $NF}", "table.txt"],
    ["{print $(NF-1)}", "table.txt"],
    ["{print $2, $1}", "table.txt"],
    ["-F,", "{print $2}", "data.csv"],
    ["-F,", "NR>1{print $1 \"\\t\" $3}", "data.csv"],
    ["-F,", "-v", "OFS=;", "{print $1, $3}", "data.csv"],
    ["BEGIN{FS=\",\"; OFS=\"|\"} {$1=$1; print}", "data.csv"],
    ["-F,", "{print NF}", "data.csv"],
    ["{print NR\": \"$0}", "words.txt"],
    ["{print length($0)}", "words.txt"],
    ["{print length}", "uni.txt"],
    ["{print toupper($0)}", "uni.txt"],
    ["{print substr($0, 2, 3)}", "uni.txt"],
    ["-F'\"'", "{print $4}", "conv.jsonl"],
    ["-F\"", "{print $8}", "conv.jsonl"],
    ["-F'[:,]'", "{print $2}", "conv.jsonl"],
    ["-F", "\"content\": \"", "{split($2, a, \"\\\"\"); print a[1]}", "conv.jsonl"],
    ["{print $1 > \"out.txt\"} END{close(\"out.txt\"); while ((getline l < \"out.txt\") > 0) print \"got\", l}", "table.txt"],
    # sums, counts, averages
    ["{s += $4} END {print s}", "table.txt"],
    ["{s += $4} END {print s/NR}", "table.txt"],
    ["-F,", "NR>1{s+=$3; n++} END{print s, n, s/n}", "data.csv"],
    ["-F,", "NR>1{a[$2]+=$3} END{for (k in a) print k, a[k]}", "data.csv"],
    ["-F,", "NR>1{c[$2]++} END{for (k in c) print k, c[k]}", "data.csv"],
    ["END{print NR}", "lines.txt"],
    ["/the/{n++} END{print n+0}", "words.txt"],
    ["/zzz/{n++} END{print n+0}", "words.txt"],
    ["/zzz/{n++} END{print n}", "words.txt"],
    ["{w += NF} END{print w}", "words.txt"],
    ["{c += length($0) + 1} END{print c}", "words.txt"],
    ["{s += $1} END{print s}", "nums.txt"],
    ["{print $1+0}", "nums.txt"],
    ["{print ($1 > 5) ? \"big\" : \"small\"}", "nums.txt"],
    ["$1 > 5", "nums.txt"],
    ["$1 == 10 || $1 == \"abc\"", "nums.txt"],
    ["{max = ($1 > max) ? $1 : max} END{print max}", "nums.txt"],
    ["NR==1{min=$1} $1<min{min=$1} END{print min}", "nums.txt"],
    ["{sum[NR%2]+=$1} END{print sum[0], sum[1]}", "nums.txt"],
    # dedupe
    ["!seen[$0]++", "core.md"],
    ["!a[$0]++{print}", "core.md"],
    ["!seen[$1]++{print $1}", "table.txt"],
    ["{ if (!($0 in seen)) { seen[$0]; print } }", "core.md"],
    ["NF && !seen[$0]++", "core.md"],
    # ranges and line numbers
    ["NR>=10 && NR<=20", "lines.txt"],
    ["NR==5", "lines.txt"],
    ["NR==5{print; exit}", "lines.txt"],
    ["NR%10==0", "lines.txt"],
    ["NR>25", "lines.txt"],
    ["FNR<=2", "a.txt", "b.txt"],
    ["/line 3/,/line 5/", "lines.txt"],
    ["/^# Core/,/^$/", "core.md"],
    ["/2026-01/,/2026-02/{print NR\": \"$0}", "notes.md"],
    ["NR==2,NR==4{print FNR, $0}", "lines.txt"],
    ["END{print $0}", "lines.txt"],
    ["{last=$0} END{print last}", "lines.txt"],
    ["{a[NR]=$0} END{for(i=NR;i>0;i--) print a[i]}", "a.txt"],
    # joining two files
    ["NR==FNR{a[$1]=$2; next} $1 in a{print $0, a[$1]}", "a.txt", "b.txt"],
    ["NR==FNR{a[$1]; next} !($1 in a)", "a.txt", "b.txt"],
    ["FNR==1{print \"==\", FILENAME} {print}", "a.txt", "b.txt"],
    ["{print FILENAME, FNR, NR}", "a.txt", "b.txt"],
    ["ENDFILE{print FILENAME, FNR}", "a.txt", "b.txt"],
    ["BEGINFILE{print \"start\", FILENAME}", "a.txt", "b.txt"],
    ["FNR==2{nextfile} {print}", "a.txt", "b.txt"],
    # reformatting
    ["{printf \"%-6s|%5s|\\n\", $1, $4}", "table.txt"],
    ["{printf \"%s%s\", (NR>1?\",\":\"\"), $1} END{print \"\"}", "table.txt"],
    ["BEGIN{ORS=\" \"} {print $1} END{printf \"\\n\"}", "table.txt"],
    ["BEGIN{OFS=\"-\"} {$1=$1} 1", "table.txt"],
    ["{$2=\"\"; print}", "table.txt"],
    ["{$5=\"new\"; print; print NF}", "table.txt"],
    ["{NF=2; print}", "table.txt"],
    ["{NF=6; $1=$1; print}", "table.txt"],
    ["{print $1, $2 > \"/dev/stderr\"}", "a.txt"],
    ["{print > ($1 \".out\")}", "a.txt"],
    ["{print >> \"app.txt\"}", "a.txt"],
    ["{gsub(/o/, \"0\"); print}", "words.txt"],
    ["{sub(/the/, \"THE\"); print}", "words.txt"],
    ["{n = gsub(/the/, \"&&\"); print n, $0}", "words.txt"],
    ["{gsub(/[[:space:]]+/, \" \"); print}", "words.txt"],
    ["{print gensub(/([a-z]+) ([a-z]+)/, \"\\\\2 \\\\1\", \"g\")}", "words.txt"],
    ["{print gensub(/o/, \"0\", 2)}", "words.txt"],
    ["{gsub(/\\r/, \"\"); print $2}", "-F,", "crlf.txt"],
    ["-F,", "{print $2}", "crlf.txt"],
    ["{sub(/\\r$/, \"\")} {print length($0)}", "crlf.txt"],
    ["{for (i=NF; i>0; i--) printf \"%s%s\", $i, (i>1 ? OFS : ORS)}", "words.txt"],
    ["{for (i=1; i<=NF; i++) w[$i]++} END{for (k in w) print w[k], k}", "words.txt"],
    ["{for (i=1;i<=NF;i++) if (length($i) > 4) print $i}", "words.txt"],
    ["BEGIN{while ((getline line < \"a.txt\") > 0) n++; print n}"],
    ["BEGIN{RS=\"\"} {print NR\": \"$1}", "notes.md"],
    ["BEGIN{RS=\"\"; FS=\"\\n\"} {print NF, $1}", "notes.md"],
    ["BEGIN{RS=\";\"} {print NR, $0}"],
    ["BEGIN{RS=\"[0-9]+\"} {print NR, $0, RT}", "a.txt"],
    ["BEGIN{FS=\"\"} {print $1, $NF, NF}", "uni.txt"],
    ["{print index($0, \"o\")}", "uni.txt"],
    ["{print match($0, /o+/), RSTART, RLENGTH}", "words.txt"],
    ["match($0, /[0-9]+-[0-9]+/) {print substr($0, RSTART, RLENGTH)}", "notes.md"],
    ["{if (match($0, /(2026)-([0-9]+)/, m)) print m[1], m[2]}", "notes.md"],
    ["{split($0, a, \":\"); print a[1]}", "notes.md"],
    ["{n = split($0, a, /[ :]+/); print n, a[n]}", "notes.md"],
    ["BEGIN{n=split(\"c b a\", x); asort(x); for(i=1;i<=n;i++) print x[i]}"],
    ["BEGIN{a[\"z\"]=1;a[\"y\"]=2;a[\"x\"]=3; n=asorti(a, b); for(i=1;i<=n;i++) print b[i]}"],
    ["BEGIN{PROCINFO[\"sorted_in\"]=\"@ind_str_asc\"} {c[$1]++} END{for (k in c) print k, c[k]}", "words.txt"],
    ["BEGIN{PROCINFO[\"sorted_in\"]=\"@val_num_desc\"} -F, NR>1{s[$1]=$3} END{for (k in s) print k, s[k]}", "data.csv"],
    # numbers and formatting
    ["BEGIN{print 1/3, 2^10, 2**3, 7%3, -7%3, int(3.9), int(-3.9)}"],
    ["BEGIN{print 1e6, 1e16, 1e17, 123456789012345678, 0.1+0.2, 100/3}"],
    ["BEGIN{x = 0.1; CONVFMT=\"%.2f\"; y = x \"\"; print y; OFMT=\"%.3f\"; print x, 3.14159}"],
    ["BEGIN{printf \"%d %i %o %x %X %u %c %e %f %g %s %%\\n\", 42.7, -3, 8, 255, 255, 7, 65, 1234.5, 2.5, 0.0001, \"str\"}"],
    ["BEGIN{printf \"[%5d][%-5d][%05d][%+d][% d][%.3d]\\n\", 42, 42, 42, 42, 42, 42}"],
    ["BEGIN{printf \"[%10.3f][%-10.2e][%G][%#o][%#x]\\n\", 3.14159, 31415.9, 1e-10, 8, 255}"],
    ["BEGIN{printf \"[%s][%10s][%-10s][%.2s]\\n\", \"abc\", \"abc\", \"abc\", \"abc\"}"],
    ["BEGIN{printf \"%*d|%-*d|%.*f\\n\", 6, 1, 6, 2, 2, 3.14159}"],
    ["BEGIN{printf \"%c%c%c\\n\", \"hello\", 256, 9786}"],
    ["BEGIN{x = sprintf(\"%05.1f\", 3.14159); print x, length(x)}"],
    ["BEGIN{print -0, 0 * -1, -0.0 \"\", 1e308*10, -1e308*10, log(-1)}"],
    ["BEGIN{print substr(\"hello\", 0), substr(\"hello\", -1, 3), substr(\"hello\", 2, 100), substr(\"hello\", 1.5, 2.3)}"],
    ["BEGIN{print index(\"abc\", \"\"), index(\"\", \"a\"), length(\"\"), length(12345), length(1/3)}"],
    ["BEGIN{print toupper(\"abc\") tolower(\"ÀÉÎ\"), toupper(\"ñ\")}"],
    ["BEGIN{print and(12, 10), or(12, 10), xor(12, 10), lshift(1, 40), rshift(1024, 3), compl(0) > 0}"],
    ["BEGIN{print strtonum(\"0x1A\"), strtonum(\"017\"), strtonum(\"12abc\"), \"0x1A\" + 0}"],
    ["BEGIN{srand(1); print rand(); print rand(); srand(42); print int(rand()*100)}"],
    ["BEGIN{print srand(5), srand(7), srand()}"],
    ["BEGIN{print strftime(\"%Y-%m-%d %H:%M:%S\", 0), strftime(\"%d/%m/%Y\", 86400*365)}"],
    ["BEGIN{print mktime(\"2026 01 15 12 30 00\"), mktime(\"1970 01 01 00 00 00\")}"],
    ["BEGIN{t = mktime(\"2026 03 01 00 00 00\"); print strftime(\"%A %B %j\", t)}"],
    ["BEGIN{print length(ENVIRON[\"HOME\"]) >= 0}"],
    ["BEGIN{print 10 < 9, \"10\" < \"9\", 10 < \"9\", \"a\" < \"b\", \"\" < \"a\"}"],
    ["{print ($1 < $2)}"],
    ["BEGIN{x; print x == 0, x == \"\", length(x)}"],
    ["BEGIN{print 1 == 1.0, \"1\" == 1, \"1.0\" == 1, \"abc\" ~ /b/, \"abc\" ~ \"^a\"}"],
    ["BEGIN{a = \"10\"; b = 9; print (a < b), (a+0 < b)}"],
    ["BEGIN{print 2^53 + 1, 2^31, -2^63, 1e300*1e300}"],
    ["BEGIN{n = split(\"a:b:c\", arr, \":\"); print n, arr[1] arr[3]; delete arr; print length(arr)}"],
    ["BEGIN{a[1,2] = 3; for (k in a) { split(k, p, SUBSEP); print p[1], p[2] }; print ((1,2) in a)}"],
    ["BEGIN{s = \"a.b.c\"; gsub(\".\", \"-\", s); print s; t = \"a.b.c\"; gsub(/\\./, \"-\", t); print t}"],
    ["BEGIN{s = \"aaa\"; print gsub(/a*/, \"-\", s), s}"],
    ["BEGIN{s = \"abc\"; gsub(/x*/, \"-\", s); print s}"],
    ["BEGIN{s = \"hello\"; sub(/l+/, \"[&]\", s); print s; sub(/\\[/, \"\\\\&\", s); print s}"],
    ["BEGIN{s = \"foo bar\"; print gensub(/(o+)/, \"<\\\\1>\", \"g\", s), s}"],
    ["BEGIN { if (!(3 in a)) print \"no\"; a[3]; if (3 in a) print \"yes\"; print length(a) }"],
    ["BEGIN { print length(\"x\" 1 2), 1 \" \" 2, 1 2, -1 \" \" -2 }"],
    ["BEGIN { x = 5; x += 2; x -= 1; x *= 3; x /= 2; x %= 4; x ^= 3; print x }"],
    ["BEGIN { i = 5; print i++ + ++i, i--, --i, i }"],
    ["BEGIN { print !0, !1, !\"\", !\"a\", !x, - -3 }"],
    ["BEGIN { print 1 - -1, 2 ^ -1, -2 ^ 2, 2 ^ 3 ^ 2 }"],
    ["BEGIN { a = \"x\"; b = a++; print a, b }"],
    ["BEGIN { print \"str\" ++i }"],
    ["BEGIN { $0 = \"a b c\"; print NF, $2; $3 = \"\"; print NF \"|\" $0 \"|\" }"],
    ["BEGIN { $0 = \"  lead  trail  \"; print NF, \"[\" $1 \"]\"; $1 = $1; print \"[\" $0 \"]\" }"],
    ["BEGIN { print length() }"],
    ["BEGIN { while (i < 3) { i++; if (i == 2) continue; print i } }"],
    ["BEGIN { do { j++ } while (j < 5); print j }"],
    ["BEGIN { for (;;) { k++; if (k > 3) break }; print k }"],
    ["function f(n) { return n <= 1 ? 1 : n * f(n-1) } BEGIN { print f(10), f(20) }"],
    ["function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } BEGIN { print fib(20) }"],
    ["function fill(arr, n,  i) { for (i = 1; i <= n; i++) arr[i] = i*i } BEGIN { fill(sq, 5); print sq[3], length(sq) }"],
    ["function g(x) { x = x \"!\"; return x } BEGIN { y = \"hi\"; print g(y), y }"],
    ["func h(a,b) { return a+b } BEGIN { print h(1,2), h(1) }"],
    ["function noret() { } BEGIN { x = noret(); print \"[\" x \"]\", length(x) }"],
    ["BEGIN { exit 3 } END { print \"end ran\" }"],
    ["BEGIN { exit } END { print NR }"],
    ["{ exit 5 } END { print \"end\", NR }", "a.txt"],
    ["BEGIN { printf \"a\\tb\\\\c\\\"d\\101\\x42\\n\" }"],
    ["BEGIN { print \"a\" \"b\" > \"/dev/stdout\" }"],
    ["BEGIN { print substr(\"héllo wörld\", 2, 4), index(\"héllo\", \"l\"), length(\"ñandú\") }"],
    ["BEGIN { \"echo hi\" | getline x; print \"got\", x }"],
    ["{ print $1; next; print \"never\" }", "a.txt"],
    ["BEGIN { getline; print \"first:\", $0; getline x; print \"second:\", x, NR }", "a.txt"],
    ["NR == 1 { while ((getline nxt) > 0) last = nxt; print \"last:\", last, NR }", "a.txt"],
    ["BEGIN { x[\"a\"] = 1; delete x[\"a\"]; print length(x), (\"a\" in x) }"],
    ["BEGIN { s = sprintf(\"%s-%s\", \"a\"); print s }"],
    ["BEGIN { print typeof(1), typeof(\"s\"), typeof(x); a[1]; print typeof(a), typeof(a[1]) }"],
    ["{ print typeof($1) }", "nums.txt"],
    ["BEGIN { IGNORECASE = 1 } /THE/ { n++ } END { print n }", "words.txt"],
    ["BEGIN { print \"A\" == \"a\"; IGNORECASE = 1; print \"A\" == \"a\", index(\"ABC\", \"b\") }"],
    ["/\\<the\\>/", "words.txt"],
    ["/\\yfox\\y/ || /^ju/", "words.txt"],
    ["/[[:upper:]]/ { print \"upper:\", $0 }", "notes.md"],
    ["/^[0-9]{4}-[0-9]{2}/", "notes.md"],
    ["$0 ~ \"budget|pricing\"", "notes.md"],
    ["$2 ~ /^(one|three)$/", "a.txt"],
    ["!/^#/ && NF", "notes.md"],
    ["length > 20", "notes.md"],
    ["length($0) < 5", "notes.md"],
    ["BEGIN { printf \"%s\\n\", 1e300 * 1e300; printf \"%d\\n\", \"1e3\"; printf \"%.0f %.0f\\n\", 0.5, 1.5 }"],
    ["BEGIN { CONVFMT = \"%d\"; a[1.5] = 1; for (k in a) print k }"],
    ["BEGIN { a[01] = 1; a[\"01\"] = 2; a[1] = 3; n = 0; for (k in a) n++; print n, a[1], a[\"01\"] }"],
    ["{ $0 = tolower($0); print $2 }", "table.txt"],
    ["{ $3 = $3 * 2 } 1", "a.txt"],
    ["-v", "n=2", "NR==n", "lines.txt"],
    ["-v", "s=a\\tb", "BEGIN { print s, length(s) }"],
    ["{ print v, $1 }", "v=1", "a.txt", "v=2", "b.txt"],
    ["BEGIN { print ARGC; for (i = 0; i < ARGC; i++) print i, ARGV[i] }", "x", "y=1", "z"],
    ["BEGIN { ARGV[1] = \"b.txt\" } { print }", "a.txt"],
    ["BEGIN { ARGV[2] = \"b.txt\"; ARGC = 3 } { print FILENAME, $1 }", "a.txt"],
    ["{ print }", "-"],
    ["-f", "prog.awk", "a.txt"],
    ["-e", "BEGIN { x = 1 }", "-e", "{ print x, $2 }", "a.txt"],
]

STDIN = b"alpha 1\nbeta 2\ngamma 3\n"
PROG_FILE = {"prog.awk": b"# a program file\n{ total += $1 }\nEND {\n  print \"total\", total\n}\n"}


def _ids(case):
    return " ".join(case)[:80]


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_oneliner(case) -> None:
    S.need_gawk()
    files = {**FILES, **PROG_FILE}
    S.compare(list(case), stdin=STDIN, files=files)


SYNTAX = [
    "BEGIN { x = }", "BEGIN { print length( }", "{ print $1", "BEGIN { x = = 1 }",
    "BEGIN { print \"abc }", "BEGIN { x = 1 +* 2 }", "BEGIN { if (1) break }",
    "BEGIN { if (1) continue }", "{ print $1 }}", "BEGIN { a[1 }", "BEGIN { f( }",
    "function f(a, a) { }", "BEGIN { getline < }", "/abc", "BEGIN { printf }",
    "BEGIN {\n  x = 1 +\n}\n", "BEGIN { return 1 }", "BEGIN { next }", "END { next }",
    "BEGIN", "BEGIN { for (i = 0; i < 3; i++ }", "{ print > }",
]


@pytest.mark.parametrize("prog", SYNTAX, ids=repr)
def test_syntax_error(prog) -> None:
    S.need_gawk()
    S.compare([prog], check_stderr=True)


RUNTIME = [
    "BEGIN { print 1/0 }", "BEGIN { printf \"%d %d\\n\", 1 }", "BEGIN { f(1) }",
    "function f(x) { x[1] = 1 } BEGIN { f(1) }", "BEGIN { x[1] = 1; print x }",
    "BEGIN { x = 1; x[1] = 2 }", "BEGIN { print 5 % 0 }",
]


@pytest.mark.parametrize("prog", RUNTIME, ids=repr)
def test_runtime_error(prog) -> None:
    S.need_gawk()
    S.compare([prog], check_stderr=True)


def test_count() -> None:
    assert len(CASES) >= 150

"""jq 1.8 behaviour that jq's own test suite (../shared/conformance) does not pin down: each
expectation names the part of jq 1.8's source (or of Oniguruma, which jq 1.8 links) that
decides it. The values were also checked against libjq 1.8.2 while writing these tests; the
test suite itself needs no reference jq.
"""

from __future__ import annotations

import json

import pytest

from sandbox.commands.testing import run_command


def jq(args: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    code, out, err = run_command(["jq", *args], stdin=stdin)
    return code, out.decode(), err.decode()


def outputs(program: str, value: object = None) -> list:
    """The outputs of ``program`` on one input (compact JSON, one a line)."""
    if value is None:
        code, out, err = jq(["-nc", program])
    else:
        code, out, err = jq(["-c", program], json.dumps(value).encode())
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def error(program: str, value: object = None) -> str:
    """The message of the error ``program`` stops with."""
    if value is None:
        code, out, err = jq(["-nc", program])
    else:
        code, out, err = jq(["-c", program], json.dumps(value).encode())
    assert code == 5, (code, out, err)
    prefix = "jq: error (at <unknown>): " if value is None else "jq: error (at <stdin>:0): "
    assert err.startswith(prefix), err
    return err[len(prefix) :].rstrip("\n")


# -- regular expressions: Oniguruma with ONIG_SYNTAX_PERL_NT (jq 1.8 src/builtin.c f_match) --

# (input, program, outputs). Oniguruma's Perl_NT syntax (regparse.c OnigSyntaxPerl_NT) has no
# ONIG_SYN_OP2_ESC_U_HEX4, ESC_H_XDIGIT, ESC_V_VTAB nor CCLASS_SET_OP: \u, \h, \v are letters,
# "[" and "&&" inside brackets are literal; it has ESC_X_BRACE_HEX8, ESC_O_BRACE_OCTAL,
# ESC_CAPITAL_Q_QUOTE, ESC_P_BRACE_CHAR_PROPERTY (+ CIRCUMFLEX_NOT), ESC_CAPITAL_R_GENERAL_NEWLINE,
# ESC_CAPITAL_N_O_SUPER_DOT, ESC_X_Y_TEXT_SEGMENT, ESC_CAPITAL_K_KEEP, QMARK_LT_NAMED_GROUP,
# ESC_K_NAMED_BACKREF, ESC_G_SUBEXP_CALL, QMARK_TILDE_ABSENT_GROUP, PLUS_POSSESSIVE_*.
REGEX_CASES = [
    ("A", 'test("\\\\u0041")', [False]),
    ("u0041", 'test("\\\\u0041")', [True]),
    ("h", 'test("\\\\h")', [True]),
    ("0", 'test("\\\\h")', [False]),
    ("v", 'test("\\\\v")', [True]),
    ("A", 'test("\\\\x{41}")', [True]),
    ("A", 'test("\\\\x41")', [True]),
    ("\u0006", 'test("\\\\x6")', [True]),
    ("A", 'test("\\\\101")', [True]),
    ("A", 'test("\\\\o{101}")', [True]),
    ("é", 'test("\\\\xc3\\\\xa9")', [True]),  # raw bytes make one UTF-8 character
    ("\u0001", 'test("\\\\cA")', [True]),
    ("\u001b", 'test("\\\\e")', [True]),
    ("a.b", 'test("\\\\Q.\\\\E")', [True]),
    ("ab", 'test("\\\\Q.\\\\E")', [False]),
    ("héllo wörld", '[scan("\\\\p{L}+")]', [["héllo", "wörld"]]),
    ("Hello World", '[scan("\\\\p{Lu}")]', [["H", "W"]]),
    ("a☃b", '[scan("\\\\p{So}")]', [["☃"]]),
    ("ab1", '[scan("\\\\p{^L}")]', [["1"]]),
    ("ab1", '[scan("\\\\P{L}")]', [["1"]]),
    ("A", 'test("\\\\p{l_U}")', [True]),  # names ignore case, "_" and "-"
    ("A", 'test("\\\\p{Latn}")', [True]),
    ("α я 中 あ ア ع א", '[scan("\\\\p{Greek}|\\\\p{Cyrillic}|\\\\p{Han}|\\\\p{Hiragana}|\\\\p{Katakana}|\\\\p{Arabic}|\\\\p{Hebrew}")]',
     [["α", "я", "中", "あ", "ア", "ع", "א"]]),
    ("é", 'test("\\\\p{In_Latin_1_Supplement}")', [True]),
    ("a", 'test("\\\\pL")', [False]),  # no brace: the letter p
    ("a\nb", '[scan("\\\\N")]', [["a", "b"]]),
    ("a\r\nb\nc", '[scan("\\\\R")]', [["\r\n", "\n"]]),
    ("e\u0301x", '[scan("\\\\X")]', [["e\u0301", "x"]]),
    ("ab", 'test("a\\\\Kb")', [True]),
    ("ab", '[match("a\\\\Kb").offset]', [[1]]),
    ("ab\n", 'test("b\\\\Z")', [True]),
    ("ab\n", 'test("b\\\\z")', [False]),
    ("ab1", '[scan("[[:alpha:]]")]', [["a", "b"]]),
    ("é١", '[scan("[[:alpha:]]|[[:digit:]]")]', [["é", "١"]]),
    ("$©_", '[scan("[[:punct:]]")]', [["$", "©", "_"]]),  # punct: P and S
    ("$©_", '[scan("\\\\p{Punct}")]', [["_"]]),
    ("²", 'test("\\\\w")', [True]),  # the Latin-1 ctype table's word bit
    ("²", 'test("[\\\\w]")', [False]),
    ("\u0301", 'test("\\\\w")', [True]),  # Mark is word
    ("\u001c", 'test("\\\\s")', [False]),
    ("\u0085", 'test("\\\\s")', [True]),
    # [^\u0000-\u007f] is [^u0 0-u 07f] (no \u escape): "é" and "–" are outside, "a" is in 0-u
    ("aé–b", '[scan("[^\\\\u0000-\\\\u007f]")]', [["é", "–"]]),
    ("a–—b", '[scan("[\\\\u2013\\\\u2014]")]', [[]]),
    ("u2013", '[scan("[\\\\u2013]")]', [["u", "2", "0", "1", "3"]]),
    ("a]", 'test("[a-z&&[^b]]")', [True]),  # no set operations: [a-z&[^b] then "]"
    ("]", 'test("[]a]")', [True]),
    ("aaa", '[scan("a{,2}")]', [[]]),  # {,n} is literal text in this syntax
    ("a{,2}", '[scan("a{,2}")]', [["a{,2}"]]),
    ("aaa", 'test("a*+a")', [False]),  # possessive
    ("a", 'test("a**")', [True]),
    ("ab", 'capture("(?\'x\'a)")', [{"x": "a"}]),
    ("ab", 'match("(?<x>a)(b)") | [.captures[].name]', [["x", None]]),  # CAPTURE_GROUP
    ("ab", 'capture("(?<n>a)|(?<n>b)")', [{"n": None}]),
    ("abab", 'test("(?<x>ab)\\\\g<x>")', [True]),
    ("abc", 'test("(?~abc)")', [True]),
    ("aAb", '[scan("(?i)a")]', [["a", "A"]]),
    ("aB", 'test("(?i)a(?-i)B")', [True]),
    ("ab", 'test("(?i)a(?-i)B")', [False]),
    ("a\nb", 'test("(?m)a$")', [True]),
    ("a\nb", 'test("(?s)a.b")', [True]),
    ("a\nb", 'test("a.b"; "p")', [True]),
    ("a\nb", 'test("a.b"; "s")', [False]),
    ("ß", 'test("SS"; "i")', [True]),  # full case folding
    ("a", 'test("\\\\p{Lu}"; "i")', [False]),  # a property alone does not fold ...
    ("a", 'test("[\\\\p{Lu}]"; "i")', [True]),  # ... in brackets it does
    ("aaa", '[match("a|aa"; "l").string]', [["aa"]]),
    ("αβγ", '[match(""; "g").offset]', [[0, 1, 1, 2, 2, 3, 3]]),  # the next search is a byte on
    ("αβ", 'gsub(""; "-")', ["-α--β--"]),
    ("aab", '[match("(?=b)"; "g").offset]', [[2]]),
]

@pytest.mark.parametrize("value,program,expected", REGEX_CASES)
def test_oniguruma_perl_nt_syntax(value: str, program: str, expected: list) -> None:
    assert outputs(program, value) == expected


# jq 1.8 f_match: jv_invalid_with_msg(jv_string_concat(jv_string("Regex failure: "), ebuf)),
# ebuf from onig_error_code_to_str (Oniguruma regerror.c)
REGEX_ERRORS = [
    ('"a" | test("(")', "Regex failure: end pattern with unmatched parenthesis"),
    ('"a" | test(")")', "Regex failure: unmatched close parenthesis"),
    ('"a" | test("[a")', "Regex failure: premature end of char-class"),
    ('"a" | test("[]")', "Regex failure: empty char-class"),
    ('"a" | test("[b-a]")', "Regex failure: empty range in char class"),
    ('"a" | test("[a-\\\\d]")', "Regex failure: char-class value at end of range"),
    ('"a" | test("a{2,1}")', "Regex failure: upper is smaller than lower in repeat range"),
    ('"a" | test("*")', "Regex failure: target of repeat operator is not specified"),
    ('"a" | test("^*")', "Regex failure: target of repeat operator is invalid"),
    ('"a" | test("(?=a)*")', "Regex failure: target of repeat operator is invalid"),
    ('"a" | test("\\\\")', "Regex failure: end pattern at escape"),
    ('"a" | test("(?P<x>a)")', "Regex failure: undefined group option"),
    ('"a" | test("\\\\1")', "Regex failure: invalid backref number/name"),
    ('"a" | test("\\\\k<x>")', "Regex failure: undefined name <x> reference"),
    ('"a" | test("\\\\p{Foo}")', "Regex failure: invalid character property name {Foo}"),
    ('"a" | test("\\\\p{Is_Latin}")', "Regex failure: invalid character property name {Is_Latin}"),
    ('"a" | test("[[:foo:]]")', "Regex failure: invalid POSIX bracket type"),
    ('"a" | test("(?<=a|bb)b")', "Regex failure: invalid pattern in look-behind"),
    ('"a" | test("a"; "q")', "q is not a valid modifier string"),
]


@pytest.mark.parametrize("program,message", REGEX_ERRORS)
def test_regex_errors(program: str, message: str) -> None:
    assert error(program) == message


# -- sort_by & co. on objects (jq 1.8 src/builtin.jq: def sort_by(f): _sort_by_impl(map([f]));
#    group_by, unique_by via _group_by_impl, min_by/max_by via _min_by_impl/_max_by_impl) --


def test_by_functions_map_over_object_values_first() -> None:
    # map([f]) on {"a":1}: 1 | .x, whose 1.8 message is jv_get's "Cannot index %s with %s (%s)"
    for f in ("sort_by", "group_by", "unique_by", "min_by", "max_by"):
        assert error(f'{{"a":1}} | {f}(.x)') == 'Cannot index number with string ("x")'
    # then the C impl refuses (object, keys): src/builtin.c f_sort_by_impl / f_group_by_impl
    # "cannot be sorted, as they are not both arrays"; minmax_by "cannot be iterated over"
    obj = '{"a":{"x":2},"b":{"x":1}}'
    keys = 'array ([[2],[1]])'
    assert error(f"{obj} | sort_by(.x)") == f'object ({obj}) and {keys} cannot be sorted, as they are not both arrays'
    assert error(f"{obj} | group_by(.x)") == f'object ({obj}) and {keys} cannot be sorted, as they are not both arrays'
    assert error(f"{obj} | unique_by(.x)") == f'object ({obj}) and {keys} cannot be sorted, as they are not both arrays'
    assert error(f"{obj} | min_by(.x)") == f"object ({obj}) and {keys} cannot be iterated over"
    assert error(f"{obj} | max_by(.x)") == f"object ({obj}) and {keys} cannot be iterated over"
    assert error("{} | sort_by(.)") == "object ({}) and array ([]) cannot be sorted, as they are not both arrays"
    # scalars: map's .[]
    assert error("null | sort_by(.)") == "Cannot iterate over null (null)"
    assert error('"ab" | max_by(.)') == 'Cannot iterate over string ("ab")'
    # min/max are minmax_by(x, x): type_error2 of the input twice
    assert error("null | min") == "null (null) and null (null) cannot be iterated over"
    assert error('{"a":1} | max') == 'object ({"a":1}) and object ({"a":1}) cannot be iterated over'
    assert outputs("[[1,2],[0]] | sort_by(.[])") == [[[0], [1, 2]]]


def test_cannot_iterate_names_the_value() -> None:
    # src/execute.c EACH: "Cannot iterate over %s (%s)" with jv_dump_string_trunc
    assert error("null | .[]") == "Cannot iterate over null (null)"
    assert error("1 | .[]") == "Cannot iterate over number (1)"
    for prog in ("null | add", "null | map(.)", "null | any", "null | transpose", "null | first(.[])"):
        assert error(prog) == "Cannot iterate over null (null)", prog


def test_csv_tsv_wording() -> None:
    # src/builtin.c f_format: type_error(input, "cannot be csv-formatted, only array"), the
    # tsv one likewise, and "is not valid in a csv row" for both formats
    assert error('"x" | @csv') == 'string ("x") cannot be csv-formatted, only array'
    assert error('"x" | @tsv') == 'string ("x") cannot be tsv-formatted, only array'
    assert error("[{}] | @tsv") == "object ({}) is not valid in a csv row"
    assert error("[[1]] | @csv") == "array ([1]) is not valid in a csv row"


def test_indices_of_empty() -> None:
    # src/builtin.jq def indices($i): ... _strindices($i) ...; src/jv.c jv_array_indexes
    # starts with jv_array(), and an empty needle is found nowhere
    assert outputs('"abc" | indices("")') == [[]]
    assert outputs('"abc" | index(""), rindex("")') == [None, None]
    assert outputs("[1,2] | indices([])") == [[]]
    assert outputs("[1,2] | indices([3])") == [[]]
    assert outputs('"aaa" | indices("aa")') == [[0, 1]]
    assert outputs('null | indices("a")') == [None]
    assert error("null | indices([])") == "Cannot index null with array ([])"


def test_tonumber_takes_decnumber_specials() -> None:
    # jq 1.8 f_tonumber -> jv_number_with_literal -> decNumberFromString: Inf, Infinity, NaN,
    # sNaN without regard to case; "Reject NaN with payload digits"
    assert outputs('["nan","NaN","-nan","sNaN","nan0"] | map(tonumber | isnan)') == [[True] * 5]
    assert outputs('["inf","-Infinity","+inf"] | map(tonumber | isinfinite)') == [[True] * 3]
    assert outputs('["01","+1",".5","5."] | map(tonumber)') == [[1, 1, 0.5, 5]]
    assert error('"nan1" | tonumber') == 'string ("nan1") cannot be parsed as a number'
    assert error('" 1" | tonumber') == 'string (" 1") cannot be parsed as a number'


def test_base64d_errors() -> None:
    # src/builtin.c f_format "base64d": decoding stops at the first "=", a byte outside the
    # alphabet is "is not valid base64 data", one trailing 6-bit group "trailing base64 byte found"
    assert error('"x" | @base64d') == 'string ("x") trailing base64 byte found'
    assert error('"!!!" | @base64d') == 'string ("!!!") is not valid base64 data'
    assert error('"Y=Q" | @base64d') == 'string ("Y=Q") trailing base64 byte found'
    assert outputs('"YQ==YQ", "YWI", "=" | @base64d') == ["a", "ab", ""]


# -- JSON input: jq 1.8 src/jv_parse.c ---------------------------------------------------------

PARSE_ERRORS = [
    # check_literal: case '\'': "Invalid string literal; expected \", but got '"
    (b"{'a':1}", "Invalid string literal; expected \", but got ' at line 1, column 5"),
    (b"'a'", "Invalid string literal; expected \", but got ' at EOF at line 1, column 3"),
    # found_string: a high surrogate needs a low one after it
    (b'"\\ud800"', "Invalid \\uXXXX\\uXXXX surrogate pair escape at line 1, column 8"),
    (b'"\\ud800x"', "Invalid \\uXXXX\\uXXXX surrogate pair escape at line 1, column 9"),
    (b'"\\ud800\\u0041"', "Invalid \\uXXXX\\uXXXX surrogate pair escape at line 1, column 14"),
    (b'"\\u12"', "Invalid \\uXXXX escape at line 1, column 6"),
    (b'"\\u12g4"', "Invalid characters in \\uXXXX escape at line 1, column 8"),
    (b'"\\x"', "Invalid escape at line 1, column 4"),
    (b'"a\tb"', "Invalid string: control characters from U+0000 through U+001F must be escaped at line 1, column 5"),
    # check_literal: "n" is null only with "u" second; anything else is a number
    (b"not", "Invalid numeric literal at EOF at line 1, column 3"),
    (b"nul", "Invalid literal at EOF at line 1, column 3"),
    (b"truex", "Invalid literal at EOF at line 1, column 5"),
    (b"1.2.3", "Invalid numeric literal at EOF at line 1, column 5"),
    (b"nan1", "Invalid numeric literal at EOF at line 1, column 4"),
    # parse_token
    (b"[1,]", "Expected another array element at line 1, column 4"),
    (b'{"a":1,}', "Expected another key-value pair at line 1, column 8"),
    (b"{,}", "Expected value before ',' at line 1, column 2"),
    (b'{"a"}', "Objects must consist of key:value pairs at line 1, column 5"),
    (b'{"a":}', "Unmatched '}' at line 1, column 6"),
    (b'["a":1]', "':' not as part of an object at line 1, column 5"),
    (b"{1:2}", "Object keys must be strings at line 1, column 3"),
    (b":", "Expected string key before ':' at line 1, column 1"),
    (b"[1 2]", "Expected separator between values at line 1, column 5"),
    (b'"abc', "Unfinished string at EOF at line 1, column 4"),
    (b"[1,2", "Unfinished JSON term at EOF at line 1, column 4"),
    (b"\xef\xbb1", "Malformed BOM"),
]


@pytest.mark.parametrize("stdin,message", PARSE_ERRORS)
def test_parse_errors_follow_jv_parse(stdin: bytes, message: str) -> None:
    code, out, err = jq(["-c", "."], stdin)
    assert (code, out, err) == (5, "", f"jq: parse error: {message}\n")


def test_parse_error_after_earlier_values_on_the_same_line() -> None:
    # scan(): the literal 1 is complete at "]", whose parse_token error drops it
    assert jq(["-c", "."], b"1]") == (5, "", "jq: parse error: Unmatched ']' at line 1, column 2\n")
    assert jq(["-c", "."], b'{"a":1}\n[1,\n2,x]') == (
        5, '{"a":1}\n', "jq: parse error: Invalid numeric literal at line 3, column 4\n")


def test_literals_jq_takes() -> None:
    # check_literal -> jv_number_with_literal (decNumber); a lone low surrogate is encoded
    # by jvp_utf8_encode and then replaced as invalid UTF-8 by jv_string_sized
    code, out, err = jq(["-c", "."], b'[nan, -nan, Infinity, -inf, +1, 01, .5] "\\udc00" "\\ud83d\\ude00"')
    assert code == 0, err
    assert out == '[null,null,1.7976931348623157e+308,-1.7976931348623157e+308,1,1,0.5]\n"\ufffd"\n"😀"\n'


def test_fromjson_uses_the_same_parser() -> None:
    assert error('"{\'a\': 1}" | fromjson') == (
        "Invalid string literal; expected \", but got ' at line 1, column 5 (while parsing '{'a': 1}')")
    assert error('"1 2" | fromjson') == "Unexpected extra JSON values (while parsing '1 2')"
    assert error('"" | fromjson') == "Expected JSON value (while parsing '')"
    assert outputs('"[nan]" | fromjson') == [[None]]


def test_deep_input_is_parsed_iteratively() -> None:
    # MAX_PARSING_DEPTH (10000) counts containers and pending keys
    code, out, err = jq(["-c", "[paths] | length"], b"[" * 5000 + b"]" * 5000)
    assert (code, out) == (0, "4999\n"), err
    code, out, err = jq(["-c", "."], b"[" * 10001)
    assert code == 5 and err == "jq: parse error: Exceeds depth limit for parsing at line 1, column 10001\n"


# -- --stream (src/jv_parse.c stream_token / stream_check_done) -------------------------------


def test_stream_events() -> None:
    code, out, err = jq(["-c", "--stream", "."], b'{"a":[1,{"b":2}],"c":[]} 3')
    assert code == 0, err
    assert out.splitlines() == [
        '[["a",0],1]', '[["a",1,"b"],2]', '[["a",1,"b"]]', '[["a",1]]', '[["c"],[]]', '[["c"]]', "[[],3]"]
    # the events agree with tostream, and fromstream rebuilds the values
    code, out, err = jq(["-c", "-n", "--stream", "fromstream(inputs)"], b'{"a":[1,{"b":2}]} [3]')
    assert out == '{"a":[1,{"b":2}]}\n[3]\n', err
    code, out, err = jq(["-c", "-s", "[.[] | tostream]"], b'{"a":[1,{"b":2}],"c":[]} 3')
    code2, out2, err2 = jq(["-c", "--stream", "-s", "."], b'{"a":[1,{"b":2}],"c":[]} 3')
    assert out == out2 and not err and not err2


def test_stream_events_before_an_error() -> None:
    # the streamer emits what it has read; at EOF inside [ it is "Unfinished JSON term"
    assert jq(["-c", "--stream", "."], b"[1,[2") == (
        5, "[[0],1]\n", "jq: parse error: Unfinished JSON term at EOF at line 1, column 5\n")
    # stream_token's own wording
    assert jq(["-c", "--stream", "."], b'{"a":}') == (
        5, "", "jq: parse error: Missing value in key:value pair at line 1, column 6\n")
    # --stream-errors: make_error returns JV_ARRAY(message, path) as a value, parsing ends
    assert jq(["-c", "--stream-errors", "."], b"[1,x]") == (
        0, '[[0],1]\n["Invalid numeric literal at line 1, column 5",[1]]\n', "")


def test_stream_with_slurp_and_truncate_stream() -> None:
    code, out, err = jq(["-c", "--stream", "-s", "."], b'{"a":[1,2]}')
    assert out == '[[["a",0],1],[["a",1],2],[["a",1]],[["a"]]]\n', err
    code, out, err = jq(["-c", "-n", "--stream", "fromstream(1 | truncate_stream(inputs))"], b'{"a":[1,{"b":2}]}')
    assert out == "[1,{\"b\":2}]\n", err


def test_program_string_escapes_are_read_as_json() -> None:
    # src/lexer.l: a run of escapes, (\\[^u(]|\\u[a-zA-Z0-9]{0,4})+, is one QQSTRING_TEXT
    # token whose value is jv_parse_sized("\"" + run + "\"")
    code, out, err = jq(["-n", '"x\\ud800y"'])
    assert code == 3 and err.startswith(
        "jq: error: Invalid \\uXXXX\\uXXXX surrogate pair escape at line 1, column 8 (while parsing '\"\\ud800\"')")
    code, out, err = jq(["-n", '"\\u12"'])
    assert code == 3 and "Invalid \\uXXXX escape at line 1, column 6 (while parsing '\"\\u12\"')" in err
    assert outputs('"\\udc00", "\\ud83d\\ude00", "a\\n\\u00e9\\(1)"') == ["\ufffd", "😀", "a\né1"]

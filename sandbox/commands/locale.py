"""``locale``: print the locale settings (glibc 2.36's ``locale``) of the jail, whose only locale
is C.UTF-8.

Without operands: glibc's ``LANG=``/``LC_*=`` listing computed from the script's environment
(``LC_ALL`` counts as ``C.UTF-8`` when the environment does not set it, which is the locale the
jail runs in). ``-a``: ``C``, ``C.utf8``, ``POSIX`` as on this machine. ``NAME...``: a
category (``LC_CTYPE``) prints each of its keywords' values, a keyword (``charmap``) its
value; ``-k`` adds ``name=``, ``-c`` the category's name; the values are C.UTF-8's, embedded
from this machine's glibc. An unknown name is ``locale: unknown name "x"`` (exit 1). ``-m``
(the charmap list) is refused in one line; ``-v`` is accepted and changes nothing; an
unknown locale named in the environment is not warned about.
"""

from __future__ import annotations

from sandbox.commands._argp import argp_error, argp_info
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, UsageError, parse

SPEC = OptionSpec(
    short="amckv?V",
    long={
        "all-locales": (NO_ARG, "a"),
        "charmaps": (NO_ARG, "m"),
        "category-name": (NO_ARG, "c"),
        "keyword-name": (NO_ARG, "k"),
        "verbose": (NO_ARG, "v"),
        "help": (NO_ARG, "?"),
        "usage": (NO_ARG, "usage"),
        "version": (NO_ARG, "V"),
    },
)

HELP = """Usage: locale [OPTION...] NAME
  or:  locale [OPTION...] [-a|-m]
Get locale-specific information.

 System information:
  -a, --all-locales          Write names of available locales
  -m, --charmaps             Write names of available charmaps

 Modify output format:
  -c, --category-name        Write names of selected categories
  -k, --keyword-name         Write names of selected keywords
  -v, --verbose              Print more information

  -?, --help                 Give this help list
      --usage                Give a short usage message
  -V, --version              Print program version

For bug reporting instructions, please see:
<http://www.debian.org/Bugs/>.
"""

USAGE = """Usage: locale [-ckv?V] [--category-name] [--keyword-name] [--verbose] [--help]
            [--usage] [--version] NAME
  or:  locale [OPTION...] [-a|-m]
"""

VERSION = """locale (Debian GLIBC 2.36-9+deb12u14) 2.36
Copyright (C) 2022 Free Software Foundation, Inc.
This is free software; see the source for copying conditions.  There is NO
warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.
Written by Ulrich Drepper.
"""

LOCALES = ["C", "C.utf8", "POSIX"]


def listing(env: dict[str, str]) -> str:
    """glibc's ``show_locale_vars`` over ``env`` (LC_ALL is C.UTF-8 unless ``env`` sets it)."""
    lcall = env.get("LC_ALL", "C.UTF-8")
    lang = env.get("LANG", "")
    out = [f"LANG={lang}", f"LANGUAGE={env.get('LANGUAGE', '')}"]
    for category in CATEGORIES:
        value = env.get(category)
        if lcall or value is None:
            out.append(f'{category}="{lcall or lang or "POSIX"}"')
        else:
            out.append(f"{category}={value}")
    out.append(f"LC_ALL={lcall}")
    return "\n".join(out) + "\n"


def run(ctx: CommandContext) -> int:
    """Run ``locale``."""
    try:
        opts, names = parse(SPEC, ctx.args)
    except UsageError as err:
        return argp_error(ctx, str(err))
    keys = [k for k, _ in opts]
    if argp_info(ctx, keys, HELP, USAGE, VERSION):
        return 0
    if "a" in keys:
        ctx.stdout.write(("\n".join(LOCALES) + "\n").encode())
        return 0
    if "m" in keys:
        ctx.error("-m (the list of charmaps) is not available in this sandbox")
        return 1
    if not names:
        ctx.stdout.write(listing(ctx.env).encode("utf-8", "surrogateescape"))
        return 0
    show_category, show_keyword = "c" in keys, "k" in keys
    for name in names:
        out: list[str] = []
        if name in CATEGORIES:
            if show_category:
                out.append(name)
            out += [k_line if show_keyword else plain for _, k_line, plain in CATEGORIES[name]]
        else:
            found = next(((category, row) for category, rows in CATEGORIES.items()
                          for row in rows if row[0] == name), None)
            if found is None:
                ctx.stderr.write(f'locale: unknown name "{name}"\n'.encode("utf-8", "surrogateescape"))
                return 1
            category, (_, k_line, plain) = found
            if show_category:
                out.append(category)
            out.append(k_line if show_keyword else plain)
        ctx.stdout.write(("\n".join(out) + "\n").encode("utf-8", "surrogateescape"))
    return 0


#: Every keyword of C.UTF-8 (glibc 2.36), per category: (keyword, ``-k`` line, plain line),
#: as this machine's ``locale -k CATEGORY`` and ``locale CATEGORY`` print them.
CATEGORIES: dict[str, list[tuple[str, str, str]]] = {
    'LC_CTYPE': [
        ('ctype-class-names', 'ctype-class-names="upper";"lower";"alpha";"digit";"xdigit";"space";"print";"graph";"blank";"cntrl";"punct";"alnum";"combining";"combining_level3"', 'upper;lower;alpha;digit;xdigit;space;print;graph;blank;cntrl;punct;alnum;combining;combining_level3'),
        ('ctype-map-names', 'ctype-map-names="toupper";"tolower";"totitle"', 'toupper;tolower;totitle'),
        ('ctype-width', 'ctype-width=16', '16'),
        ('ctype-mb-cur-max', 'ctype-mb-cur-max=6', '6'),
        ('charmap', 'charmap="UTF-8"', 'UTF-8'),
        ('ctype-class-offset', 'ctype-class-offset=72', '72'),
        ('ctype-map-offset', 'ctype-map-offset=86', '86'),
        ('ctype-indigits_mb-len', 'ctype-indigits_mb-len=1', '1'),
        ('ctype-indigits0_mb', 'ctype-indigits0_mb="0"', '0'),
        ('ctype-indigits1_mb', 'ctype-indigits1_mb="1"', '1'),
        ('ctype-indigits2_mb', 'ctype-indigits2_mb="2"', '2'),
        ('ctype-indigits3_mb', 'ctype-indigits3_mb="3"', '3'),
        ('ctype-indigits4_mb', 'ctype-indigits4_mb="4"', '4'),
        ('ctype-indigits5_mb', 'ctype-indigits5_mb="5"', '5'),
        ('ctype-indigits6_mb', 'ctype-indigits6_mb="6"', '6'),
        ('ctype-indigits7_mb', 'ctype-indigits7_mb="7"', '7'),
        ('ctype-indigits8_mb', 'ctype-indigits8_mb="8"', '8'),
        ('ctype-indigits9_mb', 'ctype-indigits9_mb="9"', '9'),
        ('ctype-indigits_wc-len', 'ctype-indigits_wc-len=1', '1'),
        ('ctype-outdigit0_mb', 'ctype-outdigit0_mb="0"', '0'),
        ('ctype-outdigit1_mb', 'ctype-outdigit1_mb="1"', '1'),
        ('ctype-outdigit2_mb', 'ctype-outdigit2_mb="2"', '2'),
        ('ctype-outdigit3_mb', 'ctype-outdigit3_mb="3"', '3'),
        ('ctype-outdigit4_mb', 'ctype-outdigit4_mb="4"', '4'),
        ('ctype-outdigit5_mb', 'ctype-outdigit5_mb="5"', '5'),
        ('ctype-outdigit6_mb', 'ctype-outdigit6_mb="6"', '6'),
        ('ctype-outdigit7_mb', 'ctype-outdigit7_mb="7"', '7'),
        ('ctype-outdigit8_mb', 'ctype-outdigit8_mb="8"', '8'),
        ('ctype-outdigit9_mb', 'ctype-outdigit9_mb="9"', '9'),
        ('ctype-outdigit0_wc', 'ctype-outdigit0_wc=48', '48'),
        ('ctype-outdigit1_wc', 'ctype-outdigit1_wc=49', '49'),
        ('ctype-outdigit2_wc', 'ctype-outdigit2_wc=50', '50'),
        ('ctype-outdigit3_wc', 'ctype-outdigit3_wc=51', '51'),
        ('ctype-outdigit4_wc', 'ctype-outdigit4_wc=52', '52'),
        ('ctype-outdigit5_wc', 'ctype-outdigit5_wc=53', '53'),
        ('ctype-outdigit6_wc', 'ctype-outdigit6_wc=54', '54'),
        ('ctype-outdigit7_wc', 'ctype-outdigit7_wc=55', '55'),
        ('ctype-outdigit8_wc', 'ctype-outdigit8_wc=56', '56'),
        ('ctype-outdigit9_wc', 'ctype-outdigit9_wc=57', '57'),
        ('ctype-translit-tab-size', 'ctype-translit-tab-size=6228', '6228'),
        ('ctype-translit-default-missing-len', 'ctype-translit-default-missing-len=1', '1'),
        ('ctype-translit-ignore-len', 'ctype-translit-ignore-len=0', '0'),
        ('ctype-translit-ignore', 'ctype-translit-ignore=""', ''),
        ('map-to-nonascii', 'map-to-nonascii=0', '0'),
        ('nonascii-case', 'nonascii-case=0', '0'),
    ],
    'LC_NUMERIC': [
        ('decimal_point', 'decimal_point="."', '.'),
        ('thousands_sep', 'thousands_sep=""', ''),
        ('grouping', 'grouping=-1', '-1'),
        ('numeric-decimal-point-wc', 'numeric-decimal-point-wc=46', '46'),
        ('numeric-thousands-sep-wc', 'numeric-thousands-sep-wc=0', '0'),
        ('numeric-codeset', 'numeric-codeset="UTF-8"', 'UTF-8'),
    ],
    'LC_TIME': [
        ('abday', 'abday="Sun;Mon;Tue;Wed;Thu;Fri;Sat"', 'Sun;Mon;Tue;Wed;Thu;Fri;Sat'),
        ('day', 'day="Sunday;Monday;Tuesday;Wednesday;Thursday;Friday;Saturday"', 'Sunday;Monday;Tuesday;Wednesday;Thursday;Friday;Saturday'),
        ('abmon', 'abmon="Jan;Feb;Mar;Apr;May;Jun;Jul;Aug;Sep;Oct;Nov;Dec"', 'Jan;Feb;Mar;Apr;May;Jun;Jul;Aug;Sep;Oct;Nov;Dec'),
        ('mon', 'mon="January;February;March;April;May;June;July;August;September;October;November;December"', 'January;February;March;April;May;June;July;August;September;October;November;December'),
        ('am_pm', 'am_pm="AM;PM"', 'AM;PM'),
        ('d_t_fmt', 'd_t_fmt="%a %b %e %H:%M:%S %Y"', '%a %b %e %H:%M:%S %Y'),
        ('d_fmt', 'd_fmt="%m/%d/%y"', '%m/%d/%y'),
        ('t_fmt', 't_fmt="%H:%M:%S"', '%H:%M:%S'),
        ('t_fmt_ampm', 't_fmt_ampm="%I:%M:%S %p"', '%I:%M:%S %p'),
        ('era', 'era=', ''),
        ('era_year', 'era_year=""', ''),
        ('era_d_fmt', 'era_d_fmt=""', ''),
        ('alt_digits', 'alt_digits=', ''),
        ('era_d_t_fmt', 'era_d_t_fmt=""', ''),
        ('era_t_fmt', 'era_t_fmt=""', ''),
        ('time-era-num-entries', 'time-era-num-entries=0', '0'),
        ('time-era-entries', 'time-era-entries="S"', 'S'),
        ('week-ndays', 'week-ndays=7', '7'),
        ('week-1stday', 'week-1stday=19971130', '19971130'),
        ('week-1stweek', 'week-1stweek=4', '4'),
        ('first_weekday', 'first_weekday=1', '1'),
        ('first_workday', 'first_workday=2', '2'),
        ('cal_direction', 'cal_direction=1', '1'),
        ('timezone', 'timezone=""', ''),
        ('date_fmt', 'date_fmt="%a %b %e %H:%M:%S %Z %Y"', '%a %b %e %H:%M:%S %Z %Y'),
        ('time-codeset', 'time-codeset="UTF-8"', 'UTF-8'),
        ('alt_mon', 'alt_mon="January;February;March;April;May;June;July;August;September;October;November;December"', 'January;February;March;April;May;June;July;August;September;October;November;December'),
        ('ab_alt_mon', 'ab_alt_mon="Jan;Feb;Mar;Apr;May;Jun;Jul;Aug;Sep;Oct;Nov;Dec"', 'Jan;Feb;Mar;Apr;May;Jun;Jul;Aug;Sep;Oct;Nov;Dec'),
    ],
    'LC_COLLATE': [
        ('collate-nrules', 'collate-nrules=0', '0'),
        ('collate-rulesets', 'collate-rulesets=""', ''),
        ('collate-symb-hash-sizemb', 'collate-symb-hash-sizemb=0', '0'),
        ('collate-codeset', 'collate-codeset="UTF-8"', 'UTF-8'),
    ],
    'LC_MONETARY': [
        ('int_curr_symbol', 'int_curr_symbol=""', ''),
        ('currency_symbol', 'currency_symbol=""', ''),
        ('mon_decimal_point', 'mon_decimal_point=""', ''),
        ('mon_thousands_sep', 'mon_thousands_sep=""', ''),
        ('mon_grouping', 'mon_grouping=-1', '-1'),
        ('positive_sign', 'positive_sign=""', ''),
        ('negative_sign', 'negative_sign=""', ''),
        ('int_frac_digits', 'int_frac_digits=-1', '-1'),
        ('frac_digits', 'frac_digits=-1', '-1'),
        ('p_cs_precedes', 'p_cs_precedes=-1', '-1'),
        ('p_sep_by_space', 'p_sep_by_space=-1', '-1'),
        ('n_cs_precedes', 'n_cs_precedes=-1', '-1'),
        ('n_sep_by_space', 'n_sep_by_space=-1', '-1'),
        ('p_sign_posn', 'p_sign_posn=-1', '-1'),
        ('n_sign_posn', 'n_sign_posn=-1', '-1'),
        ('crncystr', 'crncystr="-"', '-'),
        ('int_p_cs_precedes', 'int_p_cs_precedes=-1', '-1'),
        ('int_p_sep_by_space', 'int_p_sep_by_space=-1', '-1'),
        ('int_n_cs_precedes', 'int_n_cs_precedes=-1', '-1'),
        ('int_n_sep_by_space', 'int_n_sep_by_space=-1', '-1'),
        ('int_p_sign_posn', 'int_p_sign_posn=-1', '-1'),
        ('int_n_sign_posn', 'int_n_sign_posn=-1', '-1'),
        ('duo_int_curr_symbol', 'duo_int_curr_symbol=""', ''),
        ('duo_currency_symbol', 'duo_currency_symbol=""', ''),
        ('duo_int_frac_digits', 'duo_int_frac_digits=-1', '-1'),
        ('duo_frac_digits', 'duo_frac_digits=-1', '-1'),
        ('duo_p_cs_precedes', 'duo_p_cs_precedes=-1', '-1'),
        ('duo_p_sep_by_space', 'duo_p_sep_by_space=-1', '-1'),
        ('duo_n_cs_precedes', 'duo_n_cs_precedes=-1', '-1'),
        ('duo_n_sep_by_space', 'duo_n_sep_by_space=-1', '-1'),
        ('duo_int_p_cs_precedes', 'duo_int_p_cs_precedes=-1', '-1'),
        ('duo_int_p_sep_by_space', 'duo_int_p_sep_by_space=-1', '-1'),
        ('duo_int_n_cs_precedes', 'duo_int_n_cs_precedes=-1', '-1'),
        ('duo_int_n_sep_by_space', 'duo_int_n_sep_by_space=-1', '-1'),
        ('duo_p_sign_posn', 'duo_p_sign_posn=-1', '-1'),
        ('duo_n_sign_posn', 'duo_n_sign_posn=-1', '-1'),
        ('duo_int_p_sign_posn', 'duo_int_p_sign_posn=-1', '-1'),
        ('duo_int_n_sign_posn', 'duo_int_n_sign_posn=-1', '-1'),
        ('uno_valid_from', 'uno_valid_from=10101', '10101'),
        ('uno_valid_to', 'uno_valid_to=99991231', '99991231'),
        ('duo_valid_from', 'duo_valid_from=10101', '10101'),
        ('duo_valid_to', 'duo_valid_to=99991231', '99991231'),
        ('conversion_rate', 'conversion_rate=1;1', '1;1'),
        ('monetary-decimal-point-wc', 'monetary-decimal-point-wc=0', '0'),
        ('monetary-thousands-sep-wc', 'monetary-thousands-sep-wc=0', '0'),
        ('monetary-codeset', 'monetary-codeset="UTF-8"', 'UTF-8'),
    ],
    'LC_MESSAGES': [
        ('yesexpr', 'yesexpr="^[yY]"', '^[yY]'),
        ('noexpr', 'noexpr="^[nN]"', '^[nN]'),
        ('yesstr', 'yesstr=""', ''),
        ('nostr', 'nostr=""', ''),
        ('messages-codeset', 'messages-codeset="UTF-8"', 'UTF-8'),
    ],
    'LC_PAPER': [
        ('height', 'height=297', '297'),
        ('width', 'width=210', '210'),
        ('paper-codeset', 'paper-codeset="UTF-8"', 'UTF-8'),
    ],
    'LC_NAME': [
        ('name_fmt', 'name_fmt="%p%t%g%t%m%t%f"', '%p%t%g%t%m%t%f'),
        ('name_gen', 'name_gen=""', ''),
        ('name_mr', 'name_mr=""', ''),
        ('name_mrs', 'name_mrs=""', ''),
        ('name_miss', 'name_miss=""', ''),
        ('name_ms', 'name_ms=""', ''),
        ('name-codeset', 'name-codeset="UTF-8"', 'UTF-8'),
    ],
    'LC_ADDRESS': [
        ('postal_fmt', 'postal_fmt="%a%N%f%N%d%N%b%N%s %h %e %r%N%C-%z %T%N%c%N"', '%a%N%f%N%d%N%b%N%s %h %e %r%N%C-%z %T%N%c%N'),
        ('country_name', 'country_name=""', ''),
        ('country_post', 'country_post=""', ''),
        ('country_ab2', 'country_ab2=""', ''),
        ('country_ab3', 'country_ab3=""', ''),
        ('country_car', 'country_car=""', ''),
        ('country_num', 'country_num=0', '0'),
        ('country_isbn', 'country_isbn=""', ''),
        ('lang_name', 'lang_name=""', ''),
        ('lang_ab', 'lang_ab=""', ''),
        ('lang_term', 'lang_term=""', ''),
        ('lang_lib', 'lang_lib=""', ''),
        ('address-codeset', 'address-codeset="UTF-8"', 'UTF-8'),
    ],
    'LC_TELEPHONE': [
        ('tel_int_fmt', 'tel_int_fmt="+%c %a %l"', '+%c %a %l'),
        ('tel_dom_fmt', 'tel_dom_fmt=""', ''),
        ('int_select', 'int_select=""', ''),
        ('int_prefix', 'int_prefix=""', ''),
        ('telephone-codeset', 'telephone-codeset="UTF-8"', 'UTF-8'),
    ],
    'LC_MEASUREMENT': [
        ('measurement', 'measurement=1', '1'),
        ('measurement-codeset', 'measurement-codeset="UTF-8"', 'UTF-8'),
    ],
    'LC_IDENTIFICATION': [
        ('title', 'title="C locale"', 'C locale'),
        ('source', 'source=""', ''),
        ('address', 'address=""', ''),
        ('contact', 'contact=""', ''),
        ('email', 'email="bug-glibc-locales@gnu.org"', 'bug-glibc-locales@gnu.org'),
        ('tel', 'tel=""', ''),
        ('fax', 'fax=""', ''),
        ('language', 'language=""', ''),
        ('territory', 'territory=""', ''),
        ('audience', 'audience=""', ''),
        ('application', 'application=""', ''),
        ('abbreviation', 'abbreviation=""', ''),
        ('revision', 'revision="2.1"', '2.1'),
        ('date', 'date="2022-01-30"', '2022-01-30'),
        ('category', 'category="i18n:2012;UTF-8;;;;;;;;;;;"', 'i18n:2012;UTF-8;;;;;;;;;;;'),
        ('identification-codeset', 'identification-codeset="UTF-8"', 'UTF-8'),
    ],
}

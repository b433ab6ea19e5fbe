/* _linescan: an optional accelerator for grep's block fast paths (sandbox.commands.grep.native).
 *
 * One function, scan(), selects the lines of a block of whole lines that hold (or, inverted,
 * do not hold) an occurrence of one of a few fixed-length "patterns", each a sequence of byte
 * sets (a literal is a sequence of one-byte sets), and counts them or writes their output
 * (plain lines, "N:" line numbers, a name head, or the occurrences themselves for -o).
 * Plain C99 over the CPython API; reads contiguous buffers (bytes, memoryview) and never writes
 * them; the GIL is held throughout; every index is checked against the block; allocations:
 * the output under construction and, for -i, one lowered copy of the block (both kept for the
 * next call up to 8 MiB), then the returned bytes. The caller (Python) decides when this is
 * exactly GNU grep's behaviour; see the docstring of scan() and sandbox/commands/grep/native.py.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <string.h>
#include <stdlib.h>

#define F_ICASE 1
#define F_WORDS 2
#define F_BOL 4
#define F_EOL 8
#define F_INVERT 16
#define F_COUNT 32
#define F_NUMBERS 64
#define F_ONLY 128
#define F_CHECK_UTF8 256

#define MAX_ALTS 16
#define MAX_LEN 1024

typedef struct {
    const unsigned char *sets; /* len * 32 bytes: bit b of set i is byte b allowed at i */
    Py_ssize_t len;
    Py_ssize_t key_off;        /* the key (a run of one-byte sets) starts here */
    const unsigned char *key;
    Py_ssize_t key_len;
    Py_ssize_t next;           /* cached next occurrence (>= some position), -1 none */
    Py_ssize_t from;           /* ``next`` is the first occurrence at or after this */
} Alt;

typedef struct {
    char *data;
    Py_ssize_t len, cap;
    int failed;
} Out;

/* Scratch memory kept between calls (the lowered block and the output under construction):
 * a fresh megabyte per block costs more in page faults than the scan. Only one call at a time
 * uses them (``scratch_busy``; a re-entrant call, e.g. from a signal handler run by
 * PyErr_CheckSignals, allocates its own); buffers above SCRATCH_KEEP are not kept. */
#define SCRATCH_KEEP ((Py_ssize_t)8 << 20)
static unsigned char *scratch_low = NULL;
static Py_ssize_t scratch_low_cap = 0;
static char *scratch_out = NULL;
static Py_ssize_t scratch_out_cap = 0;
static int scratch_busy = 0;

static int out_reserve(Out *o, Py_ssize_t more) {
    if (o->failed) return -1;
    if (more < 0 || o->len > PY_SSIZE_T_MAX - more) { o->failed = 1; return -1; }
    if (o->len + more <= o->cap) return 0;
    Py_ssize_t cap = o->cap ? o->cap : 4096;
    while (cap < o->len + more) {
        if (cap > PY_SSIZE_T_MAX / 2) { cap = o->len + more; break; }
        cap *= 2;
    }
    char *p = (char *)realloc(o->data, (size_t)cap);
    if (!p) { o->failed = 1; return -1; }
    o->data = p;
    o->cap = cap;
    return 0;
}

static inline int out_put(Out *o, const void *src, Py_ssize_t n) {
    if (n <= 0) return 0;
    if (out_reserve(o, n) < 0) return -1;
    memcpy(o->data + o->len, src, (size_t)n);
    o->len += n;
    return 0;
}

static int out_head(Out *o, const unsigned char *head, Py_ssize_t head_len, int numbers,
                    long long number) {
    if (out_put(o, head, head_len) < 0) return -1;
    if (numbers) {
        char tmp[24];
        int k = 0;
        unsigned long long v = number < 0 ? 0ULL : (unsigned long long)number;
        do { tmp[k++] = (char)('0' + (int)(v % 10)); v /= 10; } while (v && k < 22);
        if (out_reserve(o, k + 1) < 0) return -1;
        while (k > 0) o->data[o->len++] = tmp[--k];
        o->data[o->len++] = ':';
    }
    return 0;
}

/* Number of ``eol`` bytes in p[0:n] (a loop compilers vectorise). */
static Py_ssize_t count_eol(const unsigned char *p, Py_ssize_t n, unsigned char eol) {
    Py_ssize_t c = 0;
    for (Py_ssize_t i = 0; i < n; i++) c += (p[i] == eol);
    return c;
}

/* Whether p[0:n] is valid UTF-8 as Python's strict decoder sees it (no surrogates, no
 * overlong forms, nothing above U+10FFFF). */
static int utf8_ok(const unsigned char *p, Py_ssize_t n) {
    Py_ssize_t i = 0;
    while (i < n) {
        while (i + 8 <= n) {
            unsigned long long w;
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ULL) break;
            i += 8;
        }
        if (i >= n) break;
        unsigned char c = p[i];
        if (c < 0x80) { i++; continue; }
        if (c >= 0xC2 && c <= 0xDF) {
            if (i + 1 >= n || (p[i + 1] & 0xC0) != 0x80) return 0;
            i += 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            if (i + 2 >= n) return 0;
            unsigned char c1 = p[i + 1], c2 = p[i + 2];
            if ((c1 & 0xC0) != 0x80 || (c2 & 0xC0) != 0x80) return 0;
            if (c == 0xE0 && c1 < 0xA0) return 0;
            if (c == 0xED && c1 > 0x9F) return 0;
            i += 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            if (i + 3 >= n) return 0;
            unsigned char c1 = p[i + 1], c2 = p[i + 2], c3 = p[i + 3];
            if ((c1 & 0xC0) != 0x80 || (c2 & 0xC0) != 0x80 || (c3 & 0xC0) != 0x80) return 0;
            if (c == 0xF0 && c1 < 0x90) return 0;
            if (c == 0xF4 && c1 > 0x8F) return 0;
            i += 4;
        } else {
            return 0;
        }
    }
    return 1;
}

/* memmem: glibc's and the BSDs' (fast two-way); a plain loop elsewhere. */
static const unsigned char *find_bytes(const unsigned char *h, Py_ssize_t hn,
                                       const unsigned char *k, Py_ssize_t kn) {
#if defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__)
    return (const unsigned char *)memmem(h, (size_t)hn, k, (size_t)kn);
#else
    Py_ssize_t p = 0;
    while (hn - p >= kn) {
        const unsigned char *q = (const unsigned char *)memchr(h + p, k[0], (size_t)(hn - p - kn + 1));
        if (!q) return NULL;
        if (memcmp(q, k, (size_t)kn) == 0) return q;
        p = (q - h) + 1;
    }
    return NULL;
#endif
}

/* Start of the line holding offset s (lines end with eol), not before lo. */
static Py_ssize_t line_start(const unsigned char *r, Py_ssize_t lo, Py_ssize_t s, unsigned char eol) {
#if defined(__GLIBC__)
    if (s <= lo) return lo;
    const unsigned char *q = (const unsigned char *)memrchr(r + lo, eol, (size_t)(s - lo));
    return q ? (q - r) + 1 : lo;
#else
    while (s > lo && r[s - 1] != eol) s--;
    return s;
#endif
}

static int popcount8(unsigned char b) {
    int c = 0;
    while (b) { c += b & 1; b >>= 1; }
    return c;
}

static inline int in_set(const unsigned char *set, unsigned char c) {
    return (set[c >> 3] >> (c & 7)) & 1;
}

/* Whether alt matches at t[s:s+len] (the caller checked s + len <= n). */
static inline int match_at(const Alt *a, const unsigned char *t, Py_ssize_t s) {
    for (Py_ssize_t i = 0; i < a->len; i++)
        if (!in_set(a->sets + 32 * i, t[s + i])) return 0;
    return 1;
}

/* First occurrence of alt in t[from:n] (start >= from), or -1. */
static Py_ssize_t find_alt(const Alt *a, const unsigned char *t, Py_ssize_t n, Py_ssize_t from) {
    Py_ssize_t p = from + a->key_off;
    const Py_ssize_t tail = a->len - a->key_off; /* bytes from the key's start to the end */
    while (p < n && n - p >= tail) {
        const unsigned char *q;
        if (a->key_len == 1)
            q = (const unsigned char *)memchr(t + p, a->key[0], (size_t)(n - p));
        else
            q = find_bytes(t + p, n - p, a->key, a->key_len);
        if (!q) return -1;
        Py_ssize_t kq = q - t;
        Py_ssize_t s = kq - a->key_off;
        if (n - kq < tail) return -1;
        if (match_at(a, t, s)) return s;
        p = kq + 1;
    }
    return -1;
}

static inline int ascii_word(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

/* GNU's -w test for t[s:e]: 1 ok, 0 not, -1 unknown (a non-ASCII neighbour). */
static inline int word_ok(const unsigned char *t, Py_ssize_t n, Py_ssize_t s, Py_ssize_t e) {
    if (s > 0) {
        unsigned char b = t[s - 1];
        if (b >= 0x80) return -1;
        if (ascii_word(b)) return 0;
    }
    if (e < n) {
        unsigned char b = t[e];
        if (b >= 0x80) return -1;
        if (ascii_word(b)) return 0;
    }
    return 1;
}

typedef struct {
    Alt alts[MAX_ALTS];
    int nalts;
    const unsigned char *t; /* the text searched (lowered under -i) */
    Py_ssize_t n;
    int words;
    int unsure;
} Searcher;

/* The next occurrence at or after pos (leftmost, then longest; with -w the longest that
 * passes at the leftmost start where one does). Returns the start and sets *len, or -1. */
static Py_ssize_t next_hit(Searcher *S, Py_ssize_t pos, Py_ssize_t *len) {
    for (;;) {
        Py_ssize_t best = -1;
        int bi = -1;
        for (int i = 0; i < S->nalts; i++) {
            Alt *a = &S->alts[i];
            /* ``next`` is the first occurrence at or after ``from`` (<= pos: positions
             * only grow), -1 for none, -2 before the first search. */
            if (a->next == -2 || (a->next >= 0 && a->next < pos)) {
                a->next = find_alt(a, S->t, S->n, pos);
                a->from = pos;
            }
            Py_ssize_t s = a->next;
            if (s < 0) continue;
            if (best < 0 || s < best || (s == best && a->len > S->alts[bi].len)) {
                best = s;
                bi = i;
            }
        }
        if (best < 0) return -1;
        Alt *a = &S->alts[bi];
        if (S->words) {
            int w = word_ok(S->t, S->n, best, best + a->len);
            if (w < 0) { S->unsure = 1; return -1; }
            if (!w) {
                a->next = find_alt(a, S->t, S->n, best + 1);
                a->from = best + 1;
                continue;
            }
        }
        *len = a->len;
        return best;
    }
}

/* Whether line t[ls:le] is selected by an anchored pattern (-x, ^, $). */
static int anchored_line(Searcher *S, Py_ssize_t ls, Py_ssize_t le, int bol, int eol_anchor) {
    Py_ssize_t w = le - ls;
    for (int i = 0; i < S->nalts; i++) {
        const Alt *a = &S->alts[i];
        if (a->len > w) continue;
        if (bol && eol_anchor) {
            if (a->len == w && match_at(a, S->t, ls)) return 1;
        } else if (bol) {
            if (match_at(a, S->t, ls)) return 1;
        } else {
            if (match_at(a, S->t, le - a->len)) return 1;
        }
    }
    return 0;
}

typedef struct {
    const unsigned char *r; /* the original block */
    Py_ssize_t n;
    unsigned char eol;
    int count_only, numbers, check;
    const unsigned char *head;
    Py_ssize_t head_len;
    long long lineno;  /* number of the line at ``counted`` */
    Py_ssize_t counted;
    Out out;
    int bad;           /* an output line holds invalid UTF-8 */
} Emit;

static inline void advance_lines(Emit *E, Py_ssize_t pos) {
    if (pos > E->counted) {
        E->lineno += count_eol(E->r + E->counted, pos - E->counted, E->eol);
        E->counted = pos;
    }
}

/* Emit the whole lines r[a:b] (b just after an eol). */
static int emit_lines(Emit *E, Py_ssize_t a, Py_ssize_t b) {
    if (E->count_only || b <= a) return 0;
    if (E->check && !utf8_ok(E->r + a, b - a)) { E->bad = 1; return -1; }
    if (!E->numbers && E->head_len == 0) return out_put(&E->out, E->r + a, b - a);
    Py_ssize_t p = a;
    if (E->numbers) advance_lines(E, a);
    while (p < b) {
        const unsigned char *q = (const unsigned char *)memchr(E->r + p, E->eol, (size_t)(b - p));
        Py_ssize_t e = q ? (q - E->r) + 1 : b;
        if (out_head(&E->out, E->head, E->head_len, E->numbers, E->lineno) < 0) return -1;
        if (out_put(&E->out, E->r + p, e - p) < 0) return -1;
        p = e;
        if (E->numbers) { E->lineno++; E->counted = p; }
    }
    return 0;
}

/* The scan proper: 0 done (*selected_out, *stop_out set), 1 result unknown, -1 error (an
 * exception is set, or the output ran out of memory: E->out.failed). */
static int run_scan(Searcher *S, Emit *E, long flags, Py_ssize_t most,
                    Py_ssize_t *selected_out, Py_ssize_t *stop_out) {
    int invert = (flags & F_INVERT) != 0;
    int only = (flags & F_ONLY) != 0 && !E->count_only && !invert;
    int bol = (flags & F_BOL) != 0, eola = (flags & F_EOL) != 0;
    Py_ssize_t selected = 0;
    const unsigned char *r = E->r;
    const Py_ssize_t n = E->n;
    const unsigned char eol = E->eol;
    Py_ssize_t pos = 0;         /* start of the next line not yet decided */
    Py_ssize_t stop = n;        /* where the scan stopped */
    int checks = 0;

    if (bol || eola) {
        while (pos < n && selected < most) {
            const unsigned char *q = (const unsigned char *)memchr(r + pos, eol, (size_t)(n - pos));
            Py_ssize_t le = q ? q - r : n - 1;  /* q is never NULL: the block ends with eol */
            int hit = anchored_line(S, pos, le, bol, eola);
            if (hit != invert) {
                selected++;
                if (!E->count_only && emit_lines(E, pos, le + 1) < 0) return E->bad ? 1 : -1;
            }
            pos = le + 1;
        }
        stop = pos;
    } else {
        while (pos < n && selected < most) {
            Py_ssize_t len = 0;
            Py_ssize_t s = next_hit(S, pos, &len);
            if (S->unsure) return 1;
            Py_ssize_t ls, le;
            if (s < 0) {
                ls = le = n;
            } else {
                ls = line_start(r, pos, s, eol);
                const unsigned char *q = (const unsigned char *)memchr(r + s, eol, (size_t)(n - s));
                le = q ? q - r : n - 1;
            }
            if (invert) {
                /* lines pos..ls are selected (none holds a hit), up to ``most`` */
                if (ls > pos) {
                    Py_ssize_t gap = count_eol(r + pos, ls - pos, eol);
                    Py_ssize_t end = ls;
                    if (selected + gap > most) {
                        Py_ssize_t take = most - selected, p = pos;
                        for (Py_ssize_t k = 0; k < take && p < n; k++) {
                            const unsigned char *q = (const unsigned char *)memchr(
                                r + p, eol, (size_t)(n - p));
                            p = q ? (q - r) + 1 : n;
                        }
                        end = p;
                        gap = take;
                    }
                    if (!E->count_only && emit_lines(E, pos, end) < 0) return E->bad ? 1 : -1;
                    selected += gap;
                    if (selected >= most) { pos = end; break; }
                }
                if (s < 0) { pos = n; break; }
                pos = le + 1;
            } else {
                if (s < 0) { pos = n; break; }
                selected++;
                if (only) {
                    if (E->numbers) advance_lines(E, ls);
                    Py_ssize_t p = s, plen = len;
                    for (;;) {
                        if (out_head(&E->out, E->head, E->head_len, E->numbers, E->lineno) < 0
                                || out_put(&E->out, r + p, plen) < 0
                                || out_put(&E->out, &eol, 1) < 0)
                            return E->bad ? 1 : -1;
                        Py_ssize_t q = next_hit(S, p + plen, &plen);
                        if (S->unsure) return 1;
                        if (q < 0 || q >= le) break;
                        p = q;
                    }
                } else if (!E->count_only && emit_lines(E, ls, le + 1) < 0) {
                    return E->bad ? 1 : -1;
                }
                pos = le + 1;
            }
            if ((++checks & 1023) == 0 && PyErr_CheckSignals() < 0) return -1;
        }
        stop = pos;
    }
    *selected_out = selected;
    *stop_out = stop;
    return 0;
}

PyDoc_STRVAR(scan_doc,
"scan(block, alts, flags, most, head, lineno, eol) -> (selected, out, lines) or None\n\n"
"Select the lines of ``block`` (bytes of whole lines, each ending with the byte ``eol``)\n"
"that hold an occurrence of one of ``alts`` (with F_INVERT: that hold none), at most\n"
"``most`` of them. ``alts`` is a tuple of (sets, key_off, key): ``sets`` is 32 bytes per\n"
"position (a 256-bit set of the bytes allowed there, never containing ``eol``), ``key`` a\n"
"run of single-byte positions starting at ``key_off`` (searched with memchr/memmem).\n"
"Flags: 1 F_ICASE (the block is searched ASCII-lowered: sets hold lowered bytes), 2 F_WORDS\n"
"(GNU's -w: no ASCII word byte [0-9A-Za-z_] around the occurrence; a non-ASCII neighbour\n"
"makes the result unknown), 4 F_BOL / 8 F_EOL (the occurrence starts / ends the line; both:\n"
"is the line), 16 F_INVERT, 32 F_COUNT (no output), 64 F_NUMBERS ('N:' before each line,\n"
"N from ``lineno``), 128 F_ONLY (-o: each occurrence, leftmost-longest, on its own line),\n"
"256 F_CHECK_UTF8 (an output line with invalid UTF-8 makes the result unknown). ``head``\n"
"is written before each output line (before the number). Returns None when the result is\n"
"unknown (the caller must use its exact path), else the number of selected lines, the\n"
"output (b'' with F_COUNT) and, with F_NUMBERS, how many eols precede the point where\n"
"the scan stopped (the block's end unless ``most`` stopped it) with that point: a tuple\n"
"(selected, out, stop, eols_before_stop).");

static PyObject *scan(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer blk;
    PyObject *alts;
    long flags;
    Py_ssize_t most;
    Py_buffer head;
    long long lineno;
    int eol_int;
    if (!PyArg_ParseTuple(args, "y*O!lny*Li", &blk, &PyTuple_Type, &alts, &flags, &most, &head,
                          &lineno, &eol_int))
        return NULL;
    PyObject *result = NULL;
    unsigned char *lowered = NULL;
    Py_ssize_t lowered_cap = 0;
    int own_scratch = 0;
    const unsigned char *t;
    Searcher S;
    Emit E;
    memset(&S, 0, sizeof S);
    memset(&E, 0, sizeof E);
    const unsigned char *r = (const unsigned char *)blk.buf;
    Py_ssize_t n = blk.len;
    unsigned char eol = (unsigned char)eol_int;
    Py_ssize_t na = PyTuple_GET_SIZE(alts);
    if (eol_int < 0 || eol_int > 255 || na < 1 || na > MAX_ALTS || most < 0 || lineno < 0
            || lineno > ((long long)1 << 62)) {
        PyErr_SetString(PyExc_ValueError, "scan: bad arguments");
        goto done;
    }
    if (n > 0 && r[n - 1] != eol) {
        PyErr_SetString(PyExc_ValueError, "scan: the block must end with eol");
        goto done;
    }
    S.nalts = (int)na;
    for (Py_ssize_t i = 0; i < na; i++) {
        PyObject *item = PyTuple_GET_ITEM(alts, i);
        PyObject *sets, *key;
        Py_ssize_t key_off;
        if (!PyTuple_Check(item) || !PyArg_ParseTuple(item, "SnS", &sets, &key_off, &key)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "scan: bad alternative");
            goto done;
        }
        Alt *a = &S.alts[i];
        a->sets = (const unsigned char *)PyBytes_AS_STRING(sets);
        a->len = PyBytes_GET_SIZE(sets) / 32;
        a->key = (const unsigned char *)PyBytes_AS_STRING(key);
        a->key_len = PyBytes_GET_SIZE(key);
        a->key_off = key_off;
        a->next = -2;
        a->from = 0;
        if (PyBytes_GET_SIZE(sets) % 32 || a->len < 1 || a->len > MAX_LEN || a->key_len < 1
                || a->key_len > a->len || key_off < 0 || key_off > a->len - a->key_len) {
            PyErr_SetString(PyExc_ValueError, "scan: bad alternative");
            goto done;
        }
        for (Py_ssize_t k = 0; k < a->key_len; k++) {
            const unsigned char *set = a->sets + 32 * (key_off + k);
            unsigned char c = a->key[k];
            int members = 0;
            for (int b = 0; b < 32; b++) members += popcount8(set[b]);
            if (members != 1 || !in_set(set, c)) {
                PyErr_SetString(PyExc_ValueError, "scan: key does not match its sets");
                goto done;
            }
        }
        for (Py_ssize_t k = 0; k < a->len; k++) {
            if (in_set(a->sets + 32 * k, eol)) {
                PyErr_SetString(PyExc_ValueError, "scan: a set holds the eol byte");
                goto done;
            }
        }
    }
    t = r;
    own_scratch = !scratch_busy;
    if (own_scratch) {
        scratch_busy = 1;
        E.out.data = scratch_out;
        E.out.cap = scratch_out_cap;
        scratch_out = NULL;
        scratch_out_cap = 0;
    }
    if (flags & F_ICASE) {
        if (own_scratch && scratch_low_cap >= n && scratch_low) {
            lowered = scratch_low;
            lowered_cap = scratch_low_cap;
            scratch_low = NULL;
            scratch_low_cap = 0;
        } else {
            /* a quarter more: the next block, a few bytes longer, reuses it */
            lowered_cap = n + n / 4 + 64;
            lowered = (unsigned char *)malloc((size_t)lowered_cap);
            if (!lowered) { PyErr_NoMemory(); goto done; }
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            unsigned char c = r[i];
            lowered[i] = (unsigned char)(c + (((unsigned char)(c - 'A') < 26) << 5));
        }
        t = lowered;
    }
    S.t = t;
    S.n = n;
    S.words = (flags & F_WORDS) != 0;
    E.r = r;
    E.n = n;
    E.eol = eol;
    E.count_only = (flags & F_COUNT) != 0;
    E.numbers = (flags & F_NUMBERS) != 0;
    E.check = (flags & F_CHECK_UTF8) != 0;
    E.head = (const unsigned char *)head.buf;
    E.head_len = head.len;
    E.lineno = lineno;
    E.counted = 0;
    {
        Py_ssize_t selected = 0, stop = 0;
        int rc = run_scan(&S, &E, flags, most, &selected, &stop);
        if (rc == 1) {
            Py_INCREF(Py_None);
            result = Py_None;
            goto done;
        }
        if (rc < 0 || E.out.failed) {
            if (!PyErr_Occurred()) PyErr_NoMemory();
            goto done;
        }
        if (E.numbers) advance_lines(&E, stop);
        PyObject *out = PyBytes_FromStringAndSize(E.out.data ? E.out.data : "", E.out.len);
        if (!out) goto done;
        result = Py_BuildValue("(nNnL)", selected, out, stop, E.lineno - lineno);
    }
done:
    if (own_scratch) {
        /* keep the buffers for the next call unless they are large */
        if (lowered && lowered_cap <= SCRATCH_KEEP && !scratch_low) {
            scratch_low = lowered;
            scratch_low_cap = lowered_cap;
            lowered = NULL;
        }
        if (E.out.data && E.out.cap <= SCRATCH_KEEP && !scratch_out) {
            scratch_out = E.out.data;
            scratch_out_cap = E.out.cap;
            E.out.data = NULL;
        }
        scratch_busy = 0;
    }
    free(lowered);
    free(E.out.data);
    PyBuffer_Release(&blk);
    PyBuffer_Release(&head);
    return result;
}

PyDoc_STRVAR(count_byte_doc,
"count_byte(buffer, byte, start=0, end=-1) -> int\n\n"
"How many times the byte value ``byte`` (0-255) occurs in ``buffer[start:end]`` (any\n"
"bytes-like object; ``end`` -1 or past the end means the end): what\n"
"``bytes.count`` of one byte answers (wc -l counts newlines with it).");

static PyObject *count_byte(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int byte;
    Py_ssize_t start = 0, end = -1;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*i|nn", &buf, &byte, &start, &end)) return NULL;
    if (byte < 0 || byte > 255) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "byte must be in 0..255");
        return NULL;
    }
    if (end < 0 || end > buf.len) end = buf.len;
    if (start < 0) start = 0;
    if (start > end) start = end;
    const unsigned char *p = (const unsigned char *)buf.buf + start;
    const unsigned char *stop = (const unsigned char *)buf.buf + end;
    const unsigned char c = (unsigned char)byte;
    Py_ssize_t n = 0;
    /* blocks of 255 bytes counted into a byte-wide sum the compiler vectorises (no per-match
       call: dense newlines cost what sparse ones cost) */
    while (stop - p >= 255) {
        unsigned char sum = 0;
        for (int i = 0; i < 255; i++) sum += (unsigned char)(p[i] == c);
        n += sum;
        p += 255;
    }
    for (; p < stop; p++) n += (*p == c);
    PyBuffer_Release(&buf);
    return PyLong_FromSsize_t(n);
}

PyDoc_STRVAR(fold_doc,
"fold(data, width, count_bytes, spaces) -> bytes\n\n"
"GNU fold's loop (coreutils 9.1) over ``data``: lines (a last one may lack its newline)\n"
"wrapped at ``width`` columns: a tab to the next multiple of 8, backspace one back, carriage\n"
"return to 0, any other byte one (``count_bytes``: every byte one); ``spaces`` breaks after\n"
"the last space or tab that fits. The current line is always a slice of ``data``, so the\n"
"only allocation is the output (at most twice the input, plus one).");

static int fold_blank(unsigned char c) { return c == ' ' || c == '\t'; }

static unsigned long long fold_adjust(unsigned long long col, unsigned char c, int count_bytes) {
    if (count_bytes) return col + 1;
    if (c == '\b') return col > 0 ? col - 1 : 0;
    if (c == '\r') return 0;
    if (c == '\t') return col + 8 - col % 8;
    return col + 1;
}

static PyObject *fold(PyObject *self, PyObject *args) {
    Py_buffer buf;
    unsigned long long width;
    int count_bytes, spaces;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*Kpp", &buf, &width, &count_bytes, &spaces)) return NULL;
    if (width > 0xFFFFFFFFFFFFFFF0ULL) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_OverflowError, "width too large");
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)buf.buf;
    Py_ssize_t n = buf.len;
    if (n > (PY_SSIZE_T_MAX - 1) / 2) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_OverflowError, "input too large");
        return NULL;
    }
    PyObject *result = PyBytes_FromStringAndSize(NULL, 2 * n + 1);
    if (result == NULL) {
        PyBuffer_Release(&buf);
        return NULL;
    }
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(result);
    Py_ssize_t o = 0, ls = 0, i = 0;
    unsigned long long col = 0;
#define EMIT(from, to) do { memcpy(out + o, p + (from), (size_t)((to) - (from))); o += (to) - (from); } while (0)
    while (i < n) {
        unsigned char c = p[i];
        if (c == '\n') {
            EMIT(ls, i + 1);
            ls = i + 1;
            col = 0;
            i++;
            continue;
        }
        col = fold_adjust(col, c, count_bytes);
        if (col <= width) {
            i++;
            continue;
        }
        if (spaces) {
            Py_ssize_t j = i;
            int found = 0;
            while (j > ls) {
                j--;
                if (fold_blank(p[j])) { found = 1; break; }
            }
            if (found) {
                EMIT(ls, j + 1);
                out[o++] = '\n';
                ls = j + 1;
                col = 0;
                for (Py_ssize_t k = ls; k < i; k++) col = fold_adjust(col, p[k], count_bytes);
                continue;  /* the same byte again, on the new line */
            }
        }
        if (i == ls) {  /* alone on its line: it stays, however wide */
            i++;
            continue;
        }
        EMIT(ls, i);
        out[o++] = '\n';
        ls = i;
        col = 0;
    }
    EMIT(ls, n);
#undef EMIT
    PyBuffer_Release(&buf);
    if (_PyBytes_Resize(&result, o) < 0) return NULL;
    return result;
}

/* ---- diff: lines and their equivalence classes (sandbox/commands/diff) ------------------- */

PyDoc_STRVAR(diff_classes_doc,
"diff_classes(data0, data1, horizon, minimal) -> (pre, suf, offsets0, offsets1, ids0, ids1,\n"
"                                                codes0, codes1)\n\n"
"diff's line analysis of two buffers (diffutils 3.8 io.c and the first pass of analyze.c's\n"
"discard_confusing_lines), lines compared as their bytes. A line ends after each '\\n'; a\n"
"last line without one is a line too (and differs from the same text with a newline).\n"
"``offsets``: bytes holding n + 1 native int64 values, line k being\n"
"data[offsets[k]:offsets[k + 1]]. ``pre``/``suf``: lines of the identical prefix and suffix\n"
"left out of the compared region, each ``horizon`` lines fewer (not below 0), the suffix\n"
"never overlapping the prefix. ``ids``: bytes of native int32, one per line of the compared\n"
"region of that file (lines pre .. n - suf - 1), equal exactly when the lines are equal\n"
"(one numbering for both files, 0 first). ``codes``: a bytearray, one per compared line:\n"
"1 when no line of the other file's region equals it, 2 when more than ``many`` lines there\n"
"do (many = 5, doubled once per step of (region length // 64) >> 2 ... while non-zero, for\n"
"this file's region length), 0 otherwise; all 0 when ``minimal``.");

#define DIFF_MIX_K0 0xa0761d6478bd642fULL
#define DIFF_MIX_K1 0xe7037ed1a0b428dbULL
#define DIFF_MIX_K2 0x8ebc6af09c88c6e3ULL
static unsigned long long diff_seed = 0x243f6a8885a308d3ULL;  /* set at import from os.urandom */

static inline unsigned long long diff_mix(unsigned long long a, unsigned long long b) {
#if defined(__SIZEOF_INT128__)
    __uint128_t r = (__uint128_t)a * b;
    return (unsigned long long)r ^ (unsigned long long)(r >> 64);
#else
    unsigned long long ha = a >> 32, la = a & 0xffffffffULL, hb = b >> 32, lb = b & 0xffffffffULL;
    unsigned long long rh = ha * hb, rm0 = ha * lb, rm1 = hb * la, rl = la * lb;
    unsigned long long t = rl + (rm0 << 32), c = t < rl;
    unsigned long long lo = t + (rm1 << 32);
    c += lo < t;
    unsigned long long hi = rh + (rm0 >> 32) + (rm1 >> 32) + c;
    return lo ^ hi;
#endif
}

static inline unsigned long long diff_load(const unsigned char *p) {
    unsigned long long v;
    memcpy(&v, p, 8);
    return v;
}

/* A keyed hash of a line (wyhash-like: 16 bytes per multiply). */
static unsigned long long diff_hash(const unsigned char *p, Py_ssize_t n) {
    unsigned long long seed = diff_seed ^ diff_mix(diff_seed ^ DIFF_MIX_K0, (unsigned long long)n ^ DIFF_MIX_K1);
    unsigned long long a, b;
    Py_ssize_t i = n;
    while (i > 16) {
        seed = diff_mix(diff_load(p) ^ DIFF_MIX_K1, diff_load(p + 8) ^ seed);
        p += 16;
        i -= 16;
    }
    if (i >= 8) {
        a = diff_load(p);
        b = diff_load(p + i - 8);
    } else if (i >= 4) {
        unsigned int x, y;
        memcpy(&x, p, 4);
        memcpy(&y, p + i - 4, 4);
        a = x;
        b = y;
    } else if (i > 0) {
        a = ((unsigned long long)p[0] << 16) | ((unsigned long long)p[i >> 1] << 8) | p[i - 1];
        b = 0;
    } else {
        a = b = 0;
    }
    return diff_mix(DIFF_MIX_K1 ^ (unsigned long long)n, diff_mix(a ^ DIFF_MIX_K1, b ^ seed) ^ DIFF_MIX_K2);
}

/* Line start offsets of a buffer into a new bytes object of n + 1 int64 values. */
static PyObject *diff_offsets(const unsigned char *p, Py_ssize_t len, Py_ssize_t *lines) {
    Py_ssize_t n = count_eol(p, len, '\n');
    if (len > 0 && p[len - 1] != '\n') n++;
    if (n + 1 > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(long long)) {
        PyErr_NoMemory();
        return NULL;
    }
    PyObject *res = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(long long));
    if (res == NULL) return NULL;
    long long *off = (long long *)PyBytes_AS_STRING(res);
    Py_ssize_t k = 0, pos = 0;
    off[k++] = 0;
    while (pos < len) {
        const unsigned char *nl = memchr(p + pos, '\n', (size_t)(len - pos));
        pos = nl ? (Py_ssize_t)(nl - p) + 1 : len;
        off[k++] = pos;
    }
    *lines = n;
    return res;
}

#define DIFF_AHEAD 16
#if defined(__GNUC__) || defined(__clang__)
#define DIFF_PREFETCH(a) __builtin_prefetch((a), 1)
#else
#define DIFF_PREFETCH(a) ((void)(a))
#endif

typedef struct {
    const unsigned char *p;  /* the class's first line */
    Py_ssize_t len;
    Py_ssize_t at0;          /* its first line in file 0's region, -1 none */
} DiffClass;

static Py_ssize_t diff_many(Py_ssize_t end) {
    Py_ssize_t many = 5, tem = end / 64;
    while ((tem >>= 2) > 0) many *= 2;
    return many;
}

static PyObject *diff_classes(PyObject *self, PyObject *args) {
    Py_buffer b0, b1;
    Py_ssize_t horizon;
    int minimal;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*np", &b0, &b1, &horizon, &minimal)) return NULL;
    PyObject *offs[2] = {NULL, NULL}, *ids[2] = {NULL, NULL}, *codes[2] = {NULL, NULL};
    PyObject *result = NULL;
    unsigned long long *table = NULL;
    int *count[2] = {NULL, NULL};
    DiffClass *cls = NULL;
    const unsigned char *base[2] = {(const unsigned char *)b0.buf, (const unsigned char *)b1.buf};
    Py_ssize_t n[2];
    if (horizon < 0) horizon = 0;
    for (int f = 0; f < 2; f++) {
        offs[f] = diff_offsets(base[f], f ? b1.len : b0.len, &n[f]);
        if (offs[f] == NULL) goto done;
    }
    const long long *off0 = (const long long *)PyBytes_AS_STRING(offs[0]);
    const long long *off1 = (const long long *)PyBytes_AS_STRING(offs[1]);
#define LINE_EQ(i, j) (off0[(i) + 1] - off0[i] == off1[(j) + 1] - off1[j] \
        && memcmp(base[0] + off0[i], base[1] + off1[j], (size_t)(off0[(i) + 1] - off0[i])) == 0)
    Py_ssize_t pre = 0, suf = 0;
    while (pre < n[0] && pre < n[1] && LINE_EQ(pre, pre)) pre++;
    while (suf < n[0] - pre && suf < n[1] - pre && LINE_EQ(n[0] - 1 - suf, n[1] - 1 - suf)) suf++;
#undef LINE_EQ
    pre = pre > horizon ? pre - horizon : 0;
    suf = suf > horizon ? suf - horizon : 0;
    Py_ssize_t m[2] = {n[0] - pre - suf, n[1] - pre - suf};
    Py_ssize_t total = m[0] + m[1];
    if (total >= 0x7fffffff) {
        PyErr_SetString(PyExc_OverflowError, "too many lines");
        goto done;
    }
    for (int f = 0; f < 2; f++) {
        ids[f] = PyBytes_FromStringAndSize(NULL, m[f] * (Py_ssize_t)sizeof(int));
        codes[f] = PyByteArray_FromStringAndSize(NULL, m[f]);
        if (ids[f] == NULL || codes[f] == NULL) goto done;
    }
    /* One open-addressing table for both files: an entry is (hash's top 32 bits, class + 1);
     * a class keeps its first line (to compare with) and its first line in file 0. */
    Py_ssize_t cap = 16;
    while (cap < 2 * total) cap <<= 1;
    unsigned long long mask = (unsigned long long)cap - 1;
    table = calloc((size_t)cap, sizeof *table);
    cls = malloc((size_t)(total + 1) * sizeof *cls);
    count[0] = calloc((size_t)(total + 1), sizeof(int));
    count[1] = calloc((size_t)(total + 1), sizeof(int));
    if (!table || !cls || !count[0] || !count[1]) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t classes = 0;
    const int *id0 = (const int *)PyBytes_AS_STRING(ids[0]);
    Py_ssize_t j = 0;  /* file 1: the line of file 0 that the next line is likely to equal */
    for (int f = 0; f < 2; f++) {
        const long long *off = (const long long *)PyBytes_AS_STRING(offs[f]) + pre;
        const unsigned char *p = base[f];
        int *id = (int *)PyBytes_AS_STRING(ids[f]);
        int *cnt = count[f];
        /* file 0: hashes computed DIFF_AHEAD lines ahead and their slots prefetched, so the
         * table's cache misses overlap */
        unsigned long long ahead[DIFF_AHEAD];
        if (!f) {
            for (Py_ssize_t k = 0; k < DIFF_AHEAD && k < m[0]; k++) {
                ahead[k] = diff_hash(p + off[k], (Py_ssize_t)(off[k + 1] - off[k]));
                DIFF_PREFETCH(table + (ahead[k] & mask));
            }
        }
        for (Py_ssize_t k = 0; k < m[f]; k++) {
            const unsigned char *s = p + off[k];
            Py_ssize_t len = (Py_ssize_t)(off[k + 1] - off[k]);
            Py_ssize_t c = -1;
            unsigned long long h;
            if (!f) {
                h = ahead[k % DIFF_AHEAD];
                Py_ssize_t k2 = k + DIFF_AHEAD;
                if (k2 < m[0]) {
                    unsigned long long h2 = diff_hash(p + off[k2], (Py_ssize_t)(off[k2 + 1] - off[k2]));
                    ahead[k % DIFF_AHEAD] = h2;
                    DIFF_PREFETCH(table + (h2 & mask));
                }
            } else if (j < m[0]) {
                /* Mostly the files run in step: a line equal to the one after the last
                 * match in file 0 has its class, without a look-up. */
                Py_ssize_t l0 = (Py_ssize_t)(off0[pre + j + 1] - off0[pre + j]);
                if (l0 == len && memcmp(base[0] + off0[pre + j], s, (size_t)len) == 0) {
                    c = id0[j++];
                    id[k] = (int)c;
                    cnt[c]++;
                    continue;
                }
                h = diff_hash(s, len);
            } else {
                h = diff_hash(s, len);
            }
            unsigned long long tag = h & 0xffffffff00000000ULL;
            unsigned long long at = h & mask;
            for (;;) {
                unsigned long long e = table[at];
                if (e == 0) break;
                if ((e & 0xffffffff00000000ULL) == tag) {
                    Py_ssize_t cc = (Py_ssize_t)(e & 0xffffffffULL) - 1;
                    if (cls[cc].len == len && memcmp(cls[cc].p, s, (size_t)len) == 0) {
                        c = cc;
                        break;
                    }
                }
                at = (at + 1) & mask;
            }
            if (c < 0) {
                c = classes++;
                cls[c].p = s;
                cls[c].len = len;
                cls[c].at0 = f ? -1 : k;
                table[at] = tag | (unsigned long long)(c + 1);
            } else if (f && cls[c].at0 >= 0) {
                j = cls[c].at0 + 1;
            }
            id[k] = (int)c;
            cnt[c]++;
        }
    }
    for (int f = 0; f < 2; f++) {
        unsigned char *code = (unsigned char *)PyByteArray_AS_STRING(codes[f]);
        if (minimal) {
            memset(code, 0, (size_t)m[f]);
            continue;
        }
        const int *id = (const int *)PyBytes_AS_STRING(ids[f]);
        const int *other = count[1 - f];
        Py_ssize_t many = diff_many(m[f]);
        for (Py_ssize_t k = 0; k < m[f]; k++) {
            int c = other[id[k]];
            code[k] = c == 0 ? 1 : c > many ? 2 : 0;
        }
    }
    result = Py_BuildValue("nnOOOOOO", pre, suf, offs[0], offs[1], ids[0], ids[1],
                           codes[0], codes[1]);
done:
    for (int f = 0; f < 2; f++) {
        Py_XDECREF(offs[f]);
        Py_XDECREF(ids[f]);
        Py_XDECREF(codes[f]);
        free(count[f]);
    }
    free(table);
    free(cls);
    PyBuffer_Release(&b0);
    PyBuffer_Release(&b1);
    return result;
}


/* ---- nl: numbering a block of whole lines ------------------------------------------- */

PyDoc_STRVAR(number_lines_doc,
"number_lines(block, all, start, incr, width, flag, sep, blank) -> (bytes, next) or None\n\n"
"nl's body for a block of whole lines (each ending with a newline), no section delimiters\n"
"in it: every line (all true) or every non-empty line gets printf(\"%<flag><width>lld\",\n"
"n) and sep before it (flag 0 is none, '-' left, '0' zeros), n from start by incr; the\n"
"other lines get blank. next is the line number after the block. None when a number\n"
"would leave the 64-bit range (the caller's own path then reports GNU's overflow).");

static Py_ssize_t nl_format(char *out, long long v, int width, int flag) {
    char digits[24];
    int nd = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do { digits[nd++] = (char)('0' + u % 10); u /= 10; } while (u);
    int len = nd + (v < 0);
    Py_ssize_t o = 0;
    int pad = width > len ? width - len : 0;
    if (flag == 0) { memset(out, ' ', (size_t)pad); o += pad; }
    if (v < 0) out[o++] = '-';
    if (flag == '0') { memset(out + o, '0', (size_t)pad); o += pad; }
    while (nd) out[o++] = digits[--nd];
    if (flag == '-') { memset(out + o, ' ', (size_t)pad); o += pad; }
    return o;
}

static PyObject *number_lines(PyObject *self, PyObject *args) {
    Py_buffer buf, sep, blank;
    int all, width, flag;
    long long start, incr;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*pLLiiy*y*", &buf, &all, &start, &incr, &width, &flag, &sep, &blank))
        return NULL;
    PyObject *result = NULL;
    const char *p = (const char *)buf.buf;
    Py_ssize_t n = buf.len, lines = 0, numbered = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (p[i] == '\n') {
            lines++;
            if (all || (i > 0 && p[i - 1] != '\n')) numbered++;
        }
    }
    /* the range check: start + incr * numbered stays within 64 bits, as nl's own check */
    long long next = start;
    if (numbered) {
        __int128 last = (__int128)start + (__int128)incr * (__int128)numbered;
        if (last > LLONG_MAX || last < LLONG_MIN) goto done_none;
        next = (long long)last;
    }
    Py_ssize_t field = width > 20 ? width : 20;
    Py_ssize_t per = field + sep.len > blank.len ? field + sep.len : blank.len;
    if (width < 0 || width > (1 << 20) || lines > (PY_SSIZE_T_MAX - n) / (per + 1)) goto done_none;
    result = PyBytes_FromStringAndSize(NULL, n + lines * per);
    if (!result) goto done;
    char *out = PyBytes_AS_STRING(result);
    Py_ssize_t o = 0, ls = 0;
    long long v = start;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (p[i] != '\n') continue;
        if (all || i > ls) {
            o += nl_format(out + o, v, width, flag);
            memcpy(out + o, sep.buf, (size_t)sep.len);
            o += sep.len;
            v += incr;
        } else {
            memcpy(out + o, blank.buf, (size_t)blank.len);
            o += blank.len;
        }
        memcpy(out + o, p + ls, (size_t)(i + 1 - ls));
        o += i + 1 - ls;
        ls = i + 1;
    }
    if (_PyBytes_Resize(&result, o) < 0) { result = NULL; goto done; }
    {
        PyObject *pair = Py_BuildValue("(NL)", result, next);
        result = pair;
    }
    goto done;
done_none:
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&buf);
    PyBuffer_Release(&sep);
    PyBuffer_Release(&blank);
    return result;
}

PyDoc_STRVAR(cut_slices_doc,
"cut_slices(block, eol, slices, delim) -> bytes\n\n"
"cut -b/-c over a block of whole records, each ending with the byte eol: for every record\n"
"(without its eol) the pieces record[lo:hi] of slices (a tuple of (lo, hi) pairs, 0-based,\n"
"sorted and not overlapping, hi -1 for the end), joined with nothing (delim None) or,\n"
"leaving out empty pieces, with delim (--output-delimiter); each followed by eol.");

static PyObject *cut_slices(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int eol;
    PyObject *slices, *delim_obj;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*iO!O", &buf, &eol, &PyTuple_Type, &slices, &delim_obj))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t *lo = NULL, *hi = NULL;
    const char *delim = NULL;
    Py_ssize_t dlen = 0, ns = PyTuple_GET_SIZE(slices);
    if (delim_obj != Py_None) {
        if (!PyBytes_Check(delim_obj)) {
            PyErr_SetString(PyExc_TypeError, "delim must be bytes or None");
            goto done;
        }
        delim = PyBytes_AS_STRING(delim_obj);
        dlen = PyBytes_GET_SIZE(delim_obj);
    }
    lo = PyMem_New(Py_ssize_t, ns ? ns : 1);
    hi = PyMem_New(Py_ssize_t, ns ? ns : 1);
    if (!lo || !hi) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t k = 0; k < ns; k++) {
        PyObject *pair = PyTuple_GET_ITEM(slices, k);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "slices must be (lo, hi) pairs");
            goto done;
        }
        lo[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 0));
        hi[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 1));
        if (PyErr_Occurred()) goto done;
        if (lo[k] < 0 || (hi[k] < 0 && hi[k] != -1)) {
            PyErr_SetString(PyExc_ValueError, "slice bounds must be 0 or more (hi -1: the end)");
            goto done;
        }
    }
    {
        const char *p = (const char *)buf.buf;
        Py_ssize_t n = buf.len, records = 0;
        for (Py_ssize_t i = 0; i < n; i++) records += p[i] == (char)eol;
        /* each record gives at most its own bytes, its eol and ns - 1 delimiters */
        if (dlen && ns > 1 && records > (PY_SSIZE_T_MAX - n) / (dlen * (ns - 1))) {
            PyErr_NoMemory();
            goto done;
        }
        result = PyBytes_FromStringAndSize(NULL, n + (dlen && ns > 1 ? records * dlen * (ns - 1) : 0));
        if (!result) goto done;
        char *out = PyBytes_AS_STRING(result);
        Py_ssize_t o = 0, start = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (p[i] != (char)eol) continue;
            Py_ssize_t len = i - start;
            int wrote = 0;
            for (Py_ssize_t k = 0; k < ns; k++) {
                Py_ssize_t a = lo[k] < len ? lo[k] : len;
                Py_ssize_t b = hi[k] == -1 || hi[k] > len ? len : hi[k];
                if (b <= a) continue;
                if (delim && wrote) { memcpy(out + o, delim, (size_t)dlen); o += dlen; }
                memcpy(out + o, p + start + a, (size_t)(b - a));
                o += b - a;
                wrote = 1;
            }
            out[o++] = (char)eol;
            start = i + 1;
        }
        if (_PyBytes_Resize(&result, o) < 0) result = NULL;
    }
done:
    PyMem_Free(lo);
    PyMem_Free(hi);
    PyBuffer_Release(&buf);
    return result;
}

static PyMethodDef methods[] = {
    {"fold", fold, METH_VARARGS, fold_doc},
    {"scan", scan, METH_VARARGS, scan_doc},
    {"count_byte", count_byte, METH_VARARGS, count_byte_doc},
    {"diff_classes", diff_classes, METH_VARARGS, diff_classes_doc},
    {"number_lines", number_lines, METH_VARARGS, number_lines_doc},
    {"cut_slices", cut_slices, METH_VARARGS, cut_slices_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_linescan",
    "Optional C accelerator for grep's line scans (scan()) and wc -l's newline count\n"
    "(count_byte()), fold's loop (fold()), diff's line classes (diff_classes()) and nl's\n"
    "numbering (number_lines()) and cut -b/-c's slices (cut_slices()). The\n"
    "pure-Python path is the\n"
    "reference; this module only makes it faster.",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__linescan(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    /* diff_classes' hash key: random per process (lines are untrusted input) */
    PyObject *os = PyImport_ImportModule("os");
    PyObject *rnd = os ? PyObject_CallMethod(os, "urandom", "i", 8) : NULL;
    if (rnd && PyBytes_Check(rnd) && PyBytes_GET_SIZE(rnd) == 8)
        memcpy(&diff_seed, PyBytes_AS_STRING(rnd), 8);
    else
        diff_seed ^= (unsigned long long)(size_t)m;
    Py_XDECREF(rnd);
    Py_XDECREF(os);
    PyErr_Clear();
    if (PyModule_AddIntConstant(m, "API", 1) < 0
            || PyModule_AddIntConstant(m, "F_ICASE", F_ICASE) < 0
            || PyModule_AddIntConstant(m, "F_WORDS", F_WORDS) < 0
            || PyModule_AddIntConstant(m, "F_BOL", F_BOL) < 0
            || PyModule_AddIntConstant(m, "F_EOL", F_EOL) < 0
            || PyModule_AddIntConstant(m, "F_INVERT", F_INVERT) < 0
            || PyModule_AddIntConstant(m, "F_COUNT", F_COUNT) < 0
            || PyModule_AddIntConstant(m, "F_NUMBERS", F_NUMBERS) < 0
            || PyModule_AddIntConstant(m, "F_ONLY", F_ONLY) < 0
            || PyModule_AddIntConstant(m, "F_CHECK_UTF8", F_CHECK_UTF8) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

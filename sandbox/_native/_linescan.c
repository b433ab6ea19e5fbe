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

static PyMethodDef methods[] = {
    {"fold", fold, METH_VARARGS, fold_doc},
    {"scan", scan, METH_VARARGS, scan_doc},
    {"count_byte", count_byte, METH_VARARGS, count_byte_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_linescan",
    "Optional C accelerator for grep's line scans (scan()) and wc -l's newline count\n"
    "(count_byte()). The pure-Python path is the\n"
    "reference; this module only makes it faster.",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__linescan(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
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

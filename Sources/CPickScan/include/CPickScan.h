// Byte scanning in C: the primitive every match starts with, written with SSE2 so that it
// looks at sixteen bytes per step (fzf keeps its equivalent in assembly), and a checksum
// that runs near memory speed. Header-only and static inline, so Swift inlines them.
// (The module's umbrella header: it also brings in CPickThreads.h, the CPU affinity calls.)
#ifndef PICK_CPICKSCAN_H
#define PICK_CPICKSCAN_H
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "CPickThreads.h"

/// The index of the first byte b in p[from..<n] with (b | fold) == c, or -1. With fold 0x20
/// and c a lower-case ASCII letter this finds either case of the letter.
static inline long pick_find_byte(const uint8_t *p, long from, long n, uint8_t c, uint8_t fold) {
    long i = from;
#if defined(__SSE2__)
    if (n - i >= 16) {
        const __m128i needle = _mm_set1_epi8((char)c);
        const __m128i bits = _mm_set1_epi8((char)fold);
        while (i + 16 <= n) {
            __m128i v = _mm_or_si128(_mm_loadu_si128((const __m128i *)(p + i)), bits);
            unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, needle));
            if (mask) return i + __builtin_ctz(mask);
            i += 16;
        }
        if (i < n) {
            // The last few bytes: one load that ends at n, ignoring what was already seen.
            long t = n - 16;
            __m128i v = _mm_or_si128(_mm_loadu_si128((const __m128i *)(p + t)), bits);
            unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, needle));
            mask &= ~((1u << (i - t)) - 1u);
            if (mask) return t + __builtin_ctz(mask);
        }
        return -1;
    }
#endif
    for (; i < n; i++) {
        if ((uint8_t)(p[i] | fold) == c) return i;
    }
    return -1;
}
/// The index of the first byte in p[from..<n] that is `sep`, or `tab`, or (with high 0x80)
/// has its high bit set; n when there is none. The line loader's scan: separators end
/// lines, the first two tabs end fields, a high bit means a line is not ASCII.
static inline long pick_find_special(const uint8_t *p, long from, long n, uint8_t sep, uint8_t tab, uint8_t high) {
    long i = from;
#if defined(__SSE2__)
    const __m128i s = _mm_set1_epi8((char)sep);
    const __m128i t = _mm_set1_epi8((char)tab);
    const unsigned highs = high ? 0xFFFFu : 0u;
    while (i + 16 <= n) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, s), _mm_cmpeq_epi8(v, t)))
            | ((unsigned)_mm_movemask_epi8(v) & highs);
        if (mask) return i + __builtin_ctz(mask);
        i += 16;
    }
#endif
    for (; i < n; i++) {
        uint8_t b = p[i];
        if (b == sep || b == tab || (b & high)) return i;
    }
    return n;
}

/// A line `pick_scan_lines` found: the offset of its separator, and of its first two tabs
/// from the line's start (-1: none).
typedef struct {
    long end;
    long tab1;
    long tab2;
} pick_line_end;

/// Bit k set where byte k of q[0..<64] is `c`.
static inline uint64_t pick_equal64(const uint8_t *q, uint8_t c) {
#if defined(__SSE2__)
    const __m128i needle = _mm_set1_epi8((char)c);
    uint64_t m0 = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)q), needle));
    uint64_t m1 = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(q + 16)), needle));
    uint64_t m2 = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(q + 32)), needle));
    uint64_t m3 = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(q + 48)), needle));
    return m0 | m1 << 16 | m2 << 32 | m3 << 48;
#else
    uint64_t m = 0;
    for (int k = 0; k < 64; k++) m |= (uint64_t)(q[k] == c) << k;
    return m;
#endif
}

/// Bit k set where byte k of q[0..<64] has its high bit set.
static inline uint64_t pick_high64(const uint8_t *q) {
#if defined(__SSE2__)
    uint64_t m0 = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)q));
    uint64_t m1 = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(q + 16)));
    uint64_t m2 = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(q + 32)));
    uint64_t m3 = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(q + 48)));
    return m0 | m1 << 16 | m2 << 32 | m3 << 48;
#else
    uint64_t m = 0;
    for (int k = 0; k < 64; k++) m |= (uint64_t)(q[k] >> 7) << k;
    return m;
#endif
}

/// The ASCII lines of p[from..<n], `from` being a line's start, in bulk: sixty-four bytes
/// at a time, each kind of special byte as one mask, then one step per line. Writes up to
/// `cap` lines to `out` (with their first two tabs when `tab` differs from `sep`) and
/// returns how many; stops early at a line with a byte that has its high bit set, or at a
/// line not ended before n. `*resume` is then where the line not written starts (the
/// line loader's per-line scan, `pick_find_special`, takes it from there). One AVX-512
/// load and three compares a block where the CPU has it, two AVX2 loads and five compares
/// where it has those (order.c), this body elsewhere.
long pick_scan_lines(const uint8_t *p, long from, long n, uint8_t sep, uint8_t tab, pick_line_end *out, long cap,
                     long *resume);

/// `pick_scan_lines` with SSE2, on every CPU.
static inline long pick_scan_lines_each(const uint8_t *p, long from, long n, uint8_t sep, uint8_t tab,
                                        pick_line_end *out, long cap, long *resume) {
    long count = 0, start = from, tab1 = -1, tab2 = -1, b = from;
    const int tabs = tab != sep;
    uint8_t pad[64];
    while (b < n) {
        const uint8_t *q = p + b;
        if (n - b < 64) {
            // The last bytes, padded with spaces: no separator, tab or high bit.
            __builtin_memset(pad, ' ', 64);
            __builtin_memcpy(pad, q, (size_t)(n - b));
            q = pad;
        }
        uint64_t seps = pick_equal64(q, sep);
        uint64_t tabbed = tabs ? pick_equal64(q, tab) : 0;
        const uint64_t highs = pick_high64(q);
        while (1) {
            // The bits of the line from `start`: up to its separator, or the block's end.
            const long first = start - b;
            uint64_t span = first <= 0 ? ~0ull : first >= 64 ? 0 : ~0ull << first;
            const int ends = seps != 0;
            const int k = ends ? __builtin_ctzll(seps) : 64;
            if (k < 64) span &= (1ull << k) - 1;
            if (highs & span) goto stop;
            uint64_t t = tabbed & span;
            while (t && tab2 < 0) {
                const long at = b + __builtin_ctzll(t) - start;
                if (tab1 < 0) tab1 = at; else tab2 = at;
                t &= t - 1;
            }
            if (!ends) break;
            out[count].end = b + k;
            out[count].tab1 = tab1;
            out[count].tab2 = tab2;
            count++;
            tab1 = tab2 = -1;
            start = b + k + 1;
            seps &= seps - 1;
            if (count == cap) goto stop;
        }
        b += 64;
    }
stop:
    *resume = start;
    return count;
}

/// The lanes of `pick_checksum` at the start, from h.
static inline void pick_checksum_start(uint64_t lanes[8], uint64_t h) {
    for (int j = 0; j < 8; j++) lanes[j] = h * (2 * (uint64_t)j + 1) + 0x9e3779b97f4a7c15ull * ((uint64_t)j + 1);
}

/// `pick_checksum` from its lanes after the 64-byte blocks: the last bytes p[from..<n]
/// added to the first lane, then all mixed.
static inline uint64_t pick_checksum_end(uint64_t lanes[8], const uint8_t *p, long from, long n, uint64_t h) {
    for (long i = from; i < n; i++) lanes[0] = ((lanes[0] << 5) | (lanes[0] >> 59)) + p[i] + 1;
    uint64_t x = h ^ (uint64_t)n ^ lanes[0];
    for (int j = 1; j < 8; j++) x ^= (lanes[j] << j) | (lanes[j] >> (64 - j));
    x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
    return x;
}

/// A fast checksum of p[0..<n] continuing from h: eight lanes of rotate-and-add over
/// eight-byte words, a 64-byte block a step (no multiply in the loop). Detects accidental
/// change (a file rewritten in place), not a forger. This body runs on every CPU;
/// `pick_checksum` (order.c) gives the same sums, vectors a block where the CPU has AVX2.
static inline uint64_t pick_checksum_each(const uint8_t *p, long n, uint64_t h) {
    uint64_t lanes[8];
    pick_checksum_start(lanes, h);
    long i = 0;
    for (; i + 64 <= n; i += 64) {
        for (int j = 0; j < 8; j++) {
            uint64_t w;
            __builtin_memcpy(&w, p + i + 8 * j, 8);
            lanes[j] = ((lanes[j] << 7) | (lanes[j] >> 57)) + w;
        }
    }
    return pick_checksum_end(lanes, p, i, n, h);
}

/// `pick_checksum_each`'s sum, 64 bytes of vectors a block where the CPU has AVX2 (order.c).
uint64_t pick_checksum(const uint8_t *p, long n, uint64_t h);

/// The index of the last byte b in p[lo..<n] with (b | fold) == c, or -1 (the last match
/// first, sixteen bytes at a time).
static inline long pick_last_byte_after(const uint8_t *p, long lo, long n, uint8_t c, uint8_t fold) {
    long i = n;
#if defined(__SSE2__)
    const __m128i needle = _mm_set1_epi8((char)c);
    const __m128i bits = _mm_set1_epi8((char)fold);
    while (i - 16 >= lo) {
        __m128i v = _mm_or_si128(_mm_loadu_si128((const __m128i *)(p + i - 16)), bits);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, needle));
        if (mask) return i - 16 + 31 - __builtin_clz(mask);
        i -= 16;
    }
#endif
    while (i > lo) {
        i--;
        if ((uint8_t)(p[i] | fold) == c) return i;
    }
    return -1;
}

/// The index of the last byte b in p[0..<n] with (b | fold) == c, or -1 (sixteen bytes a
/// step). With fold 0x20 and c a lower-case ASCII letter this finds either case.
static inline long pick_last_byte(const uint8_t *p, long n, uint8_t c, uint8_t fold) {
    return pick_last_byte_after(p, 0, n, c, fold);
}

/// Where a line's file name lies, and what occurs around it (`BoundsPass.bound`).
typedef struct {
    /// One past the last '/' of the line (0: none).
    long nameStart;
    /// Whether a byte b with (b | cfold) == c occurs from nameStart on.
    int inName;
    /// The last place before nameStart of a byte b with (b | dfold) == d (-1: none).
    long before;
} pick_name_places;

/// `pick_name_places` of p[0..<n], as three backward scans would find them (the last '/',
/// the last c in the name, the last d before it), but for most paths from one look at the
/// line's last 32 bytes, where the name and the folder before it lie: the scans are left
/// for lines whose name does not fit there. `before` is looked for only with `wantsBefore`
/// and c in the name (otherwise -1).
static inline pick_name_places pick_name_places_of(const uint8_t *p, long n, uint8_t c, uint8_t cfold,
                                                   uint8_t d, uint8_t dfold, int wantsBefore) {
    pick_name_places r;
#if defined(__SSE2__)
    if (n >= 32) {
        const __m128i v0 = _mm_loadu_si128((const __m128i *)(p + n - 32));
        const __m128i v1 = _mm_loadu_si128((const __m128i *)(p + n - 16));
        const __m128i slash = _mm_set1_epi8('/');
        uint32_t slashes = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, slash))
            | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, slash)) << 16;
        if (slashes) {
            const int at = 31 - __builtin_clz(slashes);
            r.nameStart = n - 32 + at + 1;
            const __m128i cn = _mm_set1_epi8((char)c), cf = _mm_set1_epi8((char)cfold);
            uint32_t cs = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(v0, cf), cn))
                | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(v1, cf), cn)) << 16;
            r.inName = at < 31 && (cs >> (at + 1)) != 0;
            r.before = -1;
            if (r.inName && wantsBefore) {
                const __m128i dn = _mm_set1_epi8((char)d), df = _mm_set1_epi8((char)dfold);
                uint32_t ds = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(v0, df), dn))
                    | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(v1, df), dn)) << 16;
                ds &= (2u << at) - 1u; /* up to the '/' itself (d may be one); all 32 bits when at is 31 */
                r.before = ds ? n - 32 + 31 - __builtin_clz(ds) : pick_last_byte(p, n - 32, d, dfold);
            }
            return r;
        }
    }
#endif
    r.nameStart = pick_last_byte(p, n, '/', 0) + 1;
    r.inName = pick_last_byte_after(p, r.nameStart, n, c, cfold) >= 0;
    r.before = r.inName && wantsBefore ? pick_last_byte(p, r.nameStart, d, dfold) : -1;
    return r;
}

/// The index of the first byte in p[from..<n] at or below 0x20 (white space or a control
/// character), or -1.
static inline long pick_find_white(const uint8_t *p, long from, long n) {
    long i = from;
#if defined(__SSE2__)
    if (n >= 16 && i < n) {
        // Sixteen bytes a step; the last step (or the only one) is the load that ends at n,
        // ignoring what was already seen.
        const __m128i limit = _mm_set1_epi8(0x20);
        while (i + 16 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
            unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, limit), v));
            if (mask) return i + __builtin_ctz(mask);
            i += 16;
        }
        if (i < n) {
            long t = n - 16;
            __m128i v = _mm_loadu_si128((const __m128i *)(p + t));
            unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, limit), v));
            mask &= ~((1u << (i - t)) - 1u);
            if (mask) return t + __builtin_ctz(mask);
        }
        return -1;
    }
#endif
    for (; i < n; i++) {
        if (p[i] <= 0x20) return i;
    }
    return -1;
}

/// How many leading bytes a[0..<n] and b[0..<n] share: the shared-prefix scorer's first step.
static inline long pick_common_prefix(const uint8_t *a, const uint8_t *b, long n) {
    long i = 0;
#if defined(__SSE2__)
    while (i + 16 <= n) {
        __m128i x = _mm_loadu_si128((const __m128i *)(a + i));
        __m128i y = _mm_loadu_si128((const __m128i *)(b + i));
        unsigned differ = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) ^ 0xFFFFu;
        if (differ) return i + __builtin_ctz(differ);
        i += 16;
    }
#endif
    while (i < n && a[i] == b[i]) i++;
    return i;
}

/// Bit k set where sets[k] holds every bit of `required`, for k in 0..<64: which of 64
/// lines hold a query's characters (`LineStore.characterSets`), four lines a step, so that
/// a search passes over the others without looking at them one by one.
static inline uint64_t pick_holding64(const uint32_t *sets, uint32_t required) {
    uint64_t bits = 0;
#if defined(__SSE2__)
    const __m128i r = _mm_set1_epi32((int)required);
    for (int k = 0; k < 64; k += 4) {
        __m128i v = _mm_and_si128(_mm_loadu_si128((const __m128i *)(sets + k)), r);
        uint64_t held = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, r)));
        bits |= held << k;
    }
#else
    for (int k = 0; k < 64; k++) bits |= (uint64_t)((sets[k] & required) == required) << k;
#endif
    return bits;
}

/// Asks for the first bytes of the lines of `bits` (line k ends at base + records[2k], and
/// but for the first, which starts at base + first, starts one byte after the line before):
/// a narrowed word's lines lie apart, and each would wait in turn.
static inline void pick_prefetch_first_bytes(const uint8_t *base, const uint32_t *records, uint32_t first,
                                             uint64_t bits) {
    for (uint64_t b = bits; b; b &= b - 1) {
        int k = __builtin_ctzll(b);
        __builtin_prefetch(base + (k == 0 ? first : records[2 * k - 2] + 1));
    }
}

/// Whether the bytes t[0..<m] occur in order in p[0..<n], a byte b standing for t[k] when
/// (b | folds[k]) == t[k]: the greedy subsequence check, sixteen bytes a step.
static inline int pick_holds_in_order(const uint8_t *p, long n, const uint8_t *t, const uint8_t *folds, long m) {
    long at = 0;
    for (long k = 0; k < m; k++) {
        long found = pick_find_byte(p, at, n, t[k], folds[k]);
        if (found < 0) return 0;
        at = found + 1;
    }
    return 1;
}

#if defined(__SSE2__)
/// `pick_holds_in_order` with the term's bytes and fold bits already in vectors (tv, fv):
/// each sixteen bytes are loaded once, and every character of the term found in them is
/// taken before the next load. Lines under sixteen bytes go byte by byte.
static inline int pick_holds_in_order_v(const uint8_t *p, long n, const uint8_t *t, const uint8_t *folds,
                                        const __m128i *tv, const __m128i *fv, long m) {
    if (n < 16) {
        long k = 0;
        for (long i = 0; i < n && k < m; i++) if ((uint8_t)(p[i] | folds[k]) == t[k]) k++;
        return k == m;
    }
    long k = 0, at = 0;
    for (long i = 0; i < n; i += 16) {
        // The last step is the load that ends at n; what it repeats lies before `at`.
        long base = i + 16 <= n ? i : n - 16;
        __m128i v = _mm_loadu_si128((const __m128i *)(p + base));
        while (1) {
            unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(v, fv[k]), tv[k]));
            mask &= at > base ? ~((1u << (at - base)) - 1u) : ~0u;
            if (!mask) break;
            at = base + __builtin_ctz(mask) + 1;
            if (++k == m) return 1;
        }
    }
    return 0;
}
#endif

/// `bits` without the lines that do not hold t[0..<m] in order (`pick_holds_in_order`), for
/// 64 lines that lie one after another in adopted memory: line k ends at base + records[2k]
/// and, but for the first (which starts at base + first), starts one byte after the line
/// before ends (`CompactRecord`: end, extra). A line whose extra is neither 0 nor packed
/// (bit 31: it has folded text of its own) is kept unchecked. The lines' first bytes are
/// asked for first: a narrowed word's lines lie apart, and each would wait in turn.
static inline uint64_t pick_in_order64(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                                       const uint8_t *t, const uint8_t *folds, long m) {
    uint64_t kept = bits;
    if (__builtin_popcountll(bits) < 48) {
        pick_prefetch_first_bytes(base, records, first, bits);
    }
#if defined(__SSE2__)
    __m128i tv[64], fv[64];
    const int vectors = m <= 64;
    if (vectors) {
        for (long k = 0; k < m; k++) {
            tv[k] = _mm_set1_epi8((char)t[k]);
            fv[k] = _mm_set1_epi8((char)folds[k]);
        }
    }
#endif
    for (uint64_t b = bits; b; b &= b - 1) {
        int k = __builtin_ctzll(b);
        uint32_t extra = records[2 * k + 1];
        if (extra != 0 && !(extra & 0x80000000u)) continue;
        uint32_t start = k == 0 ? first : records[2 * k - 2] + 1;
        const uint8_t *line = base + start;
        long n = (long)(records[2 * k] - start);
#if defined(__SSE2__)
        int holds = vectors ? pick_holds_in_order_v(line, n, t, folds, tv, fv, m) : pick_holds_in_order(line, n, t, folds, m);
#else
        int holds = pick_holds_in_order(line, n, t, folds, m);
#endif
        if (!holds) kept &= ~(1ull << k);
    }
    return kept;
}

/// `bits` without the lines that do not hold each of `terms` terms in order (term t is
/// bytes[starts[t]..<starts[t + 1]], with its fold bits), the lines lying as for
/// `pick_in_order64`: that check for every term (order.c), sixty-four bytes a step where
/// the CPU has AVX2 or AVX-512.
uint64_t pick_in_order64_all(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                             const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms);

/// The left-most greedy placement of term[0..<m], each a one-byte character, in
/// text[0..<n]: byte b is taken for term[k] when (b | fold) == term[k], fold being 0x20 for
/// a letter a-z when `folds` (ASCII case folded on the fly). Writes each character's place
/// to places[0..<m] and returns 1; 0 when the term is not a subsequence (places then
/// undefined). Sixty-four bytes a step where the CPU has AVX2 (order.c).
int pick_greedy_places(const uint8_t *text, long n, const uint8_t *term, long m, int folds, long *places);

/// `pick_greedy_places` sixteen bytes a step, on every CPU.
static inline int pick_greedy_places_each(const uint8_t *text, long n, const uint8_t *term, long m, int folds,
                                          long *places) {
    long at = 0;
    for (long k = 0; k < m; k++) {
        const uint8_t c = term[k];
        at = pick_find_byte(text, at, n, c, folds && (uint8_t)(c - 0x61) < 26 ? 0x20 : 0);
        if (at < 0) return 0;
        places[k] = at++;
    }
    return 1;
}

/// `pick_in_order64_all`, each line of up to 128 bytes checked without a branch per
/// character where the CPU has AVX2: faster where the branches are a toss-up (terms found
/// anywhere in the lines), slower where they are not (`CandidateCursor` times both).
uint64_t pick_in_order64_all_branch_free(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                                         const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms);

/// Makes the bodies with vectors (order.c) use at most AVX-512 (level 2), AVX2 (1) or SSE2
/// (0), for tests that compare every body this CPU runs; returns the level now in use (the
/// lower of this and what the CPU runs). Level 2 by default.
int pick_limit_vectors(int level);

/// A cycle count (the time-stamp counter; elsewhere nanoseconds), for comparing two ways to
/// do the same work.
uint64_t pick_cycles(void);

/// `pick_in_order64_all` sixteen bytes a step on every CPU: `pick_in_order64` term by term
/// (what CPUs without AVX2 run; tests compare the two).
uint64_t pick_in_order64_each(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                              const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms);

/// What `pick_extend_bound64` needs of a search's bounds (`BoundsPass`): the values of every
/// line (indexed by line), the term's bytes and fold bits (the first `kept` the earlier
/// term's), the weights a bound is made of, and the worker's histogram of bounds.
typedef struct {
    uint16_t *ends;
    int16_t *bases;
    int16_t *scores;
    const uint8_t *bytes;
    const uint8_t *folds;
    long m;
    long kept;
    int32_t match;
    int32_t boundaryWhite;
    int32_t boundaryDelimiter;
    int32_t lastComponent;
    long *histogram;
    long levels;
    /// For `pick_record_one64`: each byte's character class, the bonus of a class after a
    /// class (previous << 3 | current), and the first character's multiplier.
    const uint8_t *classes;
    const int32_t *bonuses;
    int32_t firstCharMultiplier;
    /// For `pick_extend_bound64` on a large input (NULL: none): each line's rest and name as
    /// `pick_note_rest` leaves them, and the bits of the added character (in a rest, in a
    /// name) when a key adds one letter to a term that folds case (0: none), which a line
    /// with a fresh rest is checked and bounded from without reading its bytes.
    uint32_t *rests;
    const uint16_t *names;
    uint32_t letter;
    uint16_t nameLetter;
} pick_bounds_step;

/// The bits of a line's rest (`pick_bounds_step.rests`): the letters (bit k: 'a' + k, either
/// case) from where its match of the bounds' term ends; above them the gap from the last
/// place of the term's last character before the line's file name to the name's start
/// (`PICK_REST_NO_GAP`: none, or too long for the bound to use); `PICK_REST_FRESH` when these
/// and its name are of that end; `PICK_REST_PENDING` when its end lacks the term's last
/// character (a key checked it from its rest, which does not tell where the character lies).
#define PICK_REST_LETTERS 0x03FFFFFFu
#define PICK_REST_GAP_SHIFT 26
#define PICK_REST_NO_GAP 7u
#define PICK_REST_PENDING 0x40000000u
#define PICK_REST_FRESH 0x80000000u

/// The bit of letter k ('a' + k) in a line's name (`pick_bounds_step.names`: the letters of
/// its file name, from its last '/' on, in sixteen bits): the six letters most file names
/// hold alone, each other common one with a rare one (paths 1M: p t e c o i in 58-66% of
/// names; q j w x k f v z b u in 2-30%). A rare letter's bit also set by its partner only
/// leaves a bound looser, never wrong.
static inline uint16_t pick_name_bit(int k) {
    static const uint8_t bits[26] = {
        /* a */ 8, /* b */ 14, /* c */ 3, /* d */ 14, /* e */ 2, /* f */ 11, /* g */ 13, /* h */ 12, /* i */ 5,
        /* j */ 7, /* k */ 10, /* l */ 10, /* m */ 15, /* n */ 6, /* o */ 4, /* p */ 0, /* q */ 6, /* r */ 11,
        /* s */ 7, /* t */ 1, /* u */ 15, /* v */ 12, /* w */ 8, /* x */ 9, /* y */ 9, /* z */ 13};
    return (uint16_t)(1u << bits[k]);
}

/// The letter bits (`letters`: each byte's, as `CharacterSets.table`) of p[from..<to].
static inline uint32_t pick_letters(const uint8_t *p, long from, long to, const uint32_t *letters) {
    // (Two accumulators: the loads, not the ors, set the pace.)
    uint32_t a = 0, b = 0;
    long k = from;
    for (; k + 2 <= to; k += 2) { a |= letters[p[k]]; b |= letters[p[k + 1]]; }
    if (k < to) a |= letters[p[k]];
    return (a | b) & PICK_REST_LETTERS;
}

/// Notes a line's rest and name (above) for the bounds' term whose leftmost match in
/// line[0..<n] ends at `end` and whose last character is d (folded by dfold), as the next
/// key's `pick_extend_bound64` reads them: every letter after the end, every letter of the
/// name, and the gap its bound charges when the new character lies in the name and the
/// match came from before it (a gap longer than `lastComponent` less 2 raises no bound).
/// `letters`: each byte's bits (`CharacterSets.table`).
static inline void pick_note_rest(const uint8_t *line, long n, long end, uint8_t d, uint8_t dfold,
                                  const uint32_t *letters, int32_t lastComponent, uint32_t *rest, uint16_t *name) {
    const long nameStart = pick_last_byte(line, n, '/', 0) + 1;
    const uint32_t named = pick_letters(line, nameStart, n, letters);
    const uint32_t r = end < nameStart ? named | pick_letters(line, end, nameStart, letters)
                                       : pick_letters(line, end, n, letters);
    uint16_t folded = 0;
    for (uint32_t m = named; m; m &= m - 1) folded |= pick_name_bit(__builtin_ctz(m));
    const long before = pick_last_byte(line, nameStart, d, dfold);
    const long gap = before < 0 ? (long)PICK_REST_NO_GAP : nameStart - before - 1;
    const long noted = gap < (long)PICK_REST_NO_GAP && gap + 2 <= lastComponent ? gap : (long)PICK_REST_NO_GAP;
    *rest = r | (uint32_t)noted << PICK_REST_GAP_SHIFT | PICK_REST_FRESH;
    *name = folded;
}

static inline int16_t pick_clamp16(int32_t x) { return x > 32767 ? 32767 : x < -32768 ? -32768 : (int16_t)x; }

/// The bound of a line whose term gained one character that lies in its file name
/// (`BoundsPass.bound`): the highest of `bound` (the old base plus the gain), the old score
/// plus the gain (the row above ended in the name), and the old base plus the gain and
/// `lastComponent` less the cost of the gap of `gap` characters from the old last character's
/// last place before the name (gap < 0: it has none there).
static inline int32_t pick_named_bound(int32_t bound, int32_t oldScore, int32_t gain, long gap,
                                       int32_t lastComponent) {
    int32_t score = bound;
    const int32_t above = oldScore + gain;
    if (above > score) score = above;
    if (gap >= 0) {
        // (A gap of g characters costs 3 + (g - 1).)
        const int32_t crossed = bound + lastComponent - (gap > 0 ? (int32_t)gap + 2 : 0);
        if (crossed > score) score = crossed;
    }
    return score;
}

/// `pick_extend_bound64`'s check and bound of the lines of `bits` (line k: index start + k)
/// whose rests are fresh, for a key that adds one letter (`s->letter`), a line at a time: the
/// letter after the end, and whether it lies in the name, from what was noted while idle; the
/// bound as `pick_extend_bound64` makes it, without a look at the line. A line that matches
/// keeps its new base and bound, its bound counted in the histogram, its end left pending, its
/// bit set in *found. Returns the lines it took (those with fresh rests; a line with a fresh
/// rest holds a known end and a record without extras).
static inline uint64_t pick_extend_rests64_each(uint64_t bits, long start, const pick_bounds_step *s,
                                                uint64_t *found) {
    uint64_t handled = 0, matched = 0;
    for (uint64_t b = bits; b; b &= b - 1) {
        const int k = __builtin_ctzll(b);
        const long i = start + k;
        const uint32_t r = s->rests[i];
        if (!(r & PICK_REST_FRESH)) continue;
        handled |= 1ull << k;
        if (!(r & s->letter)) continue;
        const uint16_t e = s->ends[i];
        const int32_t gain = s->match + ((e & 0x8000) ? s->boundaryWhite : s->boundaryDelimiter);
        const int32_t bound = s->bases[i] + gain;
        int32_t score = bound;
        if (s->names[i] & s->nameLetter) {
            const uint32_t gap = (r >> PICK_REST_GAP_SHIFT) & PICK_REST_NO_GAP;
            score = pick_named_bound(bound, s->scores[i], gain, gap == PICK_REST_NO_GAP ? -1 : (long)gap,
                                     s->lastComponent);
        }
        if (score < 1) score = 1;
        s->rests[i] = PICK_REST_PENDING;
        s->bases[i] = pick_clamp16(bound);
        s->scores[i] = pick_clamp16(score);
        s->histogram[score < s->levels - 1 ? score : s->levels - 1] += 1;
        matched |= 1ull << k;
    }
    *found |= matched;
    return handled;
}

/// `pick_extend_rests64_each`, sixteen lines a step where the CPU runs AVX-512 (order.c).
uint64_t pick_extend_rests64(uint64_t bits, long start, const pick_bounds_step *s, uint64_t *found);

/// `BoundsPass.extendedEnd`, `bound` and `keep` for the lines of `bits` (line k: index
/// start + k, lying in adopted memory as for `pick_in_order64`) that hold values to go on
/// from (extra 0, an end that is not unknown; the caller leaves out lines past the bounds'
/// lines): each is checked for the added characters from where the earlier term's match
/// ended; one that still matches has its new end, base and bound kept, its bound counted in
/// the histogram and its bit set in *matched; one that does not is dropped. Returns the lines
/// of `bits` left for the caller (those that hold no values), and adds to *count the lines
/// bounded. The lines' first bytes are asked for first, as in `pick_in_order64`. With rests
/// (a large input), a line whose rest is fresh is checked for an added letter and bounded
/// from its rest and name alone, its end left pending (paths 10M: 5 ns a line against 20,
/// bench/NOTES.md); a pending end is gone on from with the earlier term's last character.
static inline uint64_t pick_extend_bound64(const uint8_t *base, const uint32_t *records, uint32_t first,
                                           uint64_t bits, long start, const pick_bounds_step *s,
                                           uint64_t *matched, long *count) {
    uint64_t left = 0, found = 0;
    const long m = s->m, kept = s->kept, added = m - kept;
    // (Lines with fresh rests, checked from them, hold a known end and records without extras.)
    if (s->rests && s->letter && added == 1) bits &= ~pick_extend_rests64(bits, start, s, &found);
    // (Only lines lying apart are asked for: for a word of mostly adjacent lines the hardware
    // streams them, and 64 requests at once stalled on the CPU's few line-fill buffers.)
    if (__builtin_popcountll(bits) <= 16) {
        pick_prefetch_first_bytes(base, records, first, bits);
    }
    for (uint64_t b = bits; b; b &= b - 1) {
        const int k = __builtin_ctzll(b);
        const long i = start + k;
        const uint16_t e = s->ends[i];
        if (records[2 * k + 1] != 0 || (e & 0x7FFF) == 0x7FFF) {
            left |= 1ull << k;
            continue;
        }
        uint32_t *rest = s->rests ? s->rests + i : NULL;
        const uint32_t r = rest ? *rest : 0;
        const uint32_t from = k == 0 ? first : records[2 * k - 2] + 1;
        const uint8_t *line = base + from;
        const long n = (long)(records[2 * k] - from);
        long at = e & 0x7FFF;
        // (A pending end lacks the earlier term's last character.)
        long q = (r & PICK_REST_PENDING) ? kept - 1 : kept;
        for (; q < m; q++) {
            long f = pick_find_byte(line, at, n, s->bytes[q], s->folds[q]);
            if (f < 0) break;
            at = f + 1;
        }
        if (q < m) continue;
        const int32_t gain = s->match + ((e & 0x8000) ? s->boundaryWhite : s->boundaryDelimiter);
        const int32_t oldBase = s->bases[i];
        const int32_t bound = oldBase + gain * (int32_t)added;
        int32_t score = bound;
        pick_name_places places = pick_name_places_of(line, n, s->bytes[m - 1], s->folds[m - 1], s->bytes[kept - 1],
                                                      s->folds[kept - 1], added == 1);
        if (places.inName) {
            if (added == 1) {
                score = pick_named_bound(bound, s->scores[i], gain,
                                         places.before >= 0 ? places.nameStart - places.before - 1 : -1,
                                         s->lastComponent);
            } else {
                score = bound + s->lastComponent;
            }
        }
        if (score < 1) score = 1;
        if (rest) *rest = 0;
        s->ends[i] = (uint16_t)((e & 0x8000) | (at < 0x7FFF ? (uint16_t)at : 0x7FFF));
        s->bases[i] = pick_clamp16(bound);
        s->scores[i] = pick_clamp16(score);
        s->histogram[score < s->levels - 1 ? score : s->levels - 1] += 1;
        found |= 1ull << k;
    }
    *matched |= found;
    *count += __builtin_popcountll(found);
    return left;
}

/// What a place `at` of a first key's character in `line` scores before `lastComponent`: a
/// match, and the bonus of its class after the class before it (white at the line's start)
/// times the first character's multiplier.
static inline int32_t pick_place_score(const uint8_t *line, long at, const pick_bounds_step *s) {
    const uint8_t previous = at == 0 ? 0 /* white */ : s->classes[line[at - 1]];
    return s->match + s->bonuses[previous << 3 | s->classes[line[at]]] * s->firstCharMultiplier;
}

/// `pick_record_one64`'s values for one line (line[0..<n], index i) whose first place of the
/// character is `at`, from all its places: the whole line read.
static inline void pick_record_one_whole(const uint8_t *line, long n, long at, long i, int white,
                                         const pick_bounds_step *s) {
    const uint8_t c = s->bytes[0], fold = s->folds[0];
    const long end = at + 1;
    const long nameStart = pick_last_byte(line, n, '/', 0) + 1;
    int32_t best = 0, bestBase = 0;
    while (at >= 0) {
        const int32_t score = pick_place_score(line, at, s);
        if (score > bestBase) bestBase = score;
        const int32_t named = at >= nameStart ? score + s->lastComponent : score;
        if (named > best) best = named;
        at = pick_find_byte(line, at + 1, n, c, fold);
    }
    if (best < 1) best = 1;
    s->ends[i] = (uint16_t)((white ? 0x8000 : 0) | end);
    s->bases[i] = pick_clamp16(bestBase);
    s->scores[i] = pick_clamp16(best);
    s->histogram[best < s->levels - 1 ? best : s->levels - 1] += 1;
}

/// The values a term of one character (t[0], the term's first key) leaves for the lines of
/// `bits` (as for `pick_extend_bound64`), without scoring them: where its leftmost match ends
/// (exact), whether a bonus in the line can reach 10 (as `BoundsPass.record` finds it: white
/// space in the line, bit `whiteSet` of its character set in `sets`, or a first byte that
/// starts a word), and for base and bound the best the character can score at its places (a
/// match, its bonus times the first character's multiplier, and for the bound
/// `lastComponent` at places from the last '/' on): at least what the scorer gives the line.
/// The line's head (up to its first place) and its last 64 bytes, where the name lies, are
/// read; places in between count as the most a place can score, which the bound of a
/// first screen's top never needs (bench/NOTES.md: the whole line read took half as long
/// again). A line whose name does not fit there is read whole, as are all lines when `sets`
/// is NULL (their characters not noted). The bounds are counted in the histogram and the
/// lines set in *matched; lines without the character are dropped. Lines with records of
/// their own (extra not 0), or too long for `ends`, are left to the caller.
static inline uint64_t pick_record_one64(const uint8_t *base, const uint32_t *records, uint32_t first,
                                         uint64_t bits, long start, const pick_bounds_step *s,
                                         uint64_t *matched, long *count, const uint32_t *sets, uint32_t whiteSet) {
    uint64_t left = 0, found = 0;
    const uint8_t c = s->bytes[0], fold = s->folds[0];
    const uint8_t *classes = s->classes;
#if defined(__SSE2__)
    const __m128i needle16 = _mm_set1_epi8((char)c), folds16 = _mm_set1_epi8((char)fold);
    const __m128i slash16 = _mm_set1_epi8('/');
#endif
    // (Only lines lying apart are asked for: for a word of mostly adjacent lines the hardware
    // streams them, and 64 requests at once stalled on the CPU's few line-fill buffers.)
    if (__builtin_popcountll(bits) <= 16) {
        pick_prefetch_first_bytes(base, records, first, bits);
    }
    for (uint64_t b = bits; b; b &= b - 1) {
        const int k = __builtin_ctzll(b);
        const long i = start + k;
        const uint32_t from = k == 0 ? first : records[2 * k - 2] + 1;
        const uint8_t *line = base + from;
        const long n = (long)(records[2 * k] - from);
        if (records[2 * k + 1] != 0 || n >= 0x7FFF) {
            left |= 1ull << k;
            continue;
        }
        const long at0 = pick_find_byte(line, 0, n, c, fold);
        if (at0 < 0) continue;
        found |= 1ull << k;
        const int startsWord = classes[line[0]] >= 3 /* lower: a word */;
        if (!sets || n < 16) {
            pick_record_one_whole(line, n, at0, i, startsWord || pick_find_white(line, 0, n) >= 0, s);
            continue;
        }
        const int white = startsWord || (sets[k] & whiteSet) != 0;
#if defined(__SSE2__)
        // The line's last 16, 32 or 64 bytes: the last '/' and the character's places there.
        const long w = n >= 64 ? 64 : n >= 32 ? 32 : 16;
        const long o = n - w;
        uint64_t slashes = 0, places = 0;
        for (long j = 0; j < w; j += 16) {
            const __m128i v = _mm_loadu_si128((const __m128i *)(line + o + j));
            slashes |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, slash16)) << j;
            places |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(v, folds16), needle16)) << j;
        }
        if (!slashes) {
            pick_record_one_whole(line, n, at0, i, white, s);
            continue;
        }
        const int slashAt = 63 - __builtin_clzll(slashes);
        const uint64_t named = slashAt == 63 ? 0 : places >> (slashAt + 1) << (slashAt + 1);
        // (The first place is scored below; the window's places from it on are the others.)
        if (at0 >= o) places &= ~((2ull << (at0 - o)) - 1);
        int32_t bestBase = pick_place_score(line, at0, s);
        int32_t best = at0 >= o + slashAt + 1 ? bestBase + s->lastComponent : bestBase;
        // Bytes between the first place and the window, not read, may hold places scoring the most.
        if (o > at0 + 1) {
            const int32_t most = s->match + (white ? s->boundaryWhite : s->boundaryDelimiter) * s->firstCharMultiplier;
            if (most > bestBase) bestBase = most;
        }
        for (uint64_t m = places; m; m &= m - 1) {
            const long at = o + __builtin_ctzll(m);
            const int32_t score = pick_place_score(line, at, s);
            if (score > bestBase) bestBase = score;
            const int32_t scored = (named >> (at - o)) & 1 ? score + s->lastComponent : score;
            if (scored > best) best = scored;
        }
        if (bestBase > best) best = bestBase;
        if (best < 1) best = 1;
        s->ends[i] = (uint16_t)((white ? 0x8000 : 0) | (at0 + 1));
        s->bases[i] = pick_clamp16(bestBase);
        s->scores[i] = pick_clamp16(best);
        s->histogram[best < s->levels - 1 ? best : s->levels - 1] += 1;
#else
        pick_record_one_whole(line, n, at0, i, white, s);
#endif
    }
    *matched |= found;
    *count += __builtin_popcountll(found);
    return left;
}

/// The lines of `bits` (line k: scores[k]) whose score is at least `least`: a first screen's
/// rounds pick the bounded lines worth scoring from every line matched, and a bit at a time
/// that look cost as much as bounding them (bench/NOTES.md). Reads all 64 scores: the caller's
/// array holds whole words.
static inline uint64_t pick_scores_at_least64(const int16_t *scores, uint64_t bits, int16_t least) {
    if (!bits) return 0;
#if defined(__SSE2__)
    const __m128i below = _mm_set1_epi16((short)(least - 1));
    uint64_t mask = 0;
    for (int j = 0; j < 4; j++) {
        const __m128i a = _mm_cmpgt_epi16(_mm_loadu_si128((const __m128i *)(scores + 16 * j)), below);
        const __m128i b = _mm_cmpgt_epi16(_mm_loadu_si128((const __m128i *)(scores + 16 * j + 8)), below);
        mask |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_packs_epi16(a, b)) << (16 * j);
    }
    return bits & mask;
#else
    uint64_t kept = 0;
    for (uint64_t b = bits; b; b &= b - 1) {
        const int k = __builtin_ctzll(b);
        if (scores[k] >= least) kept |= 1ull << k;
    }
    return kept;
#endif
}

/// The lines of `bits` (line k: scores[k], ends[k], its record as for `pick_extend_bound64`)
/// worth scoring in a first screen's second round, ranked by score then by length: all but
/// those bounded at exactly `least` without white space (bit 0x8000 of their end clear: their
/// length is their bytes) and longer than `longest`, which rank below the threshold however
/// they score. At paths 10M nearly every line of `us` is bounded at the threshold, and
/// looking at each in turn cost half as much again as bounding them (bench/NOTES.md).
static inline uint64_t pick_worth_scoring64(const int16_t *scores, const uint16_t *ends, const uint32_t *records,
                                            uint32_t first, uint64_t bits, int16_t least, long longest) {
    uint64_t kept = bits;
    for (uint64_t b = bits; b; b &= b - 1) {
        const int k = __builtin_ctzll(b);
        if (scores[k] != least || (ends[k] & 0x8000)) continue;
        const uint32_t from = k == 0 ? first : records[2 * k - 2] + 1;
        if ((long)(records[2 * k] - from) > longest) kept &= ~(1ull << k);
    }
    return kept;
}

/// Asks the CPU to start loading the cache line at p (no fault, no effect on the result).
static inline void pick_prefetch(const void *p) { __builtin_prefetch(p); }

#endif

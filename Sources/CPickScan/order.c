// The in-order check of a word of lines against every whole-line term of a query
// (`pick_in_order64_all`, CPickScan.h), a key's check of lines from their rests
// (`pick_extend_rests64`), the line loader's scan, the checksum and the greedy placement,
// compiled here rather than inlined into Swift: each has a body for CPUs with AVX2 and one
// for CPUs with AVX-512 (most have AVX2; AMD's before Zen 4 and Intel's desktop parts since
// 2021 have no AVX-512), chosen when it first runs, and the SSE2 body of the header elsewhere.
#include "CPickScan.h"
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// The widest vectors this CPU and its kernel run: 2 with AVX-512 F, BW and VL (the kernel
/// saving the mask and ZMM state), 1 with AVX2 (the kernel saving YMM state), else 0.
static int detected_level(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !(c & (1u << 28))) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 0x6) != 0x6 || !__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 5))) return 0;
    if ((lo & 0xE6) == 0xE6 && (b & (1u << 16)) && (b & (1u << 30)) && (b & (1u << 31))) return 2;
    return 1;
}

static int level_limit = 2;

/// The vectors the bodies below use: what the CPU runs, at most `pick_limit_vectors`'s.
static int vector_level(void) {
    static int known = -1;
    int value = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (value < 0) {
        value = detected_level();
        __atomic_store_n(&known, value, __ATOMIC_RELAXED);
    }
    const int limit = __atomic_load_n(&level_limit, __ATOMIC_RELAXED);
    return value < limit ? value : limit;
}

static int has_avx512bw(void) { return vector_level() >= 2; }
static int has_avx2(void) { return vector_level() >= 1; }

int pick_limit_vectors(int level) {
    __atomic_store_n(&level_limit, level, __ATOMIC_RELAXED);
    return vector_level();
}

/// Sixty-four bytes from p as two vectors, the first `avail` of them p's (bytes past those
/// are anything), as a mask of the bytes that are p's. Never reads a page the bytes do not
/// lie on: a short block that would reach past its page is copied first.
__attribute__((target("avx2")))
static inline uint64_t load64_256(const uint8_t *p, long avail, __m256i *v0, __m256i *v1) {
    if (avail >= 64 || ((uintptr_t)p & 4095) <= 4096 - 64) {
        *v0 = _mm256_loadu_si256((const __m256i *)p);
        *v1 = _mm256_loadu_si256((const __m256i *)(p + 32));
    } else {
        uint8_t pad[64];
        __builtin_memset(pad, 0, 64);
        __builtin_memcpy(pad, p, (size_t)avail);
        *v0 = _mm256_loadu_si256((const __m256i *)pad);
        *v1 = _mm256_loadu_si256((const __m256i *)(pad + 32));
    }
    return avail >= 64 ? ~0ull : (1ull << avail) - 1;
}

/// Bit k set where byte k of the block (v0, v1) or'ed with f equals t.
__attribute__((target("avx2")))
static inline uint64_t equal64_256(__m256i v0, __m256i v1, __m256i f, __m256i t) {
    const uint32_t a = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_or_si256(v0, f), t));
    const uint32_t b = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_or_si256(v1, f), t));
    return a | (uint64_t)b << 32;
}

/// Whether a line of up to 128 bytes holds each term in order, without a branch per
/// character: the line is two blocks, each character's places in them two masks, and the
/// places still open after the character before two more (every place past the lowest one
/// taken; none once a character is missing).
__attribute__((target("avx512f,avx512bw")))
static inline int short_in_order_512(const uint8_t *line, long n, const __m512i *tv, const __m512i *fv,
                                     const long *starts, long terms) {
    const uint64_t in0 = n >= 64 ? ~0ull : (1ull << n) - 1;
    const uint64_t in1 = n <= 64 ? 0 : n >= 128 ? ~0ull : (1ull << (n - 64)) - 1;
    const __m512i v0 = _mm512_maskz_loadu_epi8(in0, line);
    const __m512i v1 = _mm512_maskz_loadu_epi8(in1, line + 64);
    for (long t = 0; t < terms; t++) {
        uint64_t open0 = in0, open1 = in1, m0 = 0, m1 = 0;
        for (long q = starts[t]; q < starts[t + 1]; q++) {
            m0 = _mm512_mask_cmpeq_epi8_mask(open0, _mm512_or_si512(v0, fv[q]), tv[q]);
            m1 = _mm512_mask_cmpeq_epi8_mask(open1, _mm512_or_si512(v1, fv[q]), tv[q]);
            // Taken in the first block: the rest of it and all of the second stay open.
            // Else taken in the second, or nowhere (then nothing stays open).
            open0 &= ~(m0 ^ (m0 - 1));
            open1 = m0 ? open1 : open1 & ~(m1 ^ (m1 - 1));
        }
        if (!(m0 | m1)) return 0;
    }
    return 1;
}

/// `pick_in_order64_all` sixty-four bytes a step: each block of a line is loaded once (the
/// last one masked to the line, so nothing past it is read), and every character of the
/// term found in it is taken, one compare each, before the next block.
__attribute__((target("avx512f,avx512bw")))
static uint64_t in_order64_512(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                               const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms,
                               int branch_free) {
    if (__builtin_popcountll(bits) < 48) pick_prefetch_first_bytes(base, records, first, bits);
    const long total = starts[terms];
    __m512i tv[64], fv[64];
    for (long q = 0; q < total; q++) {
        tv[q] = _mm512_set1_epi8((char)bytes[q]);
        fv[q] = _mm512_set1_epi8((char)folds[q]);
    }
    uint64_t kept = bits;
    for (uint64_t b = bits; b; b &= b - 1) {
        const int k = __builtin_ctzll(b);
        const uint32_t extra = records[2 * k + 1];
        if (extra != 0 && !(extra & 0x80000000u)) continue;
        const uint32_t start = k == 0 ? first : records[2 * k - 2] + 1;
        const uint8_t *line = base + start;
        const long n = (long)(records[2 * k] - start);
        if (branch_free && n <= 128) {
            if (!short_in_order_512(line, n, tv, fv, starts, terms)) kept &= ~(1ull << k);
            continue;
        }
        for (long t = 0; t < terms; t++) {
            long q = starts[t];
            const long end = starts[t + 1];
            for (long i = 0; i < n && q < end; i += 64) {
                const uint64_t in = n - i >= 64 ? ~0ull : (1ull << (n - i)) - 1;
                const __m512i v = _mm512_maskz_loadu_epi8(in, line + i);
                uint64_t open = in;
                while (q < end) {
                    const uint64_t m = _mm512_cmpeq_epi8_mask(_mm512_or_si512(v, fv[q]), tv[q]) & open;
                    if (!m) break;
                    const int at = __builtin_ctzll(m);
                    open = at == 63 ? 0 : open & (~0ull << (at + 1));
                    q++;
                }
            }
            if (q < end) {
                kept &= ~(1ull << k);
                break;
            }
        }
    }
    return kept;
}

/// `pick_greedy_places` sixty-four bytes a step: each block loaded once (the last masked
/// to the text), every character of the term found in it taken, one compare each.
__attribute__((target("avx512f,avx512bw")))
static int greedy_places_512(const uint8_t *text, long n, const uint8_t *term, long m, int folds, long *places) {
    long q = 0;
    for (long i = 0; i < n && q < m; i += 64) {
        const uint64_t in = n - i >= 64 ? ~0ull : (1ull << (n - i)) - 1;
        const __m512i v = _mm512_maskz_loadu_epi8(in, text + i);
        uint64_t open = in;
        while (q < m) {
            const uint8_t c = term[q];
            const __m512i f = _mm512_set1_epi8(folds && (uint8_t)(c - 0x61) < 26 ? 0x20 : 0);
            const uint64_t hit = _mm512_cmpeq_epi8_mask(_mm512_or_si512(v, f), _mm512_set1_epi8((char)c)) & open;
            if (!hit) break;
            const int at = __builtin_ctzll(hit);
            places[q++] = i + at;
            open = at == 63 ? 0 : open & (~0ull << (at + 1));
        }
    }
    return q == m;
}

/// `pick_checksum_each` a vector a block: its eight lanes are the vector's.
__attribute__((target("avx512f")))
static uint64_t checksum_512(const uint8_t *p, long n, uint64_t h) {
    uint64_t lanes[8];
    pick_checksum_start(lanes, h);
    __m512i sum = _mm512_loadu_si512(lanes);
    long i = 0;
    for (; i + 64 <= n; i += 64) sum = _mm512_add_epi64(_mm512_rol_epi64(sum, 7), _mm512_loadu_si512(p + i));
    _mm512_storeu_si512(lanes, sum);
    return pick_checksum_end(lanes, p, i, n, h);
}

/// Where `pick_scan_lines` is between blocks: lines written, where the next starts, and
/// its first two tabs seen so far (-1: none).
typedef struct {
    long count, start, tab1, tab2;
} scan_state;

/// `pick_scan_lines`'s step for the 64-byte block at b, from its separators, tabs and high
/// bits as three masks (none past the text): each line's end and first two tabs by
/// conditional moves rather than a loop over its tabs. 0 where the scan stops.
static inline int scan_block(long b, uint64_t ends, uint64_t tabbed, uint64_t highs, scan_state *s,
                             pick_line_end *out, long cap) {
    // The bits of the line from `start` on (it starts at or before the block's start).
    uint64_t from_start = ~0ull;
    while (ends) {
        const int k = __builtin_ctzll(ends);
        const uint64_t span = from_start & ((2ull << k) - 1);
        if (__builtin_expect((highs & span) != 0, 0)) return 0;
        const uint64_t t = tabbed & span, t2 = t & (t - 1);
        const long c1 = t ? b + __builtin_ctzll(t) - s->start : -1;
        const long c2 = t2 ? b + __builtin_ctzll(t2) - s->start : -1;
        out[s->count].end = b + k;
        out[s->count].tab1 = s->tab1 >= 0 ? s->tab1 : c1;
        out[s->count].tab2 = s->tab2 >= 0 ? s->tab2 : s->tab1 >= 0 ? c1 : c2;
        s->count++;
        s->tab1 = s->tab2 = -1;
        s->start = b + k + 1;
        from_start = k == 63 ? 0 : ~0ull << (k + 1);
        ends &= ends - 1;
        if (s->count == cap) return 0;
    }
    // The rest of the block starts a line not ended in it.
    if (from_start) {
        if (__builtin_expect((highs & from_start) != 0, 0)) return 0;
        const uint64_t t = tabbed & from_start, t2 = t & (t - 1);
        const long c1 = t ? b + __builtin_ctzll(t) - s->start : -1;
        const long c2 = t2 ? b + __builtin_ctzll(t2) - s->start : -1;
        const long first = s->tab1 >= 0 ? s->tab1 : c1;
        s->tab2 = s->tab2 >= 0 ? s->tab2 : s->tab1 >= 0 ? c1 : c2;
        s->tab1 = first;
    }
    return 1;
}

/// `pick_scan_lines_each` a 64-byte vector a block (the last block's load masked to the text).
__attribute__((target("avx512f,avx512bw")))
static long scan_lines_512(const uint8_t *p, long from, long n, uint8_t sep, uint8_t tab, pick_line_end *out,
                           long cap, long *resume) {
    scan_state s = {0, from, -1, -1};
    const int tabs = tab != sep;
    const __m512i seps = _mm512_set1_epi8((char)sep), tabbing = _mm512_set1_epi8((char)tab);
    for (long b = from; b < n; b += 64) {
        const uint64_t valid = n - b >= 64 ? ~0ull : (1ull << (n - b)) - 1;
        const __m512i v = _mm512_maskz_loadu_epi8(valid, p + b);
        const uint64_t ends = _mm512_mask_cmpeq_epi8_mask(valid, v, seps);
        const uint64_t tabbed = tabs ? _mm512_mask_cmpeq_epi8_mask(valid, v, tabbing) : 0;
        if (!scan_block(b, ends, tabbed, _mm512_movepi8_mask(v), &s, out, cap)) break;
    }
    *resume = s.start;
    return s.count;
}

/// `pick_scan_lines_each` two 32-byte vectors a block.
__attribute__((target("avx2")))
static long scan_lines_256(const uint8_t *p, long from, long n, uint8_t sep, uint8_t tab, pick_line_end *out,
                           long cap, long *resume) {
    scan_state s = {0, from, -1, -1};
    const int tabs = tab != sep;
    const __m256i seps = _mm256_set1_epi8((char)sep), tabbing = _mm256_set1_epi8((char)tab);
    const __m256i none = _mm256_setzero_si256();
    for (long b = from; b < n; b += 64) {
        __m256i v0, v1;
        const uint64_t valid = load64_256(p + b, n - b, &v0, &v1);
        const uint64_t ends = equal64_256(v0, v1, none, seps) & valid;
        const uint64_t tabbed = tabs ? equal64_256(v0, v1, none, tabbing) & valid : 0;
        const uint64_t highs = ((uint32_t)_mm256_movemask_epi8(v0) | (uint64_t)(uint32_t)_mm256_movemask_epi8(v1) << 32)
            & valid;
        if (!scan_block(b, ends, tabbed, highs, &s, out, cap)) break;
    }
    *resume = s.start;
    return s.count;
}

/// `pick_checksum_each` two vectors a block: their eight lanes are the vectors'.
__attribute__((target("avx2")))
static uint64_t checksum_256(const uint8_t *p, long n, uint64_t h) {
    uint64_t lanes[8];
    pick_checksum_start(lanes, h);
    __m256i low = _mm256_loadu_si256((const __m256i *)lanes), high = _mm256_loadu_si256((const __m256i *)(lanes + 4));
    long i = 0;
    for (; i + 64 <= n; i += 64) {
        low = _mm256_add_epi64(_mm256_or_si256(_mm256_slli_epi64(low, 7), _mm256_srli_epi64(low, 57)),
                               _mm256_loadu_si256((const __m256i *)(p + i)));
        high = _mm256_add_epi64(_mm256_or_si256(_mm256_slli_epi64(high, 7), _mm256_srli_epi64(high, 57)),
                                _mm256_loadu_si256((const __m256i *)(p + i + 32)));
    }
    _mm256_storeu_si256((__m256i *)lanes, low);
    _mm256_storeu_si256((__m256i *)(lanes + 4), high);
    return pick_checksum_end(lanes, p, i, n, h);
}

/// `pick_greedy_places` sixty-four bytes a step as two 32-byte vectors.
__attribute__((target("avx2")))
static int greedy_places_256(const uint8_t *text, long n, const uint8_t *term, long m, int folds, long *places) {
    long q = 0;
    for (long i = 0; i < n && q < m; i += 64) {
        __m256i v0, v1;
        uint64_t open = load64_256(text + i, n - i, &v0, &v1);
        while (q < m) {
            const uint8_t c = term[q];
            const __m256i f = _mm256_set1_epi8(folds && (uint8_t)(c - 0x61) < 26 ? 0x20 : 0);
            const uint64_t hit = equal64_256(v0, v1, f, _mm256_set1_epi8((char)c)) & open;
            if (!hit) break;
            const int at = __builtin_ctzll(hit);
            places[q++] = i + at;
            open = at == 63 ? 0 : open & (~0ull << (at + 1));
        }
    }
    return q == m;
}

/// `short_in_order_512` with two 32-byte vectors a 64-byte block, for a line of up to 64
/// bytes (`two` 0) or up to 128.
__attribute__((target("avx2"), always_inline))
static inline int short_in_order_256(const uint8_t *line, long n, const __m256i *tv, const __m256i *fv,
                                     const long *starts, long terms, int two) {
    __m256i a0, a1, b0 = _mm256_setzero_si256(), b1 = b0;
    const uint64_t in0 = load64_256(line, n, &a0, &a1);
    const uint64_t in1 = two && n > 64 ? load64_256(line + 64, n - 64, &b0, &b1) : 0;
    for (long t = 0; t < terms; t++) {
        uint64_t open0 = in0, open1 = in1, m0 = 0, m1 = 0;
        for (long q = starts[t]; q < starts[t + 1]; q++) {
            m0 = equal64_256(a0, a1, fv[q], tv[q]) & open0;
            open0 &= ~(m0 ^ (m0 - 1));
            if (two) {
                m1 = equal64_256(b0, b1, fv[q], tv[q]) & open1;
                open1 = m0 ? open1 : open1 & ~(m1 ^ (m1 - 1));
            }
        }
        if (!(m0 | m1)) return 0;
    }
    return 1;
}

/// `in_order64_512` with two 32-byte vectors a 64-byte block.
__attribute__((target("avx2")))
static uint64_t in_order64_256(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                               const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms,
                               int branch_free) {
    if (__builtin_popcountll(bits) < 48) pick_prefetch_first_bytes(base, records, first, bits);
    const long total = starts[terms];
    __m256i tv[64], fv[64];
    for (long q = 0; q < total; q++) {
        tv[q] = _mm256_set1_epi8((char)bytes[q]);
        fv[q] = _mm256_set1_epi8((char)folds[q]);
    }
    uint64_t kept = bits;
    for (uint64_t b = bits; b; b &= b - 1) {
        const int k = __builtin_ctzll(b);
        const uint32_t extra = records[2 * k + 1];
        if (extra != 0 && !(extra & 0x80000000u)) continue;
        const uint32_t start = k == 0 ? first : records[2 * k - 2] + 1;
        const uint8_t *line = base + start;
        const long n = (long)(records[2 * k] - start);
        if (branch_free && n <= 128) {
            const int holds = n <= 64 ? short_in_order_256(line, n, tv, fv, starts, terms, 0)
                                      : short_in_order_256(line, n, tv, fv, starts, terms, 1);
            if (!holds) kept &= ~(1ull << k);
            continue;
        }
        for (long t = 0; t < terms; t++) {
            long q = starts[t];
            const long end = starts[t + 1];
            for (long i = 0; i < n && q < end; i += 64) {
                __m256i v0, v1;
                uint64_t open = load64_256(line + i, n - i, &v0, &v1);
                while (q < end) {
                    const uint64_t m = equal64_256(v0, v1, fv[q], tv[q]) & open;
                    if (!m) break;
                    const int at = __builtin_ctzll(m);
                    open = at == 63 ? 0 : open & (~0ull << (at + 1));
                    q++;
                }
            }
            if (q < end) {
                kept &= ~(1ull << k);
                break;
            }
        }
    }
    return kept;
}

/// `pick_extend_rests64_each` sixteen lines a step: a word's rests, names and values loaded a
/// lane a line, the bound of every matching line at once, only the histogram a line at a time.
__attribute__((target("avx512f,avx512bw,avx512vl")))
static uint64_t extend_rests64_512(uint64_t bits, long start, const pick_bounds_step *s, uint64_t *found) {
    uint64_t handled = 0, matched = 0;
    const __m512i fresh = _mm512_set1_epi32((int)PICK_REST_FRESH), letter = _mm512_set1_epi32((int)s->letter);
    const __m512i nameLetter = _mm512_set1_epi32(s->nameLetter), pending = _mm512_set1_epi32(PICK_REST_PENDING);
    const __m512i whiteBit = _mm512_set1_epi32(0x8000), noGap = _mm512_set1_epi32(PICK_REST_NO_GAP);
    const __m512i gainWhite = _mm512_set1_epi32(s->match + s->boundaryWhite);
    const __m512i gainDelimiter = _mm512_set1_epi32(s->match + s->boundaryDelimiter);
    const __m512i lastComponent = _mm512_set1_epi32(s->lastComponent), two = _mm512_set1_epi32(2);
    const __m512i one = _mm512_set1_epi32(1), top = _mm512_set1_epi32((int)(s->levels - 1));
    for (int g = 0; g < 4; g++) {
        const __mmask16 lanes = (__mmask16)(bits >> (16 * g));
        if (!lanes) continue;
        const long i = start + 16 * g;
        const __m512i r = _mm512_maskz_loadu_epi32(lanes, s->rests + i);
        const __mmask16 fr = _mm512_mask_test_epi32_mask(lanes, r, fresh);
        handled |= (uint64_t)fr << (16 * g);
        const __mmask16 m = _mm512_mask_test_epi32_mask(fr, r, letter);
        if (!m) continue;
        matched |= (uint64_t)m << (16 * g);
        const __m512i e = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, s->ends + i));
        const __m512i name = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, s->names + i));
        const __m512i base = _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, s->bases + i));
        const __m512i old = _mm512_cvtepi16_epi32(_mm256_maskz_loadu_epi16(m, s->scores + i));
        const __m512i gain = _mm512_mask_blend_epi32(_mm512_test_epi32_mask(e, whiteBit), gainDelimiter, gainWhite);
        const __m512i bound = _mm512_add_epi32(base, gain);
        const __mmask16 inName = _mm512_mask_test_epi32_mask(m, name, nameLetter);
        __m512i score = _mm512_mask_max_epi32(bound, inName, bound, _mm512_add_epi32(old, gain));
        const __m512i gap = _mm512_and_si512(_mm512_srli_epi32(r, PICK_REST_GAP_SHIFT), noGap);
        const __mmask16 crosses = _mm512_mask_cmpneq_epi32_mask(inName, gap, noGap);
        const __m512i cost = _mm512_maskz_add_epi32(_mm512_cmpgt_epi32_mask(gap, _mm512_setzero_si512()), gap, two);
        score = _mm512_mask_max_epi32(score, crosses, score, _mm512_sub_epi32(_mm512_add_epi32(bound, lastComponent), cost));
        score = _mm512_max_epi32(score, one);
        _mm256_mask_storeu_epi16(s->bases + i, m, _mm512_cvtsepi32_epi16(bound));
        _mm256_mask_storeu_epi16(s->scores + i, m, _mm512_cvtsepi32_epi16(score));
        _mm512_mask_storeu_epi32(s->rests + i, m, pending);
        int32_t levels[16];
        _mm512_storeu_si512(levels, _mm512_min_epi32(score, top));
        for (unsigned b = m; b; b &= b - 1) s->histogram[levels[__builtin_ctz(b)]] += 1;
    }
    *found |= matched;
    return handled;
}
#endif

uint64_t pick_extend_rests64(uint64_t bits, long start, const pick_bounds_step *s, uint64_t *found) {
#if defined(__x86_64__)
    if (has_avx512bw()) return extend_rests64_512(bits, start, s, found);
#endif
    return pick_extend_rests64_each(bits, start, s, found);
}

/// `pick_in_order64_all` and its branch-free variant: the AVX-512 body where the CPU has it
/// and the terms fit its 64 vectors, else the SSE2 one.
static uint64_t in_order64_all(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                               const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms,
                               int branch_free) {
#if defined(__x86_64__)
    if (starts[terms] <= 64 && has_avx512bw())
        return in_order64_512(base, records, first, bits, bytes, folds, starts, terms, branch_free);
    if (starts[terms] <= 64 && has_avx2())
        return in_order64_256(base, records, first, bits, bytes, folds, starts, terms, branch_free);
#endif
    (void)branch_free;
    return pick_in_order64_each(base, records, first, bits, bytes, folds, starts, terms);
}

uint64_t pick_in_order64_all(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                             const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms) {
    return in_order64_all(base, records, first, bits, bytes, folds, starts, terms, 0);
}

uint64_t pick_in_order64_all_branch_free(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                                         const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms) {
    return in_order64_all(base, records, first, bits, bytes, folds, starts, terms, 1);
}

#if !defined(__x86_64__)
int pick_limit_vectors(int level) {
    (void)level;
    return 0;
}
#endif

uint64_t pick_cycles(void) {
#if defined(__x86_64__)
    return __rdtsc();
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
#endif
}

uint64_t pick_checksum(const uint8_t *p, long n, uint64_t h) {
#if defined(__x86_64__)
    if (has_avx512bw()) return checksum_512(p, n, h);
    if (has_avx2()) return checksum_256(p, n, h);
#endif
    return pick_checksum_each(p, n, h);
}

long pick_scan_lines(const uint8_t *p, long from, long n, uint8_t sep, uint8_t tab, pick_line_end *out, long cap,
                     long *resume) {
#if defined(__x86_64__)
    if (has_avx512bw()) return scan_lines_512(p, from, n, sep, tab, out, cap, resume);
    if (has_avx2()) return scan_lines_256(p, from, n, sep, tab, out, cap, resume);
#endif
    return pick_scan_lines_each(p, from, n, sep, tab, out, cap, resume);
}

int pick_greedy_places(const uint8_t *text, long n, const uint8_t *term, long m, int folds, long *places) {
#if defined(__x86_64__)
    if (has_avx512bw()) return greedy_places_512(text, n, term, m, folds, places);
    if (has_avx2()) return greedy_places_256(text, n, term, m, folds, places);
#endif
    return pick_greedy_places_each(text, n, term, m, folds, places);
}

uint64_t pick_in_order64_each(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                              const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms) {
    for (long t = 0; t < terms && bits; t++)
        bits = pick_in_order64(base, records, first, bits, bytes + starts[t], folds + starts[t],
                               starts[t + 1] - starts[t]);
    return bits;
}

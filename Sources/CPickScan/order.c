// The in-order check of a word of lines against every whole-line term of a query
// (`pick_in_order64_all`, CPickScan.h), compiled here rather than inlined into Swift: it runs
// once per 64 lines, and it has a second body for CPUs with AVX-512, chosen when it first runs.
#include "CPickScan.h"
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// Whether this CPU and the kernel run AVX-512BW (the kernel saves the mask and ZMM state).
static int has_avx512bw(void) {
    static int known = -1;
    int value = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (value >= 0) return value;
    unsigned a, b, c, d;
    value = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 27))) {
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        if ((lo & 0xE6) == 0xE6 && __get_cpuid_count(7, 0, &a, &b, &c, &d))
            value = (b & (1u << 16)) && (b & (1u << 30));
    }
    __atomic_store_n(&known, value, __ATOMIC_RELAXED);
    return value;
}

/// `pick_in_order64_all` sixty-four bytes a step: each block of a line is loaded once (the
/// last one masked to the line, so nothing past it is read), and every character of the
/// term found in it is taken, one compare each, before the next block.
__attribute__((target("avx512f,avx512bw")))
static uint64_t in_order64_512(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                               const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms) {
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
#endif

uint64_t pick_in_order64_all(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                             const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms) {
#if defined(__x86_64__)
    if (starts[terms] <= 64 && has_avx512bw())
        return in_order64_512(base, records, first, bits, bytes, folds, starts, terms);
#endif
    return pick_in_order64_each(base, records, first, bits, bytes, folds, starts, terms);
}

uint64_t pick_in_order64_each(const uint8_t *base, const uint32_t *records, uint32_t first, uint64_t bits,
                              const uint8_t *bytes, const uint8_t *folds, const long *starts, long terms) {
    for (long t = 0; t < terms && bits; t++)
        bits = pick_in_order64(base, records, first, bits, bytes + starts[t], folds + starts[t],
                               starts[t + 1] - starts[t]);
    return bits;
}

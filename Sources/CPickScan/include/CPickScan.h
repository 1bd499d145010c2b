// The one byte-scanning primitive every match starts with, written with SSE2 so that it
// looks at sixteen bytes per step (fzf keeps its equivalent in assembly). Header-only and
// static inline, so Swift inlines it into the matcher's loops.
#ifndef PICK_CPICKSCAN_H
#define PICK_CPICKSCAN_H
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
#endif

// bench/steps.c - the C steps of a keystroke at ten million lines, apart from pick, on one
// thread (CPU time): a first key's note of every line holding its character
// (`pick_record_one64`, one pass of loads a line, against the three scans it made before),
// and the keys that narrow `u` to `usrlib`, each
// going on from the values the key before left (`pick_extend_bound64`). Records are laid
// out as a mapped file's (`CompactRecord`); the bonus table is the scorer's. Compare with
// bench/floor.c (one pass over the same bytes). bench/NOTES.md has the figures.
//
//     cc -O2 -I Sources/CPickScan/include -o /tmp/steps bench/steps.c && /tmp/steps /tmp/p10m.txt suz
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include "CPickScan.h"

static double cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }

// The note as it was before one pass of loads (three scans a line: the character's places
// one after another, the last '/', white space), for comparison.
static inline uint64_t scans_one64(const uint8_t *base, const uint32_t *records, uint32_t first,
                                   uint64_t bits, long start, const pick_bounds_step *s,
                                   uint64_t *matched, long *count) {
    uint64_t left = 0, found = 0;
    const uint8_t c = s->bytes[0], fold = s->folds[0];
    const uint8_t *classes = s->classes;
    for (uint64_t b = bits; b; b &= b - 1) {
        int k = __builtin_ctzll(b);
        __builtin_prefetch(base + (k == 0 ? first : records[2 * k - 2] + 1));
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
        long at = pick_find_byte(line, 0, n, c, fold);
        if (at < 0) continue;
        const long end = at + 1;
        const long nameStart = pick_last_byte(line, n, '/', 0) + 1;
        int32_t best = 0, bestBase = 0;
        while (at >= 0) {
            const uint8_t previous = at == 0 ? 0 : classes[line[at - 1]];
            const int32_t score = s->match + s->bonuses[previous << 3 | classes[line[at]]] * s->firstCharMultiplier;
            if (score > bestBase) bestBase = score;
            const int32_t named = at >= nameStart ? score + s->lastComponent : score;
            if (named > best) best = named;
            at = pick_find_byte(line, at + 1, n, c, fold);
        }
        if (best < 1) best = 1;
        const int white = pick_find_white(line, 0, n) >= 0 || classes[line[0]] >= 3;
        s->ends[i] = (uint16_t)((white ? 0x8000 : 0) | end);
        s->bases[i] = pick_clamp16(bestBase);
        s->scores[i] = pick_clamp16(best);
        s->histogram[best < s->levels - 1 ? best : s->levels - 1] += 1;
        found |= 1ull << k;
    }
    *matched |= found;
    *count += __builtin_popcountll(found);
    return left;
}

// The scorer's classes (CharClass): white, delimiter, non-word, lower, upper, letter, digit.
static uint8_t classOf(int b) {
    if (b >= 0x61 && b <= 0x7A) return 3;
    if (b >= 0x41 && b <= 0x5A) return 4;
    if (b >= 0x30 && b <= 0x39) return 6;
    if (b >= 0x80) return 5;
    if (b == 0x20 || b == 9 || b == 10 || b == 13) return 0;
    if (b == 0x2F || b == 0x2C || b == 0x3A || b == 0x3B || b == 0x7C) return 1;
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: steps FILE [CHARACTERS]\n"); return 2; }
    int fd = open(argv[1], O_RDONLY); struct stat st; fstat(fd, &st);
    const uint8_t *base = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    long N = 0; for (long i = 0; i < st.st_size; i++) N += base[i] == '\n';
    long W = (N + 63) / 64;
    uint32_t *rec = calloc(W * 128, 4); long li = 0;
    for (long i = 0; i < st.st_size; i++) if (base[i] == '\n') { rec[2 * li] = (uint32_t)i; li++; }
    uint8_t classes[256]; for (int b = 0; b < 256; b++) classes[b] = classOf(b);
    int32_t bonuses[64] = {0};
    for (int p = 0; p < 7; p++) for (int q = 0; q < 7; q++) {
        int word = q >= 3, b;
        if (word) b = p == 0 ? 10 : p == 1 ? 9 : p == 2 ? 8 : (p == 3 && q == 4) ? 7 : (p >= 3 && p <= 5) ? (q == 6 ? 7 : 0) : 0;
        else b = q == 0 ? 10 : 8;
        bonuses[p << 3 | q] = b;
    }
    uint16_t *ends[2]; int16_t *bases[2], *scores[2]; long *hist[2];
    for (int v = 0; v < 2; v++) { ends[v] = malloc(N * 2); bases[v] = malloc(N * 2); scores[v] = malloc(N * 2); hist[v] = calloc(4096, sizeof(long)); }
    uint64_t *matched[2] = {calloc(W, 8), calloc(W, 8)};
    const char *chars = argc > 2 ? argv[2] : "suz";
    for (const char *q = chars; *q; q++) {
        uint8_t bytes[1] = {(uint8_t)*q}, folds[1] = {0x20};
        uint64_t *holds = calloc(W, 8);
        { long line = 0, has = 0; for (long i = 0; i < st.st_size; i++) { if (base[i] == '\n') { if (has) holds[line >> 6] |= 1ull << (line & 63); line++; has = 0; } else if ((base[i] | 0x20) == *q) has = 1; } }
        for (int round = 0; round < 3; round++) {
            double t[2]; long counts[2] = {0, 0}, lefts[2] = {0, 0};
            for (int v = 0; v < 2; v++) {
                memset(hist[v], 0, 4096 * sizeof(long)); memset(matched[v], 0, W * 8);
                pick_bounds_step s = {ends[v], bases[v], scores[v], bytes, folds, 1, 0, 16, 10, 9, 8, hist[v], 4096, classes, bonuses, 2};
                double c0 = cpu();
                for (long w = 0; w < W; w++) {
                    uint64_t bits = holds[w];
                    uint32_t first = w == 0 ? 0 : rec[2 * (64 * w - 1)] + 1;
                    uint64_t left = v == 0 ? pick_record_one64(base, rec + 128 * w, first, bits, 64 * w, &s, matched[v] + w, &counts[v])
                                           : scans_one64(base, rec + 128 * w, first, bits, 64 * w, &s, matched[v] + w, &counts[v]);
                    lefts[v] += __builtin_popcountll(left);
                }
                t[v] = cpu() - c0;
            }
            { long above = 0; int level = 4095; while (level > 0 && above + hist[0][level] < 38) { above += hist[0][level]; level--; }
              printf("level holding 38: %d, %ld lines at or above it\n", level, above + hist[0][level]); }
            long differ = 0;
            for (long i = 0; i < N; i++) if ((matched[0][i >> 6] >> (i & 63)) & 1) {
                if (!((matched[1][i >> 6] >> (i & 63)) & 1) || ends[0][i] != ends[1][i] || bases[0][i] != bases[1][i] || scores[0][i] != scores[1][i]) differ++;
            }
            printf("'%c': pick_record_one64 %.1f ms (%ld bounded, %ld left), three scans %.1f ms (%ld bounded, "
                   "%ld left); %ld values differ\n",
                   *q, t[0], counts[0], lefts[0], t[1], counts[1], lefts[1], differ);
        }
    }
    // The keys that narrow u: us, usr, usrl, usrli, usrlib, each from the values the key
    // before left (record_one64 for u), as pick_extend_bound64 goes on from them.
    {
        const char *term = "usrlib";
        uint8_t bytes[8], folds[8];
        for (int k = 0; k < 6; k++) { bytes[k] = (uint8_t)term[k]; folds[k] = 0x20; }
        memset(hist[0], 0, 4096 * sizeof(long)); memset(matched[0], 0, W * 8);
        pick_bounds_step s = {ends[0], bases[0], scores[0], bytes, folds, 1, 0, 16, 10, 9, 8, hist[0], 4096, classes, bonuses, 2};
        long count = 0;
        for (long w = 0; w < W; w++) {
            uint64_t bits = w == W - 1 && N % 64 ? (1ull << (N % 64)) - 1 : ~0ull;
            uint32_t first = w == 0 ? 0 : rec[2 * (64 * w - 1)] + 1;
            pick_record_one64(base, rec + 128 * w, first, bits, 64 * w, &s, matched[0] + w, &count);
        }
        uint64_t *held = matched[0], *next = matched[1];
        for (int m = 2; m <= 6; m++) {
            memset(next, 0, W * 8); memset(hist[0], 0, 4096 * sizeof(long));
            s.m = m; s.kept = m - 1;
            long bounded = 0;
            double c0 = cpu();
            for (long w = 0; w < W; w++) {
                if (!held[w]) continue;
                uint32_t first = w == 0 ? 0 : rec[2 * (64 * w - 1)] + 1;
                pick_extend_bound64(base, rec + 128 * w, first, held[w], 64 * w, &s, next + w, &bounded);
            }
            double t = cpu() - c0;
            printf("%.*s from %.*s: extend and bound %.1f ms, %ld lines of %ld still match (%.1f ns a line)\n",
                   m, term, m - 1, term, t, bounded, count, t * 1e6 / count);
            count = bounded;
            uint64_t *swap = held; held = next; next = swap;
        }
    }
    return 0;
}

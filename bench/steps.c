// bench/steps.c - the C steps of a keystroke at ten million lines, apart from pick, on one
// thread (CPU time): a first key's note of every line holding its character
// (`pick_record_one64` from a line's head and its last 64 bytes, the lines' characters noted,
// against the same with none noted, each line read whole), and the keys that narrow `u` to
// `usrlib`, each
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
    // The lines' character sets as `LineStore.noteCharacters` leaves them, of which the note
    // reads the bit of white space (0x20 and below).
    const uint32_t whiteSet = 1u << 27;
    uint32_t *sets = calloc(W * 64, 4);
    { long line = 0; for (long i = 0; i < st.st_size; i++) { if (base[i] == '\n') line++; else if (base[i] <= 0x20) sets[line] = whiteSet; } }
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
                    uint64_t left = pick_record_one64(base, rec + 128 * w, first, bits, 64 * w, &s, matched[v] + w, &counts[v],
                                                      v == 0 ? sets + 64 * w : NULL, whiteSet);
                    lefts[v] += __builtin_popcountll(left);
                }
                t[v] = cpu() - c0;
            }
            for (int v = 0; v < 2; v++) {
                long above = 0; int level = 4095;
                while (level > 0 && above + hist[v][level] < 38) { above += hist[v][level]; level--; }
                printf("'%c', %s: %.1f ms (%ld noted, %ld left); level holding 38: %d, %ld lines at or above it\n",
                       *q, v == 0 ? "head and tail" : "whole lines", t[v], counts[v], lefts[v], level, above + hist[v][level]);
            }
            long invalid = 0, looser = 0;
            for (long i = 0; i < N; i++) if ((matched[1][i >> 6] >> (i & 63)) & 1) {
                if (!((matched[0][i >> 6] >> (i & 63)) & 1) || ends[0][i] != ends[1][i] || bases[0][i] < bases[1][i]
                    || scores[0][i] < scores[1][i]) invalid++;
                looser += scores[0][i] > scores[1][i];
            }
            printf("    head and tail below whole lines (must be 0): %ld; bounds looser: %ld\n", invalid, looser);
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
            pick_record_one64(base, rec + 128 * w, first, bits, 64 * w, &s, matched[0] + w, &count, NULL, whiteSet);
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

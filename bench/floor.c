// bench/floor.c - the machine's floor for one keystroke over a corpus: one pass over its
// bytes (memchr for a byte that is not there, on one thread and on two), and a plain
// byte-at-a-time subsequence check of a query on every line. CPU time is given beside
// wall time: on a shared machine the CPU time moves less.
//
//     cc -O2 -pthread -o /tmp/floor bench/floor.c && /tmp/floor /tmp/p10m.txt usrlib
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

static double ms(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const unsigned char *base;
static size_t size;
static const void *volatile sink;

struct half { size_t lo, hi; double cpu; };

static void *scan_half(void *arg) {
    struct half *h = arg;
    double c = ms(CLOCK_THREAD_CPUTIME_ID);
    sink = memchr(base + h->lo, 0xFF, h->hi - h->lo);
    h->cpu = ms(CLOCK_THREAD_CPUTIME_ID) - c;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: floor FILE [QUERY]\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(argv[1]);
        return 1;
    }
    size = (size_t)st.st_size;
    base = mmap(NULL, size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    const char *q = argc > 2 ? argv[2] : "usrlib";
    const size_t m = strlen(q);
    for (int round = 0; round < 5; round++) {
        double w0 = ms(CLOCK_MONOTONIC), c0 = ms(CLOCK_THREAD_CPUTIME_ID);
        sink = memchr(base, 0xFF, size);
        double w1 = ms(CLOCK_MONOTONIC), c1 = ms(CLOCK_THREAD_CPUTIME_ID);
        pthread_t threads[2];
        struct half halves[2] = {{0, size / 2, 0}, {size / 2, size, 0}};
        for (int t = 0; t < 2; t++) pthread_create(&threads[t], NULL, scan_half, &halves[t]);
        for (int t = 0; t < 2; t++) pthread_join(threads[t], NULL);
        double w2 = ms(CLOCK_MONOTONIC), c2 = ms(CLOCK_THREAD_CPUTIME_ID);
        long lines = 0, matched = 0;
        size_t k = 0;
        for (size_t i = 0; i < size; i++) {
            unsigned char b = base[i];
            if (b == '\n') {
                lines++;
                matched += k == m;
                k = 0;
            } else if (k < m && (b | 0x20) == (unsigned char)q[k]) {
                k++;
            }
        }
        double w3 = ms(CLOCK_MONOTONIC), c3 = ms(CLOCK_THREAD_CPUTIME_ID);
        printf("memchr, one thread: %.1f ms (cpu %.1f); two threads: %.1f ms (cpu %.1f + %.1f); "
               "'%s' byte at a time: %.1f ms (cpu %.1f), %ld of %ld lines\n",
               w1 - w0, c1 - c0, w2 - w1, halves[0].cpu, halves[1].cpu, q, w3 - w2, c3 - c2, matched, lines);
    }
    return 0;
}

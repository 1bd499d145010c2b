#define _GNU_SOURCE
#include <sched.h>
#include "CPickThreads.h"

int pick_current_cpu(void) {
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

int pick_allowed_cpus(void *mask, size_t size) {
#if defined(__linux__)
    return sched_getaffinity(0, size, (cpu_set_t *)mask);
#else
    (void)mask; (void)size;
    return -1;
#endif
}

int pick_set_thread_cpus(pthread_t thread, const void *mask, size_t size) {
#if defined(__linux__)
    return pthread_setaffinity_np(thread, size, (const cpu_set_t *)mask);
#else
    (void)thread; (void)mask; (void)size;
    return -1;
#endif
}

// The CPU affinity calls `Parallel` needs: GNU extensions of glibc, which Swift's Glibc
// module does not declare. Thin wrappers, compiled with _GNU_SOURCE (threads.c).
#ifndef PICK_CPICKTHREADS_H
#define PICK_CPICKTHREADS_H
#include <pthread.h>
#include <stddef.h>

/// The CPU the calling thread runs on (sched_getcpu), or -1.
int pick_current_cpu(void);

/// Writes the set of CPUs this process may run on into `mask`, a cpu_set_t of `size`
/// bytes (sched_getaffinity). 0, or -1 with errno set.
int pick_allowed_cpus(void *mask, size_t size);

/// Lets `thread` run only on the CPUs of `mask`, a cpu_set_t of `size` bytes
/// (pthread_setaffinity_np). 0, or an error number.
int pick_set_thread_cpus(pthread_t thread, const void *mask, size_t size);

#endif

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/socket.h>
#include "CPickSystem.h"

// A new thread that is to work alongside its starter: the kernel tends to queue it on the
// starter's core, where it waits for that core while another idles (PickCore's Parallel
// keeps its threads off the caller's core for the same reason). It is made to start on
// another core, then may run on any.
struct pick_start {
    void *(*body)(void *);
    void *argument;
    cpu_set_t allowed;
    int restricted;
};

static void *pick_started_elsewhere(void *raw) {
    struct pick_start start = *(struct pick_start *)raw;
    free(raw);
    if (start.restricted) sched_setaffinity(0, sizeof start.allowed, &start.allowed);
    return start.body(start.argument);
}

int pick_spawn_elsewhere(void *(*body)(void *), void *argument) {
    struct pick_start *start = malloc(sizeof *start);
    if (!start) return ENOMEM;
    start->body = body;
    start->argument = argument;
    start->restricted = 0;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    int here = sched_getcpu();
    if (here >= 0 && sched_getaffinity(0, sizeof start->allowed, &start->allowed) == 0
        && CPU_ISSET(here, &start->allowed) && CPU_COUNT(&start->allowed) > 1) {
        cpu_set_t others = start->allowed;
        CPU_CLR(here, &others);
        start->restricted = pthread_attr_setaffinity_np(&attributes, sizeof others, &others) == 0;
    }
    pthread_t thread;
    int status = pthread_create(&thread, &attributes, pick_started_elsewhere, start);
    pthread_attr_destroy(&attributes);
    if (status != 0) free(start);
    return status;
}

int pick_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int pick_accept_cloexec(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

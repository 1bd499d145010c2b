// What pick asks of the process and the C library that Swift's Glibc module does not offer.
#ifndef PICK_CPICKSYSTEM_H
#define PICK_CPICKSYSTEM_H

// mallopt and its M_* settings (Memory.start).
#include <malloc.h>

/// Starts `body(argument)` on a new detached thread that starts on a core other than the
/// caller's (when another is allowed), then may run on any. 0, or pthread_create's error.
int pick_spawn_elsewhere(void *(*body)(void *), void *argument);

/// pipe2(fds, O_CLOEXEC): a pipe whose ends no concurrently started child inherits
/// (ChildProcess). 0, or -1 with errno set.
int pick_pipe_cloexec(int fds[2]);

/// accept4(fd, SOCK_CLOEXEC | SOCK_NONBLOCK): a connection to `--listen`'s server that no
/// child inherits and that never blocks (ListenServer). The descriptor, or -1 with errno set.
int pick_accept_cloexec(int fd);

#endif

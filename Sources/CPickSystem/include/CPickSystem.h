// What pick asks of the process and the C library that Swift's Glibc module does not offer.
#ifndef PICK_CPICKSYSTEM_H
#define PICK_CPICKSYSTEM_H

// mallopt and its M_* settings (Memory.start).
#include <malloc.h>

/// Starts `body(argument)` on a new detached thread that starts on a core other than the
/// caller's (when another is allowed), then may run on any. 0, or pthread_create's error.
int pick_spawn_elsewhere(void *(*body)(void *), void *argument);

#endif

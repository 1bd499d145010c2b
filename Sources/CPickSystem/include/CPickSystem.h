// What pick asks of the process and the C library that Swift's Glibc module does not offer.
#ifndef PICK_CPICKSYSTEM_H
#define PICK_CPICKSYSTEM_H

/// Drops the pages of the program's own code and read-only data from the process's page
/// tables (they stay in the page cache); a page used again is mapped again on its first
/// touch.
void pick_release_code_pages(void);

/// Starts `body(argument)` on a new detached thread that starts on a core other than the
/// caller's (when another is allowed), then may run on any. 0, or pthread_create's error.
int pick_spawn_elsewhere(void *(*body)(void *), void *argument);

#endif

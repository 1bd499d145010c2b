#define _GNU_SOURCE
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>
#include "CPickSystem.h"

static int release_segments(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    long page = sysconf(_SC_PAGESIZE);
    for (int k = 0; k < info->dlpi_phnum; k++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
        // Segments the program cannot write: code and read-only data, whose pages are
        // the file's own, so dropping them loses nothing.
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W)) continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        uintptr_t end = start + ph->p_memsz;
        start &= ~(uintptr_t)(page - 1);
        madvise((void *)start, end - start, MADV_DONTNEED);
    }
    // The first object is the program itself; the shared libraries after it are left alone.
    return 1;
}

void pick_release_code_pages(void) {
    dl_iterate_phdr(release_segments, NULL);
}

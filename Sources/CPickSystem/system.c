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

// Marks in the code's layout (tools/link-order): each starts a 64 KB block, and the linker
// places pick's modules after the first and the Swift standard library after the second.
// The kernel maps code in 64 KB blocks around each page touched, so where the standard
// library's hot functions fall across those blocks decides how many the picker keeps
// resident; aligned, it no longer moves with every change to pick's own code.
__attribute__((used, retain, aligned(65536), section(".text.pick_layout_modules"))) void pick_layout_modules(void) {}
__attribute__((used, retain, aligned(65536), section(".text.pick_layout_stdlib"))) void pick_layout_stdlib(void) {}

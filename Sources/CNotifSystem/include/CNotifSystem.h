// The C library calls the tools make that Swift's Glibc module leaves out (behind headers it
// does not include). Part of this package, not a dependency.
// Users: notif-group.
// Its allocator setting, for the large tables that give their room back as they grow.
#ifndef CNOTIF_SYSTEM_H
#define CNOTIF_SYSTEM_H

/// Has the allocator map every block of `bytes` or more on its own, and give it back to the
/// system when it is freed, whatever blocks were freed before (glibc's M_MMAP_THRESHOLD, which
/// also stops glibc from raising the threshold as it goes). Returns 1 if it was set; 0 where
/// the C library has no such setting, or refused it.
int notif_map_blocks_from(int bytes);

#endif

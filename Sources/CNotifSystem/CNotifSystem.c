// See include/CNotifSystem.h.
#include "CNotifSystem.h"

#include <stdlib.h>  // which says whether the C library is glibc (__GLIBC__)
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int notif_map_blocks_from(int bytes) {
#if defined(__GLIBC__)
  return mallopt(M_MMAP_THRESHOLD, bytes) == 1 ? 1 : 0;
#else
  (void)bytes;
  return 0;
#endif
}

/* scmp_lib.h - libseccomp's own <seccomp.h>. The arena's module is also called seccomp.h and
 * arena/ is on the include path first, so <seccomp.h> would find ours: #include_next skips
 * to the system's. Only seccomp.c includes this, as <scmp_lib.h> (found through the -I
 * path, which #include_next needs). */
#ifndef AR_SCMP_LIB_H
#define AR_SCMP_LIB_H
#include_next <seccomp.h>
#endif

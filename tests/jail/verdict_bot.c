/* verdict_bot.c - one wrong thing at start-up, for tests/jail/verdicts.sh (no protocol):
 *   verdict_bot mem MB     allocate and touch MB MiB (in 1 MiB steps; on failure it says
 *                          "cannot allocate memory" on stderr and exits 1, as runtimes do)
 *   verdict_bot stdout     a frame header of 60000 bytes, then the bytes, on stdout
 *   verdict_bot ptrace     ptrace(PTRACE_TRACEME)
 *   verdict_bot exit N     exit(N)
 *   verdict_bot gooom      Go's death at its memory limit: "fatal error: runtime: out of
 *                          memory", then 12 kB of stack dump on stderr, exit(2)
 *   verdict_bot jvmoom     the JVM's: "#\n# There is insufficient memory for the Java
 *                          Runtime Environment to continue." on STDOUT, exit(1)
 * then sleeps (a second at most), so the verdict comes from what it did. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    const char *m = argv[1];
    if (strcmp(m, "mem") == 0 && argc > 2) {
        long mb = atol(argv[2]);
        for (long i = 0; i < mb; i++) {
            char *p = malloc(1 << 20);
            if (!p) {
                fprintf(stderr, "verdict_bot: cannot allocate memory after %ld MiB\n", i);
                return 1;
            }
            memset(p, (int)i | 1, 1 << 20);
        }
    } else if (strcmp(m, "stdout") == 0) {
        /* varint 60000, a Choice field of 59996 bytes (a head the arena accepts), zeros */
        static unsigned char buf[60003] = {0xe0, 0xd4, 0x03, 0x1a, 0xdc, 0xd4, 0x03};
        fwrite(buf, 1, sizeof buf, stdout);
        fflush(stdout);
    } else if (strcmp(m, "ptrace") == 0) {
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
    } else if (strcmp(m, "exit") == 0 && argc > 2) {
        return atoi(argv[2]);
    } else if (strcmp(m, "gooom") == 0) {
        fprintf(stderr, "fatal error: runtime: out of memory\n\nruntime stack:\n");
        for (int i = 0; i < 200; i++)
            fprintf(stderr, "runtime.sysMap(0xc3ffffffff?, 0x7f620cb49000?, 0x4265c0?) frame %d\n",
                    i);
        return 2;
    } else if (strcmp(m, "jvmoom") == 0) {
        printf("#\n# There is insufficient memory for the Java Runtime Environment to "
               "continue.\n# Native memory allocation (mmap) failed to map 520192 bytes.\n");
        fflush(stdout);
        return 1;
    }
    sleep(1);
    return 0;
}

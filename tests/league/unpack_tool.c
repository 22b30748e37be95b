/* unpack_tool.c - okrt_unpack ARCHIVE DIR [MAX_TOTAL MAX_FILE MAX_ENTRIES]: ar_unpack of a file
 * (tests/league/unpack.sh). Prints "unpacked" or "refused: REASON"; exit 0, 1 (refused) or 2. */
#include <stdio.h>
#include <stdlib.h>

#include "league/unpack.h"

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 6) {
        fprintf(stderr, "usage: okrt_unpack ARCHIVE DIR [MAX_TOTAL MAX_FILE MAX_ENTRIES]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf)
        return 2;
    ar_unpack_limits lim;
    ar_unpack_limits_default(&lim);
    if (argc == 6) {
        lim.max_total = strtoull(argv[3], NULL, 10);
        lim.max_file = strtoull(argv[4], NULL, 10);
        lim.max_entries = (uint32_t)strtoul(argv[5], NULL, 10);
    }
    char err[512];
    int rc = ar_unpack(buf, n, argv[2], &lim, err, sizeof err);
    free(buf);
    if (rc == 0)
        printf("unpacked\n");
    else
        printf("refused: %s\n", err);
    return rc == 0 ? 0 : 1;
}

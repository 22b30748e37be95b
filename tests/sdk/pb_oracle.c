/* pb_oracle.c - protobuf-c's verdict on ToBot frames, for the SDK decoder tests of other
 * languages (sdk/python/tests/test_random_frames.py, sdk/js/test/random_frames.test.js):
 * reads frames from stdin, each as a 4-byte little-endian length and the bytes, and prints
 * one line per frame: "-" when okrpb__to_bot__unpack refuses it, else the hex of the message
 * packed again (protobuf-c's canonical encoding of what it decoded). */
#include <stdio.h>
#include <stdlib.h>

#include "okr.pb-c.h"

int main(void)
{
    unsigned char len[4];
    while (fread(len, 1, 4, stdin) == 4) {
        size_t n =
            (size_t)len[0] | (size_t)len[1] << 8 | (size_t)len[2] << 16 | (size_t)len[3] << 24;
        unsigned char *b = malloc(n ? n : 1);
        if (!b || fread(b, 1, n, stdin) != n)
            return 1;
        Okrpb__ToBot *m = okrpb__to_bot__unpack(NULL, n, b);
        if (!m) {
            puts("-");
        } else {
            size_t k = protobuf_c_message_get_packed_size(&m->base);
            unsigned char *out = malloc(k ? k : 1);
            if (!out)
                return 1;
            protobuf_c_message_pack(&m->base, out);
            for (size_t i = 0; i < k; i++)
                printf("%02x", out[i]);
            putchar('\n');
            free(out);
            okrpb__to_bot__free_unpacked(m, NULL);
        }
        free(b);
    }
    return 0;
}

/* wire.c - the protobuf wire's smallest pieces (wire.h): varints and the output buffer. */
#include "wire.h"

#include <stdlib.h>

enum { VARINT_MAX = 10 };

size_t okrpb_varint_put(uint64_t v, uint8_t *out)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

int okrpb_varint_get(const uint8_t *p, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    for (size_t i = 0; i < VARINT_MAX; i++) {
        if (i >= n)
            return 0; /* need more bytes */
        uint64_t b = p[i] & 0x7f;
        /* The 10th byte holds bit 63 only: anything more overflows 64 bits. */
        if (i == VARINT_MAX - 1 && (p[i] & 0x80 || b > 1))
            return -1;
        x |= b << (7 * i);
        if (!(p[i] & 0x80)) {
            *v = x;
            return (int)(i + 1);
        }
    }
    return -1; /* not reached: the 10th byte either ends the varint or is refused */
}

void okrpb_buf_free(okrpb_buf *b)
{
    if (!b)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

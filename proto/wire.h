/* wire.h - the protobuf wire's smallest pieces, shared by the frame reader and writer
 * (frame.c) and the hand-written encoder and decoder (fastpack.c, fastread.c): base-128
 * varints and a growable output buffer. Depends on nothing else of the project. */
#ifndef OKRPB_WIRE_H
#define OKRPB_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* Encode v as a varint into out (at least 10 bytes). Returns the number of bytes. */
size_t okrpb_varint_put(uint64_t v, uint8_t *out);

/* Decode a varint from p[0..n). Returns bytes used, 0 if more bytes are needed, -1 if it is
 * malformed (more than 10 bytes). */
int okrpb_varint_get(const uint8_t *p, size_t n, uint64_t *v);

/* Growable output buffer; okrpb_buf_free accepts NULL contents. */
typedef struct okrpb_buf {
    uint8_t *data;
    size_t len, cap;
} okrpb_buf;

void okrpb_buf_free(okrpb_buf *b);

#endif

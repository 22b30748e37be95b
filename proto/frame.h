/* frame.h - protobuf's length-delimited stream framing: each message is preceded by its
 * length as a base-128 varint. Readers are incremental and bounded: a peer can never make us
 * buffer more than max_frame bytes, and every malformed prefix is reported, not trusted. */
#ifndef OKRPB_FRAME_H
#define OKRPB_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#include "wire.h"

enum {
    OKRPB_MAX_TO_BOT = 8 << 20,   /* largest arena->bot frame (a worst-case legal list fits) */
    OKRPB_MAX_FROM_BOT = 64 << 10 /* largest bot->arena frame the arena accepts */
};

enum {
    OKRPB_FRAME_MORE = 0,      /* okrpb_reader_next: no whole frame yet */
    OKRPB_FRAME_OK = 1,        /* a frame is available */
    OKRPB_FRAME_EVARINT = -1,  /* length prefix longer than 10 bytes or over 2^32 */
    OKRPB_FRAME_ETOOBIG = -2   /* declared length > max_frame */
};

/* Append varint(len) + packed message. Returns 0 or -ENOMEM. */
int okrpb_frame_append(okrpb_buf *b, const ProtobufCMessage *m);

/* Incremental reader over a caller-owned or malloc'd buffer of max_frame + 10 bytes. */
typedef struct okrpb_reader {
    uint8_t *buf;
    size_t cap;       /* max_frame + 10 */
    size_t len;       /* bytes buffered */
    size_t consumed;  /* bytes of the frame returned last, dropped on the next call */
    size_t max_frame;
} okrpb_reader;

/* Returns 0 or -ENOMEM. */
int okrpb_reader_init(okrpb_reader *r, size_t max_frame);
void okrpb_reader_free(okrpb_reader *r);
/* Where to read() next and how much room there is (never 0 unless a frame is pending). */
uint8_t *okrpb_reader_space(okrpb_reader *r, size_t *room);
/* n bytes were written at okrpb_reader_space(). */
void okrpb_reader_commit(okrpb_reader *r, size_t n);
/* Next whole frame: *msg and *len point into the buffer, valid until the next call.
 * Returns OKRPB_FRAME_OK, OKRPB_FRAME_MORE or a negative OKRPB_FRAME_E* (the stream is then
 * unusable: the peer broke the protocol). A zero-length frame is returned as a frame. */
int okrpb_reader_next(okrpb_reader *r, const uint8_t **msg, size_t *len);

/* Judge the start of a bot->arena frame before it is whole, so that text on stdout is caught
 * at its first bytes instead of being read as a length and waited for. p[0..n) are the bytes
 * from the frame's first byte on. A FromBot is one field of a oneof: its frame is
 * varint(L), then tag 0x0A, 0x12 or 0x1A (Identify, Ready, Choice as a length-delimited
 * field), then varint(M) with 1 + |varint(M)| + M == L exactly (every protobuf encoder writes
 * a oneof as one field). L == 0 is let through (the empty message has its own verdict).
 * Returns 1 if the head is complete and well-formed, 0 if more bytes are needed to tell, -1
 * if these bytes cannot begin a FromBot frame. */
int okrpb_from_bot_head(const uint8_t *p, size_t n);

#endif

/* frame_in.h - the test bots' stdin: a buffered reader of length-delimited frames (varint
 * length, then the message), shared by tests/helpers/helper_bot.c and
 * tests/hostile/hostile_bot.c. Header-only (static functions): each bot is one file. */
#ifndef OKR_TEST_FRAME_IN_H
#define OKR_TEST_FRAME_IN_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame.h"

/* Buffered stdin: one read() usually brings a whole Decision (and the Events before it). */
static uint8_t inbuf[1 << 16];
static size_t in_len, in_off;

static int fill(void)
{
    if (in_off > 0) {
        memmove(inbuf, inbuf + in_off, in_len - in_off);
        in_len -= in_off;
        in_off = 0;
    }
    for (;;) {
        ssize_t r = read(0, inbuf + in_len, sizeof inbuf - in_len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        in_len += (size_t)r;
        return 0;
    }
}

/* Read one frame from stdin into *buf (grown as needed). Returns its length, or -1 at EOF. */
static long read_frame(uint8_t **buf, size_t *cap)
{
    uint64_t len = 0;
    int k;
    while ((k = okrpb_varint_get(inbuf + in_off, in_len - in_off, &len)) == 0)
        if (fill() < 0)
            return -1;
    if (k < 0 || len > OKRPB_MAX_TO_BOT)
        return -1;
    in_off += (size_t)k;
    if (len > *cap) {
        *cap = len;
        *buf = realloc(*buf, *cap ? *cap : 1);
        if (!*buf)
            abort();
    }
    size_t got = 0;
    while (got < len) {
        if (in_off == in_len && fill() < 0)
            return -1;
        size_t n = in_len - in_off < len - got ? in_len - in_off : len - got;
        memcpy(*buf + got, inbuf + in_off, n);
        in_off += n;
        got += n;
        if (in_off == in_len) {
            in_off = in_len = 0;
        }
    }
    return (long)len;
}

#endif

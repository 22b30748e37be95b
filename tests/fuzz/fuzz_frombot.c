/* fuzz_frombot.c - what the arena reads from a bot: the byte stream through the incremental
 * frame reader (proto/frame.h), fed in pieces whose sizes come from the input, must give the
 * same frames and the same error as the stream fed whole; every frame goes through both
 * FromBot decoders, okrpb_from_bot_unpack (the fast path bot.c uses) and protobuf-c's
 * okrpb__from_bot__unpack, which must agree on accept/refuse and on every field (compared
 * as their canonical encodings). A Choice's action, when given as one, goes through
 * okrpb_action_to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "fastpack.h"
#include "frame.h"

#define DIE(...)                                                                                   \
    do {                                                                                           \
        fprintf(stderr, "fuzz_frombot: " __VA_ARGS__);                                             \
        abort();                                                                                   \
    } while (0)

static void decode(const uint8_t *p, size_t n)
{
    Okrpb__FromBot *f = okrpb_from_bot_unpack(n, p);
    Okrpb__FromBot *s = okrpb__from_bot__unpack(NULL, n, p);
    if ((f == NULL) != (s == NULL))
        DIE("fast %s, protobuf-c %s a frame of %zu bytes\n", f ? "accepts" : "refuses",
            s ? "accepts" : "refuses", n);
    if (f) {
        size_t fl = protobuf_c_message_get_packed_size(&f->base);
        size_t sl = protobuf_c_message_get_packed_size(&s->base);
        uint8_t *fb = malloc(fl + 1), *sb = malloc(sl + 1);
        if (!fb || !sb)
            abort();
        protobuf_c_message_pack(&f->base, fb);
        protobuf_c_message_pack(&s->base, sb);
        if (fl != sl || memcmp(fb, sb, fl) != 0 || f->msg_case != s->msg_case)
            DIE("the fast and protobuf-c decodes of a frame of %zu bytes differ\n", n);
        free(fb);
        free(sb);
        if (s->msg_case == OKRPB__FROM_BOT__MSG_CHOICE &&
            s->choice->pick_case == OKRPB__CHOICE__PICK_ACTION && s->choice->action) {
            okr_action a;
            okr_refusal why;
            okrpb_action_to(s->choice->action, &a, &why);
        }
    }
    okrpb__from_bot__free_unpacked(f, NULL);
    okrpb__from_bot__free_unpacked(s, NULL);
}

/* Feed data to a reader in pieces (sizes from the input's bytes when split, else whole);
 * return the number of frames and the final status, hashing the frames into *h. */
static int run(const uint8_t *data, size_t size, int split, size_t max, uint64_t *h, int *status)
{
    okrpb_reader r;
    if (okrpb_reader_init(&r, max) < 0)
        abort();
    size_t at = 0, step = 0;
    int frames = 0;
    *h = 1469598103934665603ULL;
    *status = OKRPB_FRAME_MORE;
    for (;;) {
        const uint8_t *msg;
        size_t len;
        int rc = okrpb_reader_next(&r, &msg, &len);
        if (rc == OKRPB_FRAME_OK) {
            frames++;
            for (size_t i = 0; i < len; i++)
                *h = (*h ^ msg[i]) * 1099511628211ULL;
            *h = (*h ^ len) * 1099511628211ULL;
            if (!split)
                decode(msg, len);
            continue;
        }
        if (rc < 0) {
            *status = rc;
            break;
        }
        if (at == size)
            break;
        size_t room;
        uint8_t *space = okrpb_reader_space(&r, &room);
        if (!room)
            DIE("no room while no frame is pending\n");
        size_t want = split ? 1 + data[step++ % size] % 17 : size - at;
        if (want > room)
            want = room;
        if (want > size - at)
            want = size - at;
        memcpy(space, data + at, want);
        okrpb_reader_commit(&r, want);
        at += want;
    }
    okrpb_reader_free(&r);
    return frames;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a small limit as well as the arena's, so that ETOOBIG is reached */
    static const size_t limits[] = {OKRPB_MAX_FROM_BOT, 40};
    for (int l = 0; l < 2; l++) {
        uint64_t h1, h2;
        int s1, s2;
        int n1 = run(data, size, 0, limits[l], &h1, &s1);
        int n2 = run(data, size, 1, limits[l], &h2, &s2);
        if (n1 != n2 || h1 != h2 || s1 != s2)
            DIE("split feeding gives %d frames (status %d), whole %d (status %d)\n", n2, s2, n1,
                s1);
    }
    decode(data, size); /* the input itself as one frame's body */
    return 0;
}

/* fastpack.h - hand-written wire code for the two hot ToBot messages, Decision and Events.
 *
 * protobuf-c packs by walking descriptors twice (get_packed_size, then pack, recursively for
 * every legal action): most of the arena's instructions per decision. The encoder here writes
 * the same bytes straight from the generated structs, backwards into the free tail of the
 * output buffer, so every nested length is known when its prefix is written and nothing is
 * measured twice. The output is byte-identical to protobuf_c_message_pack (tests/proto/
 * test_fastpack.c compares every Decision and Events of many seeded games in every preset).
 *
 * The decoder is the bot's side: a Decision or Events frame in the canonical form our encoder
 * (and protobuf-c) writes is parsed straight into engine structs, with every check of the
 * codec.h decoders. Anything else, well-formed or not (fields out of order or repeated,
 * unpacked lists, unknown fields, over-long varints, out-of-range values, truncation), is
 * declined, and the caller falls back to protobuf-c + codec.h, which then accepts or refuses
 * it with its usual message. So the fast path never accepts what the slow path would refuse,
 * and never decodes a value differently (tests/proto/test_fastread.c). */
#ifndef OKRPB_FASTPACK_H
#define OKRPB_FASTPACK_H

#include <stddef.h>
#include <stdint.h>

#include "okr.pb-c.h"
#include "okr/okr.h"
#include "wire.h"

/* Append varint(len) + m to b, like okrpb_frame_append, for a ToBot holding a Decision or an
 * Events. Returns 0, -ENOMEM, or -ENOTSUP for any other message (another kind, a NULL
 * member, unknown fields, a foreign descriptor): b->len is then unchanged, pack it with
 * protobuf-c. okrpb_frame_append calls this first for every ToBot. */
int okrpb_fastpack_to_bot(okrpb_buf *b, const Okrpb__ToBot *m);

/* The same for a FromBot holding a Choice by index (what a bot sends every turn); -ENOTSUP
 * for anything else. okrpb_frame_append calls this first for every FromBot. */
int okrpb_fastpack_from_bot(okrpb_buf *b, const Okrpb__FromBot *m);

/* okrpb__from_bot__unpack(NULL, len, data), faster for the message of every turn: a
 * canonical FromBot{Choice{id, index}} is decoded by hand into blocks allocated as protobuf-c
 * allocates them, anything else is handed to protobuf-c. Free the result with
 * okrpb__from_bot__free_unpacked(m, NULL). NULL when the bytes are not a FromBot (or out of
 * memory), exactly when protobuf-c returns NULL. */
Okrpb__FromBot *okrpb_from_bot_unpack(size_t len, const uint8_t *data);

enum { OKRPB_FAST_NONE = 0, OKRPB_FAST_DECISION = 1, OKRPB_FAST_EVENTS = 2 };

/* A decoded Decision or Events. The arrays belong to the struct, grow as needed and are
 * reused from one message to the next; okrpb_fast_free releases them. Zero-initialise. */
typedef struct okrpb_fast_in {
    int kind; /* OKRPB_FAST_DECISION or OKRPB_FAST_EVENTS after a successful decode */
    /* Decision */
    uint64_t id;
    uint32_t time_ms, bank_ms, hard_ms;
    okr_view view;
    uint32_t knock_limit; /* View.knock_limit (1.1), not part of okr_view */
    okr_action *legal;
    size_t n_legal, cap_legal;
    /* Events */
    okr_event *events;
    size_t n_events, cap_events;
} okrpb_fast_in;

/* Decode one ToBot frame. Returns 1 when it is a Decision (with a view and 1..OKR_MAX_ACTIONS
 * legal actions) or an Events in canonical form whose every value passes the codec.h checks;
 * 0 when it declines (use protobuf-c); -ENOMEM. On 0 and -ENOMEM *in is unspecified but
 * still owns its arrays. */
int okrpb_fast_decode(okrpb_fast_in *in, const uint8_t *p, size_t n);
void okrpb_fast_free(okrpb_fast_in *in);

#endif

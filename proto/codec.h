/* codec.h - engine values <-> protobuf-c messages of okr.proto. The engine knows nothing of
 * protobuf; this is the only translation. Decoders treat every message as hostile input:
 * every index and card is range-checked before it reaches the engine. */
#ifndef OKRPB_CODEC_H
#define OKRPB_CODEC_H

#include "okr.pb-c.h"
#include "okr/okr.h"

/* Bump allocator that owns every message built from it; reset between messages. */
typedef struct okrpb_arena okrpb_arena;
okrpb_arena *okrpb_arena_new(void);
void okrpb_arena_reset(okrpb_arena *a);
void okrpb_arena_free(okrpb_arena *a); /* accepts NULL */

/* Encoders: messages live in the arena until it is reset. */
Okrpb__Rules *okrpb_rules_from(okrpb_arena *a, const okr_rules *r);
Okrpb__View *okrpb_view_from(okrpb_arena *a, const okr_view *v);
/* Includes the notation text (okr_action_format). */
Okrpb__Action *okrpb_action_from(okrpb_arena *a, const okr_action *x);
/* e must already be redacted for the receiving seat (okr_event_redact). */
Okrpb__Event *okrpb_event_from(okrpb_arena *a, const okr_event *e);
/* In HAND_OVER or GAME_OVER: g->last plus every seat's remaining cards. */
Okrpb__HandEnd *okrpb_hand_end_from(okrpb_arena *a, const okr_game *g);
/* In GAME_OVER: g->result as seen by `seat`. */
Okrpb__GameEnd *okrpb_game_end_from(okrpb_arena *a, const okr_game *g, int seat,
                                    const char *game_id, const char *verdict);

/* Decoders. Return OKR_OK, or OKR_EINVAL with *why (rule "protocol") for out-of-range
 * values; *out is then unspecified. */
int okrpb_action_to(const Okrpb__Action *m, okr_action *out, okr_refusal *why);
int okrpb_rules_to(const Okrpb__Rules *m, okr_rules *out, okr_refusal *why);
int okrpb_view_to(const Okrpb__View *m, okr_view *out, okr_refusal *why);
int okrpb_event_to(const Okrpb__Event *m, okr_event *out, okr_refusal *why);

#endif

/* tobot_slow.h - the bots' slow path for a ToBot frame, into the fast decoder's struct:
 * protobuf-c, then the codec.h decoders and the C SDK's checks (a Decision has a view and
 * 1..OKR_MAX_ACTIONS legal actions). The reference the fast path (proto/fastread.c) must
 * agree with: tests/proto/test_fastread.c and tests/fuzz/fuzz_tobot.c. Header-only. */
#ifndef OKR_TESTS_TOBOT_SLOW_H
#define OKR_TESTS_TOBOT_SLOW_H

#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "fastpack.h"

static inline void *okrt_grow(void *p, size_t n, size_t size)
{
    void *q = realloc(p, n * size);
    if (!q)
        abort();
    return q;
}

/* 1 when the SDK would accept the message (out then holds it), else 0. */
static inline int okrt_slow_decode(const uint8_t *p, size_t n, okrpb_fast_in *out)
{
    okr_refusal why;
    int ok = 0;
    Okrpb__ToBot *m = okrpb__to_bot__unpack(NULL, n, p);
    if (!m)
        return 0;
    if (m->msg_case == OKRPB__TO_BOT__MSG_DECISION) {
        const Okrpb__Decision *d = m->decision;
        if (!d->view || d->n_legal < 1 || d->n_legal > OKR_MAX_ACTIONS)
            goto out;
        if (okrpb_view_to(d->view, &out->view, &why) != OKR_OK)
            goto out;
        out->knock_limit = d->view->knock_limit; /* 1.1 */
        if (d->n_legal > out->cap_legal) {
            out->legal = okrt_grow(out->legal, d->n_legal, sizeof *out->legal);
            out->cap_legal = d->n_legal;
        }
        for (size_t i = 0; i < d->n_legal; i++)
            if (!d->legal[i] || okrpb_action_to(d->legal[i], &out->legal[i], &why) != OKR_OK)
                goto out;
        out->kind = OKRPB_FAST_DECISION;
        out->id = d->id;
        out->time_ms = d->time_ms;
        out->bank_ms = d->bank_ms;
        out->hard_ms = d->hard_ms;
        out->n_legal = d->n_legal;
        ok = 1;
    } else if (m->msg_case == OKRPB__TO_BOT__MSG_EVENTS) {
        const Okrpb__Events *e = m->events;
        if (e->n_events > out->cap_events) {
            out->events = okrt_grow(out->events, e->n_events, sizeof *out->events);
            out->cap_events = e->n_events;
        }
        for (size_t i = 0; i < e->n_events; i++)
            if (!e->events[i] || okrpb_event_to(e->events[i], &out->events[i], &why) != OKR_OK)
                goto out;
        out->kind = OKRPB_FAST_EVENTS;
        out->n_events = e->n_events;
        ok = 1;
    }
out:
    okrpb__to_bot__free_unpacked(m, NULL);
    return ok;
}

/* Do two decodes hold the same values? */
static inline int okrt_fast_same(const okrpb_fast_in *f, const okrpb_fast_in *s)
{
    if (f->kind != s->kind)
        return 0;
    if (f->kind == OKRPB_FAST_DECISION)
        return f->id == s->id && f->time_ms == s->time_ms && f->bank_ms == s->bank_ms &&
               f->hard_ms == s->hard_ms && memcmp(&f->view, &s->view, sizeof f->view) == 0 &&
               f->knock_limit == s->knock_limit && f->n_legal == s->n_legal &&
               memcmp(f->legal, s->legal, f->n_legal * sizeof *f->legal) == 0;
    return f->n_events == s->n_events &&
           (!f->n_events || memcmp(f->events, s->events, f->n_events * sizeof *f->events) == 0);
}

#endif

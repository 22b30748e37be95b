/* marks.c - what every page shows alike: an entrant's marks (never played, DQ, forfeits,
 * substituted moves) and text made safe to publish (no absolute path). The figures' one
 * rounding rule is util's ar_fmt_num (the terminal tables below the view room can share it).
 * docs/report.md, "The marks". */
#include <stdio.h>
#include <string.h>

#include "view.h"

void av_marks_read(const json_t *row, av_marks *m)
{
    memset(m, 0, sizeof *m);
    m->never_played = json_is_true(json_object_get(row, "never_played"));
    m->disqualified = json_is_true(json_object_get(row, "disqualified"));
    m->error_games = json_integer_value(json_object_get(row, "error_games"));
    m->games = json_integer_value(json_object_get(row, "games"));
    m->forfeits = json_integer_value(json_object_get(row, "forfeits"));
    const json_t *sub = json_object_get(row, "substituted_actions");
    m->substituted = json_is_integer(sub) ? json_integer_value(sub) : -1;
}

/* append ", " (unless first) and the piece: never past cap */
static size_t add(char *buf, size_t cap, size_t k, const char *piece)
{
    int n = snprintf(buf + k, cap - k, "%s%s", k ? ", " : "", piece);
    k += n > 0 ? (size_t)n : 0;
    return k < cap ? k : cap - 1;
}

size_t av_marks_text(const av_marks *m, int skip_never, char *buf, size_t cap)
{
    size_t k = 0;
    char p[96];
    if (!cap)
        return 0;
    buf[0] = '\0';
    if (m->never_played && !skip_never)
        k = add(buf, cap, k, "never played");
    if (m->disqualified) {
        snprintf(p, sizeof p, "DQ (errors in %lld of %lld)", m->error_games, m->games);
        k = add(buf, cap, k, p);
    }
    if (m->forfeits > 0) {
        snprintf(p, sizeof p, "%lld forfeit%s", m->forfeits, m->forfeits == 1 ? "" : "s");
        k = add(buf, cap, k, p);
    }
    if (m->substituted > 0) {
        snprintf(p, sizeof p, "%lld move%s substituted", m->substituted,
                 m->substituted == 1 ? "" : "s");
        k = add(buf, cap, k, p);
    }
    return k;
}

static int path_start(const char *s, size_t i)
{
    if (s[i] != '/' || !s[i + 1] || strchr(" \t\n\"'", s[i + 1]))
        return 0;
    return i == 0 || strchr(" \t\n\"'([{=:,", s[i - 1]) != NULL;
}

void av_scrub_paths(const char *s, char *buf, size_t cap)
{
    size_t k = 0;
    if (!cap)
        return;
    for (size_t i = 0; s && s[i] && k + 1 < cap;) {
        if (!path_start(s, i)) {
            buf[k++] = s[i++];
            continue;
        }
        size_t e = i, last = i;
        while (s[e] && !strchr(" \t\n\"'()[]{}<>,;:", s[e])) {
            if (s[e] == '/')
                last = e;
            e++;
        }
        int n = snprintf(buf + k, cap - k, ".../%.*s", (int)(e - last - 1), s + last + 1);
        k += n > 0 ? (size_t)n : 0;
        if (k >= cap)
            k = cap - 1;
        i = e;
    }
    buf[k] = '\0';
}

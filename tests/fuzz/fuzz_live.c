/* fuzz_live.c - the spectator server's input parsing (arena/live): the first line of the input
 * is a game id as ?game= hands it over (decoded), checked by al_game_id_ok (one it accepts must
 * be a plain name: no '/', no "..", no leading dot; the paths and the token are okr_web's,
 * fuzz_web); the rest becomes the files a run
 * writes (a journal, a game record, results.json), followed by the feed over a few ticks with
 * a delay. Nothing may crash, and the snapshot must stay valid JSON. */
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzzkit.h"
#include "live/feed.h"
#include "live/live.h"

static char dir[128], journal[192], rec[192], results[192];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fk_path(dir, sizeof dir, "run");
    mkdir(dir, 0755);
    snprintf(journal, sizeof journal, "%s/journal.jsonl", dir);
    snprintf(rec, sizeof rec, "%s/records", dir);
    mkdir(rec, 0755);
    snprintf(rec, sizeof rec, "%s/records/g.jsonl", dir);
    snprintf(results, sizeof results, "%s/results.json", dir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data;
    const char *nl = memchr(p, '\n', size);
    size_t first = nl ? (size_t)(nl - p) : size;
    char id[512];
    size_t n = first < sizeof id - 1 ? first : sizeof id - 1;
    memcpy(id, p, n);
    id[n] = '\0';
    if (al_game_id_ok(id) && (!id[0] || id[0] == '.' || strchr(id, '/') || strchr(id, '\\') ||
                              strstr(id, "..") || strlen(id) >= AL_MAX_ID))
        abort();

    /* the rest, split in three at the first two form feeds: journal, record, results */
    const char *rest = nl ? nl + 1 : p + size;
    size_t left = (size_t)(p + size - rest);
    const char *parts[3] = {rest, NULL, NULL};
    size_t lens[3] = {left, 0, 0};
    for (int k = 1; k < 3; k++) {
        const char *ff = memchr(parts[k - 1], '\f', lens[k - 1]);
        if (!ff)
            break;
        parts[k] = ff + 1;
        lens[k] = (size_t)(parts[k - 1] + lens[k - 1] - parts[k]);
        lens[k - 1] = (size_t)(ff - parts[k - 1]);
    }
    fk_write(journal, parts[0], lens[0]);
    unlink(rec);
    unlink(results);
    if (parts[1])
        fk_write(rec, parts[1], lens[1]);
    if (parts[2])
        fk_write(results, parts[2], lens[2]);
    al_feed *f = al_feed_new(dir, "tournament", "fz", 0.5);
    al_feed_touch(f, "g.jsonl");
    for (int t = 0; t < 4; t++) {
        al_feed_poll(f, 400.0 * t);
        const char *s = al_feed_snapshot(f, NULL, NULL);
        json_t *j = json_loads(s, 0, NULL);
        if (!j)
            abort(); /* the snapshot is always JSON */
        json_decref(j);
        size_t len;
        free(al_feed_table_record(f, "g", &len));
    }
    al_feed_free(f);
    return 0;
}

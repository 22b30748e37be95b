/* authors.c - the league's authors and its host, for the web face (arena/lweb): who may sign
 * in, which entrants each owns, and the host's few actions that are not a command yet (hold).
 *
 * An author signs in with a secret of 128 random bits handed out once in a link; league.db
 * keeps only its SHA-256 (tables authors and owners, made when first needed, so that a league
 * made before them works unchanged). Checking a secret hashes what the browser sent and
 * compares the two hashes in constant time. The host is the author "@host" (an author's name
 * never starts with '@'), whose secret is DIR/host.token, readable by the host alone. */
#include "league.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "util/util.h"

/* ---- SHA-256 (FIPS 180-4) -------------------------------------------------------------------- */

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 =
            k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

void ar_sha256_hex(const void *data, size_t n, char out[65])
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const unsigned char *p = data;
    size_t left = n;
    for (; left >= 64; left -= 64, p += 64)
        block(h, p);
    unsigned char last[128] = {0};
    memcpy(last, p, left);
    last[left] = 0x80;
    size_t blocks = left < 56 ? 1 : 2;
    uint64_t bits = (uint64_t)n * 8;
    for (int i = 0; i < 8; i++)
        last[blocks * 64 - 1 - (size_t)i] = (unsigned char)(bits >> (8 * i));
    for (size_t i = 0; i < blocks; i++)
        block(h, last + 64 * i);
    for (int i = 0; i < 8; i++)
        snprintf(out + 8 * i, 9, "%08x", h[i]);
}

/* ---- Authors --------------------------------------------------------------------------------- */

static const char AUTHORS_SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS authors(name TEXT PRIMARY KEY, hash TEXT NOT NULL,"
    " added_at REAL NOT NULL);"
    "CREATE TABLE IF NOT EXISTS owners(entrant TEXT PRIMARY KEY, author TEXT NOT NULL);"
    /* the leaderboard's verdict counts: the few erred seats, without reading every game */
    "CREATE INDEX IF NOT EXISTS seats_erred ON game_seats(entrant) WHERE error != 0;";

int ar_league_author_name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > 32)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

static int secret_new(char out[33])
{
    unsigned char raw[16];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
        return -1;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

/* Store name's hash (replacing an old one): 0, or -1 printed. */
static int store(sqlite3 *db, const char *name, const char *secret)
{
    char hash[65];
    ar_sha256_hex(secret, strlen(secret), hash);
    if (lg_exec(db, AUTHORS_SCHEMA, "authors") < 0)
        return -1;
    sqlite3_stmt *st =
        lg_prep(db, "INSERT OR REPLACE INTO authors(name, hash, added_at) VALUES(?1, ?2, ?3)");
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 3, lg_now());
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    if (rc < 0)
        fprintf(stderr, "arena league: authors: %s\n", lg_errmsg(db));
    sqlite3_finalize(st);
    return rc;
}

/* The base URL `run --serve` wrote (DIR/web.url), or "" */
static void base_url(const char *dir, char *out, size_t cap)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/web.url", dir);
    out[0] = 0;
    FILE *f = fopen(p, "r");
    if (!f)
        return;
    if (fgets(out, (int)cap, f))
        out[strcspn(out, "\r\n")] = 0;
    fclose(f);
}

int ar_league_author_new(const char *dir, const char *name, char secret[33])
{
    if (!ar_league_author_name_ok(name))
        return -1;
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return -1;
    int rc = secret_new(secret) == 0 ? store(db, name, secret) : -1;
    sqlite3_close(db);
    return rc;
}

int ar_league_meta_set(const char *dir, const char *key, const char *value)
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return -1;
    sqlite3_stmt *st = lg_prep(db, "INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)");
    int rc = -1;
    if (st) {
        sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return rc;
}

int ar_league_author_add(const char *dir, const char *name)
{
    if (!ar_league_author_name_ok(name)) {
        fprintf(stderr, "arena league author add: a name is 1 to 32 of A-Z a-z 0-9 _ -\n");
        return AR_EXIT_USAGE;
    }
    char secret[33], url[512];
    if (ar_league_author_new(dir, name, secret) < 0)
        return AR_EXIT_FAIL;
    base_url(dir, url, sizeof url);
    printf("arena league: author %s signs in on this link (keep it secret: it is the author's "
           "password; `author add` again makes a new one and voids this one):\n"
           "  %s/signin?a=%s&k=%s\n",
           name, url[0] ? url : "http://HOST:PORT", name, secret);
    if (!url[0])
        printf("  (HOST:PORT: where `arena league run %s --serve` listens)\n", dir);
    return AR_EXIT_OK;
}

int ar_league_author_revoke(const char *dir, const char *name)
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return AR_EXIT_FAIL;
    int status = AR_EXIT_FAIL;
    sqlite3_stmt *st = lg_exec(db, AUTHORS_SCHEMA, "authors") == 0
                           ? lg_prep(db, "DELETE FROM authors WHERE name = ?1")
                           : NULL;
    if (st) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_DONE) {
            if (sqlite3_changes(db) == 0) {
                fprintf(stderr, "arena league author revoke: no author %s\n", name);
                status = AR_EXIT_USAGE;
            } else {
                printf("arena league: %s's sign-in link and sessions no longer work; their "
                       "entrants play on\n",
                       name);
                status = AR_EXIT_OK;
            }
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return status;
}

int ar_league_web_prepare(const char *dir, char host_secret[33])
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return -1;
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/host.token", dir);
    int rc = -1;
    int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat sb;
    if (fd >= 0) {
        ssize_t n = fstat(fd, &sb) == 0 && (sb.st_mode & 077) == 0 ? read(fd, host_secret, 32) : -1;
        close(fd);
        host_secret[n == 32 ? 32 : 0] = 0;
        if (n != 32 || strspn(host_secret, "0123456789abcdef") != 32) {
            fprintf(stderr,
                    "arena league: %s must hold the host's 32 hex digits and be readable by its "
                    "owner alone (chmod 600), or be removed for a new one\n",
                    p);
            sqlite3_close(db);
            return -1;
        }
    } else {
        fd = secret_new(host_secret) == 0
                 ? open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600)
                 : -1;
        if (fd < 0 || write(fd, host_secret, 32) != 32 || fsync(fd) < 0) {
            fprintf(stderr, "arena league: %s: %s\n", p, strerror(errno));
            if (fd >= 0)
                close(fd);
            sqlite3_close(db);
            return -1;
        }
        close(fd);
    }
    rc = store(db, "@host", host_secret);
    /* the web face reads the test games' tables on a read-only connection */
    if (rc == 0 && lg_tests_schema(db) < 0)
        rc = -1;
    sqlite3_close(db);
    return rc;
}

int ar_league_author_check(sqlite3 *db, const char *name, const char *secret)
{
    if (!name || !secret || (!ar_league_author_name_ok(name) && strcmp(name, "@host") != 0) ||
        strlen(secret) != 32)
        return 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT hash FROM authors WHERE name = ?1", -1, &st, NULL) !=
        SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    char want[65] = "", got[65];
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        snprintf(want, sizeof want, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    ar_sha256_hex(secret, 32, got);
    /* constant time: every byte of both hashes is looked at, whatever differs first */
    unsigned diff = strlen(want) == 64 ? 0 : 1;
    for (int i = 0; i < 64; i++)
        diff |= (unsigned)(want[i < (int)strlen(want) ? i : 0] ^ got[i]);
    return diff == 0;
}

int ar_league_owner(sqlite3 *db, const char *entrant, char *author, size_t cap)
{
    author[0] = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT author FROM owners WHERE entrant = ?1", -1, &st, NULL) !=
        SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, entrant, -1, SQLITE_STATIC);
    int found = 0;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
        snprintf(author, cap, "%s", (const char *)sqlite3_column_text(st, 0));
        found = 1;
    }
    sqlite3_finalize(st);
    return found;
}

int ar_league_claim(const char *dir, const char *entrant, const char *author, char *err, size_t cap)
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db) {
        snprintf(err, cap, "the league's database cannot be opened");
        return -1;
    }
    int rc = -1;
    char owner[64];
    if (lg_exec(db, AUTHORS_SCHEMA, "authors") < 0 || lg_exec(db, "BEGIN IMMEDIATE", "claim") < 0) {
        snprintf(err, cap, "the league's database is busy: try again");
    } else {
        int owned = ar_league_owner(db, entrant, owner, sizeof owner);
        sqlite3_stmt *st = lg_prep(db, "SELECT count(*) FROM entrants WHERE name = ?1");
        int exists = 0;
        if (st) {
            sqlite3_bind_text(st, 1, entrant, -1, SQLITE_STATIC);
            exists = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
            sqlite3_finalize(st);
        }
        if (owned && strcmp(owner, author) != 0)
            snprintf(err, cap, "the entrant %s belongs to another author", entrant);
        else if (!owned && exists)
            snprintf(err, cap, "the entrant %s was added by the host: choose another name",
                     entrant);
        else if (!owned) {
            st = lg_prep(db, "INSERT INTO owners(entrant, author) VALUES(?1, ?2)");
            if (st) {
                sqlite3_bind_text(st, 1, entrant, -1, SQLITE_STATIC);
                sqlite3_bind_text(st, 2, author, -1, SQLITE_STATIC);
                rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
                sqlite3_finalize(st);
            }
            if (rc < 0)
                snprintf(err, cap, "%s", lg_errmsg(db));
        } else
            rc = 0;
        lg_exec(db, rc == 0 ? "COMMIT" : "ROLLBACK", "claim");
    }
    sqlite3_close(db);
    return rc;
}

int ar_league_hold(const char *dir, const char *name, double seconds)
{
    sqlite3 *db = lg_db_open(dir, 0);
    if (!db)
        return AR_EXIT_FAIL;
    sqlite3_stmt *st = lg_prep(db, "UPDATE entrants SET status = 'held', reason = 'held back by "
                                   "the host', held_until = ?2, changed_at = ?3 WHERE name = ?1 "
                                   "AND status = 'active'");
    int status = AR_EXIT_FAIL;
    if (st) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 2, lg_now() + seconds);
        sqlite3_bind_double(st, 3, lg_now());
        if (sqlite3_step(st) == SQLITE_DONE)
            status = sqlite3_changes(db) > 0 ? AR_EXIT_OK : AR_EXIT_USAGE;
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return status;
}

/* multipart.c - the multipart/form-data reader (multipart.h). Strict where browsers are
 * regular (the body starts with the boundary, lines end in CRLF) and bounded everywhere:
 * every search stops at the body's end or the header cap, and no byte is copied but the
 * short fields of aw_part. */
#include "multipart.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { BOUNDARY_MAX = 70 };

static int bchar(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           strchr("'()+_,-./:=?", c) != NULL;
}

static int name_char(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '-' || c == '.';
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* One `; key=value` parameter from [p, end): key into k, value (unquoted) into [*v, *vn).
 * Returns the position after it, or NULL when malformed. */
static const char *param(const char *p, const char *end, char *k, size_t kcap, const char **v,
                         size_t *vn)
{
    p = skip_ws(p, end);
    if (p >= end || *p != ';')
        return NULL;
    p = skip_ws(p + 1, end);
    const char *ks = p;
    while (p < end && *p != '=' && *p != ';' && *p != ' ' && *p != '\t')
        p++;
    size_t kn = (size_t)(p - ks);
    if (kn == 0 || kn >= kcap || p >= end || *p != '=')
        return NULL;
    memcpy(k, ks, kn);
    k[kn] = 0;
    p++;
    if (p < end && *p == '"') {
        const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
        if (!q)
            return NULL;
        *v = p + 1;
        *vn = (size_t)(q - p - 1);
        return q + 1;
    }
    const char *vs = p;
    while (p < end && *p != ';' && *p != ' ' && *p != '\t')
        p++;
    *v = vs;
    *vn = (size_t)(p - vs);
    return p;
}

int aw_multipart_boundary(const char *ct, char *out, size_t cap, char *err, size_t errcap)
{
    static const char mt[] = "multipart/form-data";
    if (!ct || strncasecmp(ct, mt, sizeof mt - 1) != 0) {
        snprintf(err, errcap, "the body must be multipart/form-data");
        return -1;
    }
    const char *p = ct + sizeof mt - 1, *end = ct + strlen(ct);
    int found = 0;
    while (skip_ws(p, end) < end) {
        char k[32];
        const char *v;
        size_t vn;
        p = param(p, end, k, sizeof k, &v, &vn);
        if (!p) {
            snprintf(err, errcap, "a malformed Content-Type");
            return -1;
        }
        if (strcasecmp(k, "boundary") != 0)
            continue;
        if (found || vn == 0 || vn > BOUNDARY_MAX || vn >= cap) {
            snprintf(err, errcap, "the boundary must be given once, 1 to %d characters",
                     BOUNDARY_MAX);
            return -1;
        }
        for (size_t i = 0; i < vn; i++)
            if (!bchar((unsigned char)v[i])) {
                snprintf(err, errcap, "a character the boundary may not hold");
                return -1;
            }
        memcpy(out, v, vn);
        out[vn] = 0;
        found = 1;
    }
    if (!found) {
        snprintf(err, errcap, "no boundary in the Content-Type");
        return -1;
    }
    return 0;
}

/* Content-Disposition: form-data; name="..."; filename="..." */
static int disposition(const char *p, const char *end, aw_part *part, char *err, size_t errcap)
{
    static const char fd[] = "form-data";
    p = skip_ws(p, end);
    if ((size_t)(end - p) < sizeof fd - 1 || strncasecmp(p, fd, sizeof fd - 1) != 0) {
        snprintf(err, errcap, "a part that is not form-data");
        return -1;
    }
    p += sizeof fd - 1;
    int has_name = 0;
    while (skip_ws(p, end) < end) {
        char k[32];
        const char *v;
        size_t vn;
        p = param(p, end, k, sizeof k, &v, &vn);
        if (!p) {
            snprintf(err, errcap, "a malformed Content-Disposition");
            return -1;
        }
        if (strcasecmp(k, "name") == 0) {
            if (has_name || vn == 0 || vn >= AW_PART_NAME_MAX) {
                snprintf(err, errcap, "a part's name must be given once, 1 to %d characters",
                         AW_PART_NAME_MAX - 1);
                return -1;
            }
            for (size_t i = 0; i < vn; i++)
                if (!name_char((unsigned char)v[i])) {
                    snprintf(err, errcap, "a part's name may hold only A-Z a-z 0-9 _ . -");
                    return -1;
                }
            memcpy(part->name, v, vn);
            part->name[vn] = 0;
            has_name = 1;
        } else if (strcasecmp(k, "filename") == 0) {
            if (part->has_filename) {
                snprintf(err, errcap, "a part with two file names");
                return -1;
            }
            for (size_t i = 0; i < vn; i++) {
                unsigned char c = (unsigned char)v[i];
                if (c < 0x20 || c == 0x7f || c == '"') {
                    snprintf(err, errcap, "a file name with control characters");
                    return -1;
                }
            }
            /* the last path component: a browser sends the base name, anything else may not
             * reach outside the folder the caller puts it in */
            const char *b = v;
            for (size_t i = 0; i < vn; i++)
                if (v[i] == '/' || v[i] == '\\')
                    b = v + i + 1;
            size_t bn = vn - (size_t)(b - v);
            if (bn >= AW_PART_FILE_MAX || (bn == 1 && b[0] == '.') ||
                (bn == 2 && b[0] == '.' && b[1] == '.')) {
                snprintf(err, errcap, "a file name that is too long, \".\" or \"..\"");
                return -1;
            }
            memcpy(part->filename, b, bn);
            part->filename[bn] = 0;
            part->has_filename = 1;
        }
        /* other parameters (filename*) are not read */
    }
    if (!has_name) {
        snprintf(err, errcap, "a part without a name");
        return -1;
    }
    return 0;
}

/* The header block [p, end) of one part, lines ending in CRLF (the last one's included). */
static int headers(const char *p, const char *end, aw_part *part, char *err, size_t errcap)
{
    int has_cd = 0;
    while (p < end) {
        const char *eol = memmem(p, (size_t)(end - p), "\r\n", 2);
        if (!eol)
            eol = end;
        const char *colon = memchr(p, ':', (size_t)(eol - p));
        if (!colon || colon == p) {
            snprintf(err, errcap, "a part's header line without a name");
            return -1;
        }
        for (const char *c = p; c < eol; c++)
            if ((unsigned char)*c < 0x20 && *c != '\t') {
                snprintf(err, errcap, "a control character in a part's header");
                return -1;
            }
        size_t hn = (size_t)(colon - p);
        if (hn == 19 && strncasecmp(p, "Content-Disposition", hn) == 0) {
            if (has_cd++ || disposition(colon + 1, eol, part, err, errcap) < 0) {
                if (has_cd > 1)
                    snprintf(err, errcap, "a part with two Content-Disposition headers");
                return -1;
            }
        } else if (hn == 12 && strncasecmp(p, "Content-Type", hn) == 0) {
            const char *v = skip_ws(colon + 1, eol);
            size_t vn = (size_t)(eol - v);
            while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
                vn--;
            if (vn >= AW_PART_TYPE_MAX) {
                snprintf(err, errcap, "a part's Content-Type is too long");
                return -1;
            }
            memcpy(part->content_type, v, vn);
            part->content_type[vn] = 0;
        }
        if (eol == end)
            break;
        p = eol + 2;
    }
    if (!has_cd) {
        snprintf(err, errcap, "a part without Content-Disposition");
        return -1;
    }
    return 0;
}

int aw_multipart_parse(const char *ct, const void *body, size_t n, aw_part *parts, int max,
                       char *err, size_t errcap)
{
    char b[BOUNDARY_MAX + 1], delim[BOUNDARY_MAX + 5];
    if (aw_multipart_boundary(ct, b, sizeof b, err, errcap) < 0)
        return -1;
    size_t dn = (size_t)snprintf(delim, sizeof delim, "\r\n--%s", b);
    const char *s = body, *end = s + n;
    /* the body opens with the delimiter without its CRLF */
    if (n < dn - 2 || memcmp(s, delim + 2, dn - 2) != 0) {
        snprintf(err, errcap, "the body does not start with its boundary");
        return -1;
    }
    const char *p = s + dn - 2;
    int count = 0;
    for (;;) {
        if (end - p >= 2 && p[0] == '-' && p[1] == '-')
            return count; /* the closing delimiter; the epilogue is not read */
        if (end - p < 2 || p[0] != '\r' || p[1] != '\n') {
            snprintf(err, errcap, "a boundary not followed by CRLF");
            return -1;
        }
        p += 2;
        if (count >= max) {
            snprintf(err, errcap, "more than %d parts", max);
            return -1;
        }
        aw_part *part = &parts[count];
        memset(part, 0, sizeof *part);
        size_t room = (size_t)(end - p);
        if (room > AW_PART_HEADER_MAX + 2)
            room = AW_PART_HEADER_MAX + 2;
        const char *hend;
        if (room >= 2 && p[0] == '\r' && p[1] == '\n')
            hend = p; /* no header at all: refused below */
        else {
            const char *blank = memmem(p, room, "\r\n\r\n", 4);
            if (!blank) {
                snprintf(err, errcap, "a part's headers are longer than %d bytes or unended",
                         AW_PART_HEADER_MAX);
                return -1;
            }
            hend = blank + 2;
        }
        if (headers(p, hend == p ? p : hend - 2, part, err, errcap) < 0)
            return -1;
        const char *data = hend + 2;
        const char *next = memmem(data, (size_t)(end - data), delim, dn);
        if (!next) {
            snprintf(err, errcap, "a part without its closing boundary (a cut upload?)");
            return -1;
        }
        part->data = (const unsigned char *)data;
        part->len = (size_t)(next - data);
        count++;
        p = next + dn;
    }
}

const aw_part *aw_multipart_find(const aw_part *parts, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(parts[i].name, name) == 0)
            return &parts[i];
    return NULL;
}

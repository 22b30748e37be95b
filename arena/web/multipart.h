/* multipart.h - a strict reader of multipart/form-data bodies (RFC 7578), for uploads from a
 * browser. Everything is hostile: the boundary must be 1 to 70 characters of RFC 2046's set,
 * each part's header block is at most AW_PART_HEADER_MAX bytes, only Content-Disposition
 * (form-data, name, filename) and Content-Type are read, field names are [A-Za-z0-9_.-], a
 * file name is cut to its last path component and refused when it holds control characters,
 * quotes or is "." or "..", and the body must end with the closing boundary. Parts point into
 * the caller's body: nothing is copied, nothing is allocated. */
#ifndef AW_MULTIPART_H
#define AW_MULTIPART_H

#include <stddef.h>

enum {
    AW_PART_NAME_MAX = 64,
    AW_PART_FILE_MAX = 256,
    AW_PART_TYPE_MAX = 128,
    AW_PART_HEADER_MAX = 2048
};

typedef struct aw_part {
    char name[AW_PART_NAME_MAX];     /* the form field */
    char filename[AW_PART_FILE_MAX]; /* "" when the part is not a file */
    int has_filename;                /* 1 when a filename= was given (even empty: no file chosen) */
    char content_type[AW_PART_TYPE_MAX]; /* "" when none was given */
    const unsigned char *data;           /* into the body */
    size_t len;
} aw_part;

/* The boundary of a Content-Type header ("multipart/form-data; boundary=X", X possibly
 * quoted) into out: 0, or -1 with the reason in err. */
int aw_multipart_boundary(const char *content_type, char *out, size_t cap, char *err,
                          size_t errcap);

/* Parse n bytes of body sent with content_type into at most max parts. Returns the number of
 * parts (>= 0), or -1 with the reason in err (a malformed body, too many parts, a bad name). */
int aw_multipart_parse(const char *content_type, const void *body, size_t n, aw_part *parts,
                       int max, char *err, size_t errcap);

/* The first part named name, or NULL. */
const aw_part *aw_multipart_find(const aw_part *parts, int n, const char *name);

#endif

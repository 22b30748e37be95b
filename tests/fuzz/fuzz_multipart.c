/* fuzz_multipart.c - the multipart/form-data reader of uploads (arena/web/multipart.h). The
 * input's first line is the Content-Type header, the rest the body. Nothing may crash, read
 * outside the body, or hand back a part whose data lies outside it; every part has a valid
 * name and a file name without a path. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "web/multipart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t ctn = nl ? (size_t)(nl - data) : size;
    if (ctn > 512)
        return 0;
    char ct[513];
    memcpy(ct, data, ctn);
    ct[ctn] = 0;
    size_t off = nl ? ctn + 1 : size;
    size_t n = size - off;
    /* a copy of exactly n bytes, so that ASan catches a read past the body */
    uint8_t *body = malloc(n ? n : 1);
    if (!body)
        return 0;
    memcpy(body, data + off, n);
    aw_part parts[8];
    char err[200];
    int k = aw_multipart_parse(ct, body, n, parts, 8, err, sizeof err);
    if (k > 8)
        abort();
    for (int i = 0; i < k; i++) {
        const aw_part *p = &parts[i];
        if (p->data < body || p->data + p->len > body + n || !p->name[0])
            abort();
        if (strchr(p->filename, '/') || strchr(p->filename, '\\') || strcmp(p->filename, "..") == 0)
            abort();
    }
    free(body);
    return 0;
}

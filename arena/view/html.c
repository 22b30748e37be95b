/* html.c - what every page needs: HTML escaping, JSON that is safe inside a script element,
 * filling the embedded templates, and the shared table drawing. */
#include <stdlib.h>
#include <string.h>

#include "view.h"

extern const unsigned char av_asset_table_js[], av_asset_table_css[];
extern const unsigned long av_asset_table_js_len, av_asset_table_css_len;

void av_html_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            fputc(*s, out);
        }
    }
}

int av_json_script(FILE *out, const json_t *json)
{
    /* ensure_ascii keeps any byte a bot put into a name from breaking the page's UTF-8; six
     * digits are enough for every time shown (ms) and keep the pages small */
    char *s = json_dumps(json, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6));
    if (!s)
        return -1;
    for (const char *p = s; *p; p++) {
        /* outside strings JSON has none of these, so escaping them changes no value, and no
         * "</script>" or "<!--" can appear in the block */
        if (*p == '<')
            fputs("\\u003c", out);
        else if (*p == '>')
            fputs("\\u003e", out);
        else if (*p == '&')
            fputs("\\u0026", out);
        else
            fputc(*p, out);
    }
    free(s);
    return 0;
}

int av_template(FILE *out, const unsigned char *tmpl, unsigned long len,
                int (*fill)(void *ctx, FILE *out, const char *name), void *ctx)
{
    const char *t = (const char *)tmpl;
    unsigned long i = 0;
    while (i < len) {
        if (t[i] == '@') {
            unsigned long j = i + 1;
            while (j < len && j - i < 32 && ((t[j] >= 'A' && t[j] <= 'Z') || t[j] == '_'))
                j++;
            if (j < len && t[j] == '@' && j > i + 1) {
                char name[40];
                memcpy(name, t + i + 1, j - i - 1);
                name[j - i - 1] = '\0';
                int rc = fill(ctx, out, name);
                if (rc)
                    return rc;
                i = j + 1;
                continue;
            }
        }
        fputc(t[i], out);
        i++;
    }
    return 0;
}

void av_write_table_js(FILE *out)
{
    fwrite(av_asset_table_js, 1, av_asset_table_js_len, out);
}

void av_write_table_css(FILE *out)
{
    fwrite(av_asset_table_css, 1, av_asset_table_css_len, out);
}

const char *av_public_id(const char *id)
{
    if (!id || (id[0] != 't' && id[0] != 'm' && id[0] != 'L') || id[1] < '0' || id[1] > '9')
        return id;
    size_t n = 1 + strspn(id + 1, "0123456789");
    return id[n] == '-' && id[n + 1] ? id + n + 1 : id;
}

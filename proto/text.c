/* text.c - okrpb_text: a message as one line, by walking protobuf-c's descriptors. */
#include "text.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct out {
    char *buf;
    size_t cap, len;
    int full;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(out *o, const char *fmt, ...)
{
    if (o->full)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= o->cap - o->len) {
        o->full = 1;
        o->len = o->cap - 1;
        return;
    }
    o->len += (size_t)n;
}

static void put_string(out *o, const char *s)
{
    put(o, "\"");
    for (; s && *s && !o->full; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            put(o, "\\%c", c);
        else if (c >= 0x20 && c < 0x7f)
            put(o, "%c", c);
        else
            put(o, "\\x%02x", c);
    }
    put(o, "\"");
}

static size_t elem_size(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        return 8;
    case PROTOBUF_C_TYPE_DOUBLE:
        return sizeof(double);
    case PROTOBUF_C_TYPE_BOOL:
        return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_ENUM:
        return sizeof(int);
    case PROTOBUF_C_TYPE_STRING:
        return sizeof(char *);
    case PROTOBUF_C_TYPE_BYTES:
        return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE:
        return sizeof(ProtobufCMessage *);
    default:
        return 4;
    }
}

/* Is the proto3 (LABEL_NONE) value at p its default (and so not on the wire)? */
static int is_default(const ProtobufCFieldDescriptor *f, const void *p)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)p;
        return !s || !*s;
    }
    case PROTOBUF_C_TYPE_BYTES:
        return ((const ProtobufCBinaryData *)p)->len == 0;
    case PROTOBUF_C_TYPE_MESSAGE:
        return *(ProtobufCMessage *const *)p == NULL;
    default: {
        static const uint8_t zero[8];
        return memcmp(p, zero, elem_size(f->type)) == 0;
    }
    }
}

static void put_message(out *o, const ProtobufCMessage *m, int depth);

static void put_value(out *o, const ProtobufCFieldDescriptor *f, const void *p, int depth)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
        put(o, "%" PRId32, *(const int32_t *)p);
        break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
        put(o, "%" PRIu32, *(const uint32_t *)p);
        break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
        put(o, "%" PRId64, *(const int64_t *)p);
        break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        put(o, "%" PRIu64, *(const uint64_t *)p);
        break;
    case PROTOBUF_C_TYPE_FLOAT:
        put(o, "%g", (double)*(const float *)p);
        break;
    case PROTOBUF_C_TYPE_DOUBLE:
        put(o, "%g", *(const double *)p);
        break;
    case PROTOBUF_C_TYPE_BOOL:
        put(o, "%s", *(const protobuf_c_boolean *)p ? "true" : "false");
        break;
    case PROTOBUF_C_TYPE_ENUM: {
        int v = *(const int *)p;
        const ProtobufCEnumValue *ev =
            f->descriptor ? protobuf_c_enum_descriptor_get_value(f->descriptor, v) : NULL;
        if (ev)
            put(o, "%s", ev->name);
        else
            put(o, "%d", v);
        break;
    }
    case PROTOBUF_C_TYPE_STRING:
        put_string(o, *(char *const *)p);
        break;
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = p;
        put(o, "<%zu bytes>", b->len);
        break;
    }
    case PROTOBUF_C_TYPE_MESSAGE: {
        const ProtobufCMessage *sub = *(ProtobufCMessage *const *)p;
        put(o, "{");
        if (sub)
            put_message(o, sub, depth + 1);
        put(o, " }");
        break;
    }
    }
}

static void put_message(out *o, const ProtobufCMessage *m, int depth)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const char *base = (const char *)m;
    if (depth > 16) { /* okr.proto nests a few levels; never recurse without bound */
        put(o, " ...");
        return;
    }
    for (unsigned i = 0; i < d->n_fields && !o->full; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        const void *p = base + f->offset;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + f->quantifier_offset);
            if (n == 0)
                continue;
            const char *arr = *(const char *const *)p;
            put(o, " %s: [", f->name);
            for (size_t k = 0; k < n && !o->full; k++) {
                if (k)
                    put(o, ", ");
                put_value(o, f, arr + k * elem_size(f->type), depth);
            }
            put(o, "]");
            continue;
        }
        if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
            if (*(const uint32_t *)(base + f->quantifier_offset) != f->id)
                continue;
        } else if (f->label == PROTOBUF_C_LABEL_OPTIONAL) {
            if (f->type == PROTOBUF_C_TYPE_MESSAGE || f->type == PROTOBUF_C_TYPE_STRING) {
                if (!*(const void *const *)p)
                    continue;
            } else if (!*(const protobuf_c_boolean *)(base + f->quantifier_offset))
                continue;
        } else if (f->label == PROTOBUF_C_LABEL_NONE && is_default(f, p))
            continue;
        put(o, " %s", f->name);
        put(o, f->type == PROTOBUF_C_TYPE_MESSAGE ? " " : ": ");
        put_value(o, f, p, depth);
    }
}

size_t okrpb_text(const ProtobufCMessage *m, char *buf, size_t cap)
{
    if (cap == 0)
        return 0;
    out o = {.buf = buf, .cap = cap};
    buf[0] = '\0';
    if (m)
        put_message(&o, m, 0);
    if (o.full && cap > 4)
        memcpy(buf + cap - 4, "...", 4);
    /* drop the leading space of the first field */
    if (buf[0] == ' ') {
        memmove(buf, buf + 1, strlen(buf + 1) + 1);
        o.len = o.len ? o.len - 1 : 0;
    }
    return strlen(buf);
}

/* text.h - any message of okr.proto as one line of text, for people: the protocol trace
 * (`--trace`) shows every frame this way. Field names as in okr.proto, enums by name, nested
 * messages in braces, repeated fields in brackets, fields at their proto3 default left out:
 *   decision { id: 7 kind: DECIDE_TURN legal: [{ type: DISCARD card: 12 text: "discard kd" }] }
 * Walks the protobuf-c descriptors, so it needs no change when the schema grows. */
#ifndef OKRPB_TEXT_H
#define OKRPB_TEXT_H

#include <stddef.h>

#include <protobuf-c/protobuf-c.h>

/* Write m as text into buf (always NUL-terminated when cap > 0). A line longer than cap - 1
 * is cut and ends in "...". Returns the length written. */
size_t okrpb_text(const ProtobufCMessage *m, char *buf, size_t cap);

#endif

/* string.h for the freestanding WebAssembly build of the engine (sdk/js/wasm): the few
 * functions engine/ uses, defined in okr_wasm.c. The engine has no heap and no I/O, so this is
 * all of libc it needs, and the build needs no wasi-libc. */
#ifndef OKR_WASM_STRING_H
#define OKR_WASM_STRING_H
#include <stddef.h>
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
size_t strlen(const char *s);
#endif

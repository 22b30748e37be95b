/* test_progfacts.c - what spawning learns from a program file.
 * ar_spawn_is_go: a Go program is known by the build-id note ("Go", type 4) that Go's linker
 * puts in a PT_NOTE segment on the first page. It gets no RLIMIT_AS (Go reserves far more
 * address space than it uses). The text "Go build ID:" that the check used to look for is not
 * in the binaries of Debian's Go 1.19, so Go bots went unrecognised.
 * ar_spawn_is_sanitized: a sanitizer's init function named as a whole string in the first
 * 256 KiB, which is read in 64 KiB steps: a name across two steps still counts.
 * Files are built here, byte by byte, plus the real Go tool when one is installed; malformed
 * headers and notes must be declined without reading past the file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <elf.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jail/spawn.h"

static char path[64];

/* Write the test file: size bytes of f. */
static void save(const unsigned char *f, size_t size)
{
    FILE *o = fopen(path, "wb");
    assert_non_null(o);
    assert_int_equal(fwrite(f, 1, size, o), size);
    fclose(o);
}

/* An ELF64 file: header, one PT_NOTE program header, a note {namesz, descsz, type, name,
 * desc} at offset 0x100, padded to `size` bytes. */
static void write_elf(uint32_t namesz, const char *name, uint32_t type, uint64_t note_len,
                      uint16_t phnum, size_t size)
{
    static unsigned char f[8192];
    memset(f, 0, sizeof f);
    Elf64_Ehdr eh;
    memset(&eh, 0, sizeof eh);
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = EM_X86_64;
    eh.e_phoff = sizeof eh;
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_phnum = phnum;
    memcpy(f, &eh, sizeof eh);
    Elf64_Phdr ph;
    memset(&ph, 0, sizeof ph);
    ph.p_type = PT_NOTE;
    ph.p_offset = 0x100;
    ph.p_filesz = note_len;
    memcpy(f + sizeof eh, &ph, sizeof ph);
    Elf64_Nhdr nh = {namesz, 8, type};
    memcpy(f + 0x100, &nh, sizeof nh);
    memcpy(f + 0x100 + sizeof nh, name, strlen(name) + 1);
    memcpy(f + 0x100 + sizeof nh + 4, "build-id", 8);
    assert_true(size <= sizeof f);
    save(f, size);
}

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/okr-progfacts.%d", (int)getpid());
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

static const size_t note = sizeof(Elf64_Nhdr) + 4 + 8;

static void test_go_note(void **state)
{
    (void)state;
    write_elf(4, "Go", 4, note, 1, 4096); /* Go's own: namesz 4, "Go\0\0" */
    assert_int_equal(ar_spawn_is_go(path), 1);
    write_elf(3, "Go", 4, note, 1, 4096);
    assert_int_equal(ar_spawn_is_go(path), 1);
}

static void test_other_notes(void **state)
{
    (void)state;
    write_elf(4, "GNU", 3, note, 1, 4096); /* a GNU build id */
    assert_int_equal(ar_spawn_is_go(path), 0);
    write_elf(4, "Go", 3, note, 1, 4096); /* Go's name, another type */
    assert_int_equal(ar_spawn_is_go(path), 0);
    write_elf(4, "Gx", 4, note, 1, 4096);
    assert_int_equal(ar_spawn_is_go(path), 0);
}

static void test_malformed(void **state)
{
    (void)state;
    /* the note segment runs past the end of the file */
    write_elf(4, "Go", 4, 1u << 20, 1, 4096);
    assert_int_equal(ar_spawn_is_go(path), 0);
    /* program headers past the end of the file */
    write_elf(4, "Go", 4, note, 0xffff, 4096);
    assert_int_equal(ar_spawn_is_go(path), 0);
    /* a name size that would wrap the offset */
    write_elf(0xfffffffdu, "Go", 4, note, 1, 4096);
    assert_int_equal(ar_spawn_is_go(path), 0);
    /* the file ends inside the note */
    write_elf(4, "Go", 4, note, 1, 0x100 + 6);
    assert_int_equal(ar_spawn_is_go(path), 0);
    /* the header alone, cut short */
    write_elf(4, "Go", 4, note, 1, 20);
    assert_int_equal(ar_spawn_is_go(path), 0);
    assert_int_equal(ar_spawn_is_go("/nonexistent/okr"), 0);
    assert_int_equal(ar_spawn_is_go("/tmp"), 0);
}

static void test_real_programs(void **state)
{
    (void)state;
    assert_int_equal(ar_spawn_is_go("/bin/sh"), 0);
    /* Debian's Go tools are Go programs (installed by scripts/install-deps.sh) */
    glob_t g;
    int found = glob("/usr/lib/go-*/bin/go", 0, NULL, &g) == 0;
    if (found) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            if (ar_spawn_is_go(g.gl_pathv[i]) != 1)
                fail_msg("%s is a Go program", g.gl_pathv[i]);
        globfree(&g);
    } else {
        print_message("no Go toolchain here: only the built files were checked\n");
    }
}

/* An ELF header, then `name` (with a NUL on each side) at offset `at` of a zero file of
 * `size` bytes. */
static void write_with_name(const char *name, size_t at, size_t size)
{
    static unsigned char f[300000];
    assert_true(size <= sizeof f && at + strlen(name) + 1 < size);
    memset(f, 0, size);
    memcpy(f, ELFMAG, SELFMAG);
    f[EI_CLASS] = ELFCLASS64;
    memcpy(f + at, name, strlen(name));
    save(f, size);
}

static void test_sanitizer_names(void **state)
{
    (void)state;
    write_with_name("__asan_init", 1000, 4096);
    assert_int_equal(ar_spawn_is_sanitized(path), 1);
    write_with_name("__hwasan_init", 1000, 4096);
    assert_int_equal(ar_spawn_is_sanitized(path), 1);
    /* across the first 64 KiB step, and just inside the second one */
    for (size_t at = 65536 - 12; at <= 65536 + 1; at++) {
        write_with_name("__tsan_init", at, 200000);
        if (ar_spawn_is_sanitized(path) != 1)
            fail_msg("__tsan_init at %zu not found", at);
    }
    write_with_name("__msan_init", 3 * 65536 - 5, 200000); /* across the third step */
    assert_int_equal(ar_spawn_is_sanitized(path), 1);
    /* not a whole name, or past the first 256 KiB */
    write_with_name("x__asan_init", 1000, 4096);
    assert_int_equal(ar_spawn_is_sanitized(path), 0);
    write_with_name("__asan_initx", 1000, 4096);
    assert_int_equal(ar_spawn_is_sanitized(path), 0);
    write_with_name("x__asan_init", 65536 - 4, 200000); /* the x before the step */
    assert_int_equal(ar_spawn_is_sanitized(path), 0);
    write_with_name("__asan_init", 262144 + 100, 280000);
    assert_int_equal(ar_spawn_is_sanitized(path), 0);
    write_with_name("__go_init", 1000, 4096);
    assert_int_equal(ar_spawn_is_sanitized(path), 0);
    assert_int_equal(ar_spawn_is_sanitized("/bin/sh"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_go_note),         cmocka_unit_test(test_other_notes),
        cmocka_unit_test(test_malformed),       cmocka_unit_test(test_real_programs),
        cmocka_unit_test(test_sanitizer_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

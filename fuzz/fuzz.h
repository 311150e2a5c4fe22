/* fuzz/fuzz.h: what the fuzz targets share (fuzz/util.c): a private
 * scratch directory, files written into it from the fuzzer's bytes, the
 * reference databases the build made (GAMESMAN_FUZZ_DBS), and the checksum
 * repair that lets mutated bytes reach the checks behind the checksums.
 *
 * Every target is a libFuzzer entry point (LLVMFuzzerTestOneInput) built
 * with clang -fsanitize=fuzzer,address,undefined (Makefile: make fuzz);
 * the contract of each is at the top of its file. A target never decides
 * whether the code under test is right beyond "no crash, no sanitizer
 * report, no broken invariant it can check on its own" (a round trip, a
 * count): a finding is a sanitizer report or an abort().
 */
#ifndef FUZZ_FUZZ_H
#define FUZZ_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Aborts (a finding) with a message on stderr when cond is false. */
#define FUZZ_CHECK(cond, ...) ((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__, __VA_ARGS__))
_Noreturn void fuzz_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A fresh directory of this process (on tmpfs, /dev/shm, when there is
 * one, else $TMPDIR or /tmp), removed with everything in it at exit.
 * Aborts when it cannot be made (the run cannot go on). */
const char *fuzz_scratch(void);

/* Writes n bytes as dir/name (replacing it). Aborts on failure. */
void fuzz_write(const char *dir, const char *name, const void *data, size_t n);

/* Reads dir/name whole into a new malloc'ed buffer (*n bytes); NULL when
 * it cannot be read. */
unsigned char *fuzz_read(const char *dir, const char *name, size_t *n);

/* Copies directory `from` (its regular files, and those of its
 * subdirectories one level down: rank-R-of-N/) into `to`, created.
 * Aborts on failure. */
void fuzz_copy_dir(const char *from, const char *to);

/* The directory of reference database `name` under $GAMESMAN_FUZZ_DBS
 * (made by the Makefile: bin/solve on small games), or NULL when the
 * variable is unset or the directory has no manifest (the targets that
 * need one then exercise the parsers alone). */
const char *fuzz_reference_db(const char *name);

/* Repairs a record file's checksums in place (core/dbstore.h: each block's
 * in the index, the index's, the dictionary's, then the header's), where
 * the header's fields say where they are and the bytes are there; fields
 * that point outside the file are left alone. So that a mutated file is
 * checked past its checksums, as a file crafted with valid ones would be. */
void fuzz_fix_record_file(unsigned char *b, size_t n);

/* Repairs a manifest's last line: replaces it by (or appends) `checksum
 * HEX` of every byte before it. Returns the new length; b must have room
 * for n + 40 bytes. */
size_t fuzz_fix_manifest(char *b, size_t n);

#endif /* FUZZ_FUZZ_H */

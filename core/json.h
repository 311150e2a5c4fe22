/* core/json.h: a small streaming JSON writer (objects, arrays, scalars).
 *
 * The writer tracks nesting and commas; keys are given with each value when
 * inside an object (pass NULL inside arrays). Output is one line per call to
 * json_end of the outermost value when `pretty` is false, indented otherwise;
 * the outermost value ends with one newline, so a caller that writes one
 * object per line adds none.
 *
 * Every string (keys and values) is written as valid JSON in UTF-8 whatever
 * its bytes: '"' and '\\' escaped, control bytes (NUL included, with
 * json_string_n) as \n, \t, \r or \u00XX, well-formed UTF-8 copied as is,
 * and each byte that starts no well-formed UTF-8 sequence (a stray 0xff, an
 * overlong form, a surrogate, a truncated sequence) written as \ufffd, the
 * replacement character, as UTF-8 decoders replace it.
 */
#ifndef CORE_JSON_H
#define CORE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

typedef struct JsonWriter {
    FILE *out;
    bool pretty;
    int depth;
    bool first[JSON_MAX_DEPTH];
} JsonWriter;

void json_init(JsonWriter *w, FILE *out, bool pretty);
void json_object_begin(JsonWriter *w, const char *key);
void json_object_end(JsonWriter *w);
void json_array_begin(JsonWriter *w, const char *key);
void json_array_end(JsonWriter *w);
void json_string(JsonWriter *w, const char *key, const char *value); /* NULL value: null */
/* The len bytes at value (which may hold NUL bytes) as one string. */
void json_string_n(JsonWriter *w, const char *key, const char *value, size_t len);
void json_uint(JsonWriter *w, const char *key, uint64_t value);
void json_int(JsonWriter *w, const char *key, int64_t value);
void json_double(JsonWriter *w, const char *key, double value);
void json_bool(JsonWriter *w, const char *key, bool value);
void json_null(JsonWriter *w, const char *key);

#endif /* CORE_JSON_H */

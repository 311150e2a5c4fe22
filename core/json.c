/* core/json.c: see json.h. */
#include "core/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void json_init(JsonWriter *w, FILE *out, bool pretty) {
    w->out = out;
    w->pretty = pretty;
    w->depth = 0;
    w->first[0] = true;
}

/* The length of the well-formed UTF-8 sequence at p (at most n bytes
 * available), 0 if there is none: RFC 3629's table, so no overlong form, no
 * surrogate (U+D800..U+DFFF) and nothing past U+10FFFF. */
static size_t utf8_sequence(const unsigned char *p, size_t n) {
    unsigned char c = p[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf; /* the range of the second byte */
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80;
        hi = c == 0xed ? 0x9f : 0xbf;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        lo = c == 0xf0 ? 0x90 : 0x80;
        hi = c == 0xf4 ? 0x8f : 0xbf;
    } else {
        return 0;
    }
    if (n < len || p[1] < lo || p[1] > hi) {
        return 0;
    }
    for (size_t k = 2; k < len; k++) {
        if (p[k] < 0x80 || p[k] > 0xbf) {
            return 0;
        }
    }
    return len;
}

/* Writes s[0..len) as a JSON string: '"' and '\\' escaped, control bytes
 * as \n, \t, \r or \u00XX (NUL included), well-formed UTF-8 copied, and
 * each byte that starts no well-formed sequence written as \ufffd (U+FFFD,
 * the replacement character), so the output is valid JSON in UTF-8
 * whatever the bytes (RFC 8259, sections 7 and 8.1). */
static void put_string(FILE *out, const char *s, size_t len) {
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len; i++) {
        /* a run of bytes written as they are, at once (a character at a
         * time took a tenth of a query stream's time) */
        size_t run = i;
        while (run < len && p[run] >= 0x20 && p[run] < 0x80 && p[run] != '"' && p[run] != '\\') {
            run++;
        }
        if (run > i) {
            fwrite(p + i, 1, run - i, out);
            i = run - 1;
            continue;
        }
        unsigned char c = p[i];
        if (c >= 0x80) {
            size_t k = utf8_sequence(p + i, len - i);
            if (k == 0) {
                fputs("\\ufffd", out);
            } else {
                fwrite(p + i, 1, k, out);
                i += k - 1;
            }
            continue;
        }
        switch (c) {
        case '"':
            fputs("\\\"", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '\n':
            fputs("\\n", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        default:
            if (c < 0x20) {
                fprintf(out, "\\u%04x", c);
            } else {
                fputc(c, out);
            }
        }
    }
    fputc('"', out);
}

static void newline(JsonWriter *w) {
    if (w->pretty) {
        fputc('\n', w->out);
        for (int i = 0; i < w->depth; i++) {
            fputs("  ", w->out);
        }
    }
}

/* Comma, indentation and key before a value. */
static void prefix(JsonWriter *w, const char *key) {
    if (w->depth > 0) {
        if (!w->first[w->depth]) {
            fputc(',', w->out);
        }
        newline(w);
    }
    w->first[w->depth] = false;
    if (key != NULL) {
        put_string(w->out, key, strlen(key));
        fputs(w->pretty ? ": " : ":", w->out);
    }
}

static void open_value(JsonWriter *w, const char *key, char c) {
    prefix(w, key);
    fputc(c, w->out);
    if (w->depth + 1 < JSON_MAX_DEPTH) {
        w->depth++;
        w->first[w->depth] = true;
    }
}

static void close_value(JsonWriter *w, char c) {
    bool empty = w->first[w->depth];
    if (w->depth > 0) {
        w->depth--;
    }
    if (!empty) {
        newline(w);
    }
    fputc(c, w->out);
    if (w->depth == 0) {
        fputc('\n', w->out);
    }
}

void json_object_begin(JsonWriter *w, const char *key) { open_value(w, key, '{'); }
void json_object_end(JsonWriter *w) { close_value(w, '}'); }
void json_array_begin(JsonWriter *w, const char *key) { open_value(w, key, '['); }
void json_array_end(JsonWriter *w) { close_value(w, ']'); }

void json_string(JsonWriter *w, const char *key, const char *value) {
    prefix(w, key);
    if (value == NULL) {
        fputs("null", w->out);
    } else {
        put_string(w->out, value, strlen(value));
    }
}

void json_string_n(JsonWriter *w, const char *key, const char *value, size_t len) {
    prefix(w, key);
    put_string(w->out, value, len);
}

void json_uint(JsonWriter *w, const char *key, uint64_t value) {
    prefix(w, key);
    fprintf(w->out, "%" PRIu64, value);
}

void json_int(JsonWriter *w, const char *key, int64_t value) {
    prefix(w, key);
    fprintf(w->out, "%" PRId64, value);
}

void json_double(JsonWriter *w, const char *key, double value) {
    prefix(w, key);
    if (isfinite(value) && value == floor(value) && fabs(value) < 9007199254740992.0) {
        /* A whole number (a count in solver_stats) up to 2^53, exactly: %.9g
         * would round 2,818,972,642 to 2.81897264e+09. */
        fprintf(w->out, "%.0f", value);
    } else if (isfinite(value)) {
        fprintf(w->out, "%.9g", value);
    } else {
        fputs("null", w->out);
    }
}

void json_bool(JsonWriter *w, const char *key, bool value) {
    prefix(w, key);
    fputs(value ? "true" : "false", w->out);
}

void json_null(JsonWriter *w, const char *key) {
    prefix(w, key);
    fputs("null", w->out);
}

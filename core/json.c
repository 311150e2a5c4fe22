/* core/json.c: see json.h. */
#include "core/json.h"

#include <inttypes.h>
#include <math.h>

void json_init(JsonWriter *w, FILE *out, bool pretty) {
    w->out = out;
    w->pretty = pretty;
    w->depth = 0;
    w->first[0] = true;
}

static void put_string(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
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
            if (*p < 0x20) {
                fprintf(out, "\\u%04x", *p);
            } else {
                fputc(*p, out);
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
        put_string(w->out, key);
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
        put_string(w->out, value);
    }
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

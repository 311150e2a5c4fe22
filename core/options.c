/* core/options.c: see options.h. */
#include "core/options.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool parse_int64(const char *text, int64_t min, int64_t max, int64_t *out) {
    if (text == NULL || *text == '\0') {
        return false;
    }
    /* strtoll accepts leading space and '+'; we want digits only (and '-'). */
    const char *p = text;
    if (*p == '-') {
        p++;
    }
    if (*p < '0' || *p > '9') {
        return false;
    }
    errno = 0;
    char *end = NULL;
    long long v = strtoll(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max) {
        return false;
    }
    *out = (int64_t)v;
    return true;
}

ErrCode env_int64(const char *name, int64_t min, int64_t max, const char *what, int64_t *out,
                  Error *err) {
    const char *text = getenv(name);
    if (text == NULL || *text == '\0') {
        return ERR_OK;
    }
    if (!parse_int64(text, min, max, out)) {
        return error_set(err, ERR_USAGE, "%s is '%s': give %s", name, text, what);
    }
    return ERR_OK;
}

ErrCode spec_split(const char *spec, const char *what, char *name, size_t n, const char **options,
                   Error *err) {
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len == 0 || len >= n) {
        return error_set(err, ERR_USAGE, "'%s' is not a %s name (see solve --list)", spec, what);
    }
    memcpy(name, spec, len);
    name[len] = '\0';
    *options = colon ? colon + 1 : NULL;
    return ERR_OK;
}

static int spec_count(const OptionSpec *spec) {
    int n = 0;
    while (spec != NULL && spec[n].name != NULL) {
        n++;
    }
    return n;
}

static int spec_find(const OptionSpec *spec, const char *name, size_t len) {
    for (int i = 0; spec != NULL && spec[i].name != NULL; i++) {
        if (strlen(spec[i].name) == len && strncmp(spec[i].name, name, len) == 0) {
            return i;
        }
    }
    return -1;
}

/* "w, h, k" into buf. */
static void spec_names(const OptionSpec *spec, char *buf, size_t n) {
    buf[0] = '\0';
    if (spec_count(spec) == 0) {
        snprintf(buf, n, "(none)");
        return;
    }
    size_t used = 0;
    for (int i = 0; spec[i].name != NULL && used < n; i++) {
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", spec[i].name);
    }
}

static ErrCode parse_list(const OptionSpec *s, const char *text, const char *owner, OptionValue *v,
                          Error *err) {
    char tmp[512];
    if (strlen(text) >= sizeof tmp) {
        return error_set(err, ERR_USAGE, "%s: value of '%s' is too long", owner, s->name);
    }
    strcpy(tmp, text);
    int max_items =
        s->max_items > 0 && s->max_items < OPTION_LIST_MAX ? s->max_items : OPTION_LIST_MAX;
    v->n = 0;
    char *save = NULL;
    if (tmp[0] == '\0' || tmp[0] == '-' || tmp[strlen(tmp) - 1] == '-' || strstr(tmp, "--")) {
        return error_set(err, ERR_USAGE,
                         "%s: '%s=%s' is not a list; write %s=A-B-C with items %" PRId64
                         "..%" PRId64,
                         owner, s->name, text, s->name, s->min, s->max);
    }
    for (char *tok = strtok_r(tmp, "-", &save); tok != NULL; tok = strtok_r(NULL, "-", &save)) {
        int64_t item;
        if (!parse_int64(tok, s->min, s->max, &item)) {
            return error_set(err, ERR_USAGE,
                             "%s: item '%s' of option '%s' must be an integer in %" PRId64
                             "..%" PRId64,
                             owner, tok, s->name, s->min, s->max);
        }
        if (v->n >= max_items) {
            return error_set(err, ERR_USAGE, "%s: option '%s' takes at most %d items", owner,
                             s->name, max_items);
        }
        v->list[v->n++] = item;
    }
    return ERR_OK;
}

static ErrCode parse_value(const OptionSpec *s, const char *value, const char *owner,
                           OptionValue *v, Error *err) {
    switch (s->type) {
    case OPT_BOOL:
        if (value == NULL || strcmp(value, "1") == 0 || strcmp(value, "true") == 0 ||
            strcmp(value, "yes") == 0) {
            v->i = 1;
        } else if (strcmp(value, "0") == 0 || strcmp(value, "false") == 0 ||
                   strcmp(value, "no") == 0) {
            v->i = 0;
        } else {
            return error_set(err, ERR_USAGE,
                             "%s: option '%s' is a switch; write '%s' or '%s=0', not '%s=%s'",
                             owner, s->name, s->name, s->name, s->name, value);
        }
        return ERR_OK;
    case OPT_INT:
        if (value == NULL || !parse_int64(value, s->min, s->max, &v->i)) {
            return error_set(err, ERR_USAGE,
                             "%s: option '%s' needs an integer in %" PRId64 "..%" PRId64
                             " (got %s%s%s)",
                             owner, s->name, s->min, s->max, value ? "'" : "no value",
                             value ? value : "", value ? "'" : "");
        }
        return ERR_OK;
    case OPT_INT_LIST:
        if (value == NULL) {
            return error_set(err, ERR_USAGE, "%s: option '%s' needs a list, e.g. %s=1-2", owner,
                             s->name, s->name);
        }
        return parse_list(s, value, owner, v, err);
    }
    return error_set(err, ERR_INTERNAL, "%s: option '%s' has no type", owner, s->name);
}

ErrCode options_parse(const OptionSpec *spec, const char *text, const char *owner,
                      OptionValues *out, Error *err) {
    memset(out, 0, sizeof *out);
    out->spec = spec;
    out->count = spec_count(spec);
    if (out->count > OPTION_MAX) {
        return error_set(err, ERR_INTERNAL, "%s declares more than %d options", owner, OPTION_MAX);
    }
    for (int i = 0; i < out->count; i++) {
        const OptionSpec *s = &spec[i];
        OptionValue *v = &out->v[i];
        v->i = s->def;
        if (s->type == OPT_INT_LIST && s->def_list != NULL) {
            ErrCode rc = parse_list(s, s->def_list, owner, v, err);
            if (rc != ERR_OK) {
                return rc;
            }
        }
    }
    if (text == NULL || text[0] == '\0') {
        return ERR_OK;
    }
    char buf[1024];
    if (strlen(text) >= sizeof buf) {
        return error_set(err, ERR_USAGE, "%s: options are too long", owner);
    }
    strcpy(buf, text);
    char names[256];
    for (char *item = buf; item != NULL;) {
        char *next = strchr(item, ',');
        if (next != NULL) {
            *next++ = '\0';
        }
        if (*item == '\0') {
            return error_set(err, ERR_USAGE, "%s: empty option in '%s'", owner, text);
        }
        char *eq = strchr(item, '=');
        size_t len = eq ? (size_t)(eq - item) : strlen(item);
        int idx = spec_find(spec, item, len);
        if (idx < 0) {
            spec_names(spec, names, sizeof names);
            return error_set(err, ERR_USAGE, "%s: unknown option '%.*s' (accepted: %s)", owner,
                             (int)len, item, names);
        }
        if (out->v[idx].given) {
            return error_set(err, ERR_USAGE, "%s: option '%s' given twice", owner, spec[idx].name);
        }
        out->v[idx].given = true;
        ErrCode rc = parse_value(&spec[idx], eq ? eq + 1 : NULL, owner, &out->v[idx], err);
        if (rc != ERR_OK) {
            return rc;
        }
        item = next;
    }
    return ERR_OK;
}

static const OptionValue *find_value(const OptionValues *vals, const char *name, OptionType type) {
    int idx = spec_find(vals->spec, name, strlen(name));
    if (idx < 0 || vals->spec[idx].type != type) {
        fprintf(stderr, "internal error: option '%s' of that type is not declared\n", name);
        abort();
    }
    return &vals->v[idx];
}

int64_t opt_int(const OptionValues *vals, const char *name) {
    return find_value(vals, name, OPT_INT)->i;
}

bool opt_bool(const OptionValues *vals, const char *name) {
    return find_value(vals, name, OPT_BOOL)->i != 0;
}

int opt_list(const OptionValues *vals, const char *name, const int64_t **items) {
    const OptionValue *v = find_value(vals, name, OPT_INT_LIST);
    *items = v->list;
    return v->n;
}

bool opt_given(const OptionValues *vals, const char *name) {
    int idx = spec_find(vals->spec, name, strlen(name));
    return idx >= 0 && vals->v[idx].given;
}

void options_format(const OptionValues *vals, char *buf, size_t n) {
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < vals->count && used < n; i++) {
        const OptionSpec *s = &vals->spec[i];
        const OptionValue *v = &vals->v[i];
        const char *sep = used ? "," : "";
        if (s->type == OPT_BOOL) {
            if (v->i) {
                used += (size_t)snprintf(buf + used, n - used, "%s%s", sep, s->name);
            }
        } else if (s->type == OPT_INT) {
            used += (size_t)snprintf(buf + used, n - used, "%s%s=%" PRId64, sep, s->name, v->i);
        } else {
            used += (size_t)snprintf(buf + used, n - used, "%s%s=", sep, s->name);
            for (int k = 0; k < v->n && used < n; k++) {
                used +=
                    (size_t)snprintf(buf + used, n - used, "%s%" PRId64, k ? "-" : "", v->list[k]);
            }
        }
    }
}

void options_describe(const OptionSpec *s, char *buf, size_t n) {
    switch (s->type) {
    case OPT_BOOL:
        snprintf(buf, n, "%-22s %s", s->name, s->help ? s->help : "");
        break;
    case OPT_INT: {
        char head[64];
        snprintf(head, sizeof head, "%s=%" PRId64 "..%" PRId64 " (default %" PRId64 ")", s->name,
                 s->min, s->max, s->def);
        snprintf(buf, n, "%-22s %s", head, s->help ? s->help : "");
        break;
    }
    case OPT_INT_LIST: {
        char head[96];
        snprintf(head, sizeof head, "%s=A-B-... (default %s)", s->name,
                 s->def_list ? s->def_list : "none");
        snprintf(buf, n, "%-22s %s", head, s->help ? s->help : "");
        break;
    }
    }
}

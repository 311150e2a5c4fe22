/* core/options.h: variant and solver options, "name=value,name,..." lists.
 *
 * A game or solver declares its options as a static array of OptionSpec
 * ending with {0}. options_parse() checks a user's text against it and
 * refuses unknown names, duplicates, malformed numbers and out-of-range
 * values with a message that lists what is accepted. Three types:
 *   OPT_BOOL      "sym" or "sym=1"/"sym=0" (also true/false, yes/no)
 *   OPT_INT       "w=6", checked against [min, max]
 *   OPT_INT_LIST  "moves=1-2-3", dash-separated, each item in [min, max]
 */
#ifndef CORE_OPTIONS_H
#define CORE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

#define OPTION_MAX 16      /* options per spec */
#define OPTION_LIST_MAX 32 /* items per OPT_INT_LIST value */

typedef enum OptionType { OPT_BOOL = 1, OPT_INT, OPT_INT_LIST } OptionType;

typedef struct OptionSpec {
    const char *name; /* NULL ends the array */
    OptionType type;
    int64_t min, max;     /* OPT_INT: the value; OPT_INT_LIST: each item */
    int64_t def;          /* default of OPT_BOOL (0/1) and OPT_INT */
    const char *def_list; /* default of OPT_INT_LIST, e.g. "1-2" */
    int max_items;        /* OPT_INT_LIST: at most this many items (<= OPTION_LIST_MAX) */
    const char *help;     /* one line, shown by --list */
} OptionSpec;

typedef struct OptionValue {
    bool given; /* the user named this option */
    int64_t i;  /* OPT_BOOL and OPT_INT */
    int n;      /* OPT_INT_LIST: number of items */
    int64_t list[OPTION_LIST_MAX];
} OptionValue;

typedef struct OptionValues {
    const OptionSpec *spec; /* may be NULL: no options */
    int count;
    OptionValue v[OPTION_MAX];
} OptionValues;

/* Parses text (NULL or "" for all defaults) against spec. `owner` names the
 * game or solver in messages ("game 'connect4'"). */
ErrCode options_parse(const OptionSpec *spec, const char *text, const char *owner,
                      OptionValues *out, Error *err);

/* Accessors by name. The name must be in the spec (a programming error
 * otherwise: the process aborts with a message). */
int64_t opt_int(const OptionValues *vals, const char *name);
bool opt_bool(const OptionValues *vals, const char *name);
int opt_list(const OptionValues *vals, const char *name, const int64_t **items);
bool opt_given(const OptionValues *vals, const char *name);

/* The normalized form: every OPT_INT and OPT_INT_LIST as name=value, every
 * true OPT_BOOL as its name, in spec order, comma-separated ("" if none). */
void options_format(const OptionValues *vals, char *buf, size_t n);

/* One option described for --list: "w=4..9 (default 7)  board width". */
void options_describe(const OptionSpec *spec, char *buf, size_t n);

/* Splits "name" or "name:options" into name (at most n - 1 characters) and
 * *options (NULL when there is no colon). `what` ("game", "solver") names
 * the kind in the message refusing an empty or too long name. */
ErrCode spec_split(const char *spec, const char *what, char *name, size_t n, const char **options,
                   Error *err);

/* Parses a whole decimal integer in [min, max]; false if malformed or out of
 * range. Shared by the command-line tools. */
bool parse_int64(const char *text, int64_t min, int64_t max, int64_t *out);

/* A test hook's number (GAMESMAN_VERIFY_STOP and the like): environment
 * variable `name` as parse_int64 reads it, in [min, max]. Unset or empty:
 * ERR_OK and *out unchanged; malformed or out of range: ERR_USAGE, "NAME is
 * 'TEXT': give WHAT" (`what`: "a number of tiers, at least 1"). */
ErrCode env_int64(const char *name, int64_t min, int64_t max, const char *what, int64_t *out,
                  Error *err);

#endif /* CORE_OPTIONS_H */

/* solvers/store_journal.c: the journal of --verify (store_internal.h
 * VerifyJournal; bin/solve --journal FILE), so that a verification stopped
 * at any point (a kill, the end of a session) resumes where it stopped.
 *
 * A text file: a first line naming the database it belongs to,
 *
 *     gamesman-verify-journal 1 spec=SPEC solver=S layout=tiers tiers=N width=W
 *
 * then one line per tier verified, appended as soon as the tier passed
 * (one write, then fsync), never for a tier that failed:
 *
 *     tier=T path=whole|parts threads=N files=NAME:HEADERSUM:BYTES:RECORDS:FIRST,...
 *     positions=P win=W lose=L tie=T draw=D checked=C hist=RAW:COUNT,...
 *     counters=hash:N,unhash:N,... pieces=N blocks=N est=BYTES cpu=S wall=S end
 *
 * (on one line): the tier's files as the manifest lists them (their header
 * checksums chain to every block's), what the check found (the reached
 * positions, their counts by value, and the histogram of their records, from
 * which store_verify rebuilds the counts and the remoteness histogram
 * exactly), the game calls it counted, by parts the pieces and the child
 * blocks read, the memory estimate of the way taken, and its CPU and wall
 * seconds. A rerun with the same journal takes a tier from its line when
 * the tier's files are still those of the line and every child tier was
 * taken too (store_verify_parts.c has the rest); the last line of a tier
 * counts.
 *
 * Damage is handled, never guessed at: a last line without its newline (a
 * process stopped while writing it) is dropped and cut off the file, with a
 * note on standard error; a journal of another database (its first line)
 * is refused, as is any other malformed line (naming it), a NUL byte, a
 * file that is not a regular file, and one that another --verify holds (an
 * exclusive flock, kept while the journal is open). O(bytes of the journal) to read;
 * a tier line is O(its files + its distinct records) bytes (Connect Four
 * 6x6, from its manifest: 173 KB for ply 29's 2,358 part files, 1.5 MB for
 * the 20,568 files of the 37 tiers).
 */
#define _DEFAULT_SOURCE /* flock */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stats.h"
#include "solvers/store_internal.h"

#define JOURNAL_MAGIC "gamesman-verify-journal 1"

/* A growing text buffer (the line being made). */
typedef struct Text {
    char *s;
    size_t n, cap;
    bool failed;
} Text;

static void text_add(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(Text *t, const char *fmt, ...) {
    for (int pass = 0; pass < 2 && !t->failed; pass++) {
        va_list ap;
        va_start(ap, fmt);
        int k =
            vsnprintf(t->s != NULL ? t->s + t->n : NULL, t->s != NULL ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            t->failed = true;
        } else if (t->s != NULL && (size_t)k < t->cap - t->n) {
            t->n += (size_t)k;
            return;
        } else {
            size_t cap = (t->cap + (size_t)k + 1) * 2;
            char *s = realloc(t->s, cap);
            if (s == NULL) {
                t->failed = true;
            } else {
                t->s = s;
                t->cap = cap;
            }
        }
    }
}

/* The first line of st's journal. */
static void journal_header(const Store *st, char *buf, size_t n) {
    snprintf(buf, n, JOURNAL_MAGIC " spec=%s solver=%s layout=%s tiers=%d width=%" PRIu32,
             st->m.spec, st->m.solver, st->m.layout, st->ntiers, st->m.width);
}

char *store_journal_files(const Store *st, int t) {
    Text x = {0};
    for (int k = st->tier_file[t]; k < st->tier_file[t + 1]; k++) {
        const DbManifestFile *f = &st->m.files[k];
        text_add(&x, "%s%s:%016" PRIx64 ":%" PRIu64 ":%" PRIu64 ":%" PRIu64,
                 k > st->tier_file[t] ? "," : "", f->name, f->header_sum, f->bytes, f->records,
                 f->first);
    }
    text_add(&x, "%s", "");
    if (x.failed) {
        free(x.s);
        return NULL;
    }
    return x.s;
}

static void tier_free(JournalTier *e) {
    free(e->files);
    free(e->raw);
    free(e->n);
    memset(e, 0, sizeof *e);
}

/* The value of `key` (KEY=VALUE) at the next space-separated token of *at,
 * *at moved past it; NULL if the token is not KEY=... */
static char *field(char **at, const char *key) {
    char *tok = strsep(at, " ");
    size_t k = strlen(key);
    if (tok == NULL || strncmp(tok, key, k) != 0 || tok[k] != '=') {
        return NULL;
    }
    return tok + k + 1;
}

static bool parse_u64(const char *s, uint64_t *v) {
    if (s == NULL || *s < '0' || *s > '9') {
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    *v = x;
    return *end == '\0' && errno == 0;
}

static bool parse_seconds(const char *s, double *v) {
    if (s == NULL || *s < '0' || *s > '9') {
        return false;
    }
    char *end;
    *v = strtod(s, &end);
    return *end == '\0' && *v >= 0 && *v < 1e12;
}

/* "A:B" (decimal, or with hex: B as 16 hex digits) */
static bool parse_pair(char *s, const char **a, uint64_t *b) {
    char *colon = strrchr(s, ':');
    if (colon == NULL) {
        return false;
    }
    *colon = '\0';
    *a = s;
    return parse_u64(colon + 1, b);
}

/* Parses one tier line (NUL-terminated, no newline) of st's journal into *e;
 * NULL, or what is wrong. */
static const char *parse_tier(const Store *st, char *line, int *tier, JournalTier *e) {
    memset(e, 0, sizeof *e);
    char *at = line, *v;
    uint64_t x;
    if (!parse_u64(field(&at, "tier"), &x) || x >= (uint64_t)st->ntiers) {
        return "no tier=T of this database first";
    }
    *tier = (int)x;
    v = field(&at, "path");
    if (v == NULL || (strcmp(v, "whole") != 0 && strcmp(v, "parts") != 0)) {
        return "no path=whole|parts";
    }
    e->parts = strcmp(v, "parts") == 0;
    if (!parse_u64(field(&at, "threads"), &x) || x < 1 || x > 1024) {
        return "no threads=N";
    }
    e->threads = (int)x;
    v = field(&at, "files");
    if (v == NULL || (e->files = strdup(v)) == NULL) {
        return "no files=...";
    }
    uint64_t pos, count[VALUE_COUNT] = {0}, want[VALUE_COUNT] = {0};
    static const char *const keys[] = {"win", "lose", "tie", "draw"};
    static const Value vals[] = {VALUE_WIN, VALUE_LOSE, VALUE_TIE, VALUE_DRAW};
    if (!parse_u64(field(&at, "positions"), &pos)) {
        return "no positions=N";
    }
    for (int k = 0; k < 4; k++) {
        if (!parse_u64(field(&at, keys[k]), &want[vals[k]])) {
            return "no win=, lose=, tie=, draw= counts";
        }
    }
    if (!parse_u64(field(&at, "checked"), &e->checked)) {
        return "no checked=N";
    }
    v = field(&at, "hist");
    if (v == NULL) {
        return "no hist=RAW:COUNT,...";
    }
    size_t cap = 1;
    for (const char *c = v; *c != '\0'; c++) {
        cap += *c == ',';
    }
    e->raw = malloc(cap * sizeof *e->raw);
    e->n = malloc(cap * sizeof *e->n);
    if (e->raw == NULL || e->n == NULL) {
        return "too large to hold in memory";
    }
    uint64_t sum = 0, nraw = st->m.width == 1 ? 256 : 65536;
    for (char *item; v != NULL && *v != '\0';) {
        item = strsep(&v, ",");
        const char *a;
        uint64_t raw, n;
        if (!parse_pair(item, &a, &n) || !parse_u64(a, &raw) || raw >= nraw ||
            raw == DB_UNREACHED || store_record_problem(st, (uint32_t)raw) != NULL || n == 0 ||
            sum + n < sum) {
            return "a hist entry that is not RECORD:COUNT of a record this database holds";
        }
        e->raw[e->nhist] = (uint32_t)raw;
        e->n[e->nhist++] = n;
        sum += n;
        count[db_raw_value(&st->fmt, (uint32_t)raw)] += n;
    }
    if (sum != pos || memcmp(count, want, sizeof count) != 0) {
        return "hist= does not add up to positions= and the counts";
    }
    if (e->checked != pos) {
        return "checked= is not positions= (a tier passes with every reached position checked)";
    }
    v = field(&at, "counters");
    for (int i = 0; i < COUNTER_COUNT; i++) {
        char *item = v != NULL ? strsep(&v, ",") : NULL;
        const char *a;
        if (item == NULL || !parse_pair(item, &a, &x) || strcmp(a, counter_names[i]) != 0) {
            return "no counters= with every counter in order";
        }
        counters_set(&e->counters, i, x);
    }
    if (v != NULL) {
        return "more counters than this build has";
    }
    if (!parse_u64(field(&at, "pieces"), &e->pieces) ||
        !parse_u64(field(&at, "blocks"), &e->blocks) || !parse_u64(field(&at, "est"), &e->est)) {
        return "no pieces=, blocks=, est=";
    }
    if (!parse_seconds(field(&at, "cpu"), &e->cpu) ||
        !parse_seconds(field(&at, "wall"), &e->wall)) {
        return "no cpu=S wall=S";
    }
    char *end = strsep(&at, " ");
    if (end == NULL || strcmp(end, "end") != 0 || at != NULL) {
        return "no end after wall=";
    }
    e->have = true;
    return NULL;
}

/* Flushes the directory holding path (a new journal's name). */
static void sync_parent(const char *path) {
    char *copy = strdup(path);
    if (copy == NULL) {
        return;
    }
    int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(copy);
}

/* Writes all n bytes at the end of the journal, then flushes them. */
static ErrCode journal_write(VerifyJournal *j, const char *s, size_t n, Error *err) {
    for (size_t done = 0; done < n;) {
        ssize_t k = write(j->fd, s + done, n - done);
        if (k < 0 && errno == EINTR) {
            continue;
        }
        if (k <= 0) {
            return error_set(err, ERR_IO, "cannot write the journal %s: %s", j->path,
                             k < 0 ? strerror(errno) : "nothing written");
        }
        done += (size_t)k;
    }
    if (fsync(j->fd) != 0) {
        return error_set(err, ERR_IO, "cannot flush the journal %s: %s", j->path, strerror(errno));
    }
    return ERR_OK;
}

/* Reads the whole journal (open, at most `size` bytes) into a new buffer. */
static char *read_all(int fd, off_t size, size_t *got) {
    char *buf = malloc((size_t)size + 1);
    *got = 0;
    while (buf != NULL && *got < (size_t)size) {
        ssize_t k = pread(fd, buf + *got, (size_t)size - *got, (off_t)*got);
        if (k < 0 && errno == EINTR) {
            continue;
        }
        if (k <= 0) {
            break;
        }
        *got += (size_t)k;
    }
    if (buf != NULL) {
        buf[*got] = '\0';
    }
    return buf;
}

ErrCode store_journal_open(const Store *st, const char *path, VerifyJournal *j, Error *err) {
    memset(j, 0, sizeof *j);
    j->fd = -1;
    snprintf(j->path, sizeof j->path, "%s", path);
    if (!st->tiers || st->bdd != NULL) {
        return error_set(err, ERR_USAGE,
                         "--journal resumes a verification tier by tier, and %s holds no tiers "
                         "(layout %s); verify it without --journal",
                         st->dir.path, st->m.layout);
    }
    j->ntiers = st->ntiers;
    j->tier = calloc((size_t)st->ntiers, sizeof *j->tier);
    if (j->tier == NULL) {
        return error_set(err, ERR_MEMORY, "out of memory for the journal");
    }
    j->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_NONBLOCK | O_CLOEXEC, 0644);
    struct stat sb;
    if (j->fd < 0 || fstat(j->fd, &sb) != 0) {
        return error_set(err, ERR_IO, "cannot open the journal %s: %s", path, strerror(errno));
    }
    if (!S_ISREG(sb.st_mode)) {
        return error_set(err, ERR_IO,
                         "the journal %s is not a regular file; give another --journal", path);
    }
    if (flock(j->fd, LOCK_EX | LOCK_NB) != 0) {
        return error_set(err, ERR_IO,
                         "the journal %s is in use by another --verify (it holds the file's lock); "
                         "wait for it, or give another --journal",
                         path);
    }
    size_t size;
    char *buf = read_all(j->fd, sb.st_size, &size);
    if (buf == NULL || size != (size_t)sb.st_size) {
        free(buf);
        return error_set(err, ERR_IO, "cannot read the journal %s", path);
    }
    /* The first line first, before anything is changed: a file that is not
     * this database's journal is refused untouched. A first line cut short
     * (a run stopped while creating the journal) is a prefix of it. */
    char header[DBSTORE_SPEC_MAX + 256];
    journal_header(st, header, sizeof header);
    char *nl = strchr(buf, '\n');
    size_t first = nl != NULL ? (size_t)(nl - buf) : size;
    if (size > 0 && (nl != NULL ? first != strlen(header) || strncmp(buf, header, first) != 0
                                : first > strlen(header) || strncmp(buf, header, first) != 0)) {
        bool ours = strncmp(buf, JOURNAL_MAGIC " ", strlen(JOURNAL_MAGIC) + 1) == 0;
        buf[first < 300 ? first : 300] = '\0';
        ErrCode rc = error_set(
            err, ERR_USAGE,
            ours ? "the journal %s is of another database (%s), not of %s (%s); give another "
                   "--journal"
                 : "%s is not a --verify journal (its first line '%.60s' is not a journal's); "
                   "give another --journal",
            path, buf + (ours ? strlen(JOURNAL_MAGIC) + 1 : 0), st->dir.path,
            header + strlen(JOURNAL_MAGIC) + 1);
        free(buf);
        return rc;
    }
    /* A last line without its newline: cut off (a run stopped writing it). */
    size_t keep = size;
    while (keep > 0 && buf[keep - 1] != '\n') {
        keep--;
    }
    const char *nul = memchr(buf, '\0', keep);
    if (nul != NULL) {
        size_t at = (size_t)(nul - buf);
        free(buf);
        return error_set(err, ERR_IO,
                         "the journal %s holds a NUL byte at offset %zu (not a journal's text); "
                         "give another --journal",
                         path, at);
    }
    if (keep < size) {
        if (ftruncate(j->fd, (off_t)keep) != 0 || fsync(j->fd) != 0) {
            free(buf);
            return error_set(err, ERR_IO,
                             "cannot cut the truncated last line off the journal %s: %s", path,
                             strerror(errno));
        }
        fprintf(stderr,
                "verify: journal %s: dropped its last line, cut short (%zu bytes without a "
                "newline: a run stopped while writing it)\n",
                path, size - keep);
        j->dropped = true;
        buf[keep] = '\0';
    }
    ErrCode rc = ERR_OK;
    if (keep == 0) {
        size_t n = strlen(header);
        header[n] = '\n';
        rc = journal_write(j, header, n + 1, err);
        header[n] = '\0';
        sync_parent(path);
    }
    char *at = buf;
    for (int line = 1; rc == ERR_OK && *at != '\0'; line++) {
        char *eol = strchr(at, '\n'), *text = at;
        *eol = '\0';
        at = eol + 1;
        if (line > 1) {
            int t = -1;
            JournalTier e;
            const char *why = parse_tier(st, text, &t, &e);
            if (why != NULL) {
                tier_free(&e);
                rc = error_set(err, ERR_IO,
                               "the journal %s: line %d is malformed (%s); remove that line (the "
                               "tier is verified again), or give another --journal",
                               path, line, why);
            } else {
                tier_free(&j->tier[t]); /* the last line of a tier counts */
                j->tier[t] = e;
                j->lines++;
            }
        }
    }
    free(buf);
    return rc;
}

void store_journal_close(VerifyJournal *j) {
    if (j->fd >= 0) {
        close(j->fd); /* releases the flock */
    }
    for (int t = 0; t < j->ntiers && j->tier != NULL; t++) {
        tier_free(&j->tier[t]);
    }
    free(j->tier);
    memset(j, 0, sizeof *j);
    j->fd = -1;
}

bool store_journal_matches(const Store *st, const VerifyJournal *j, int t) {
    if (j == NULL || j->fd < 0 || t < 0 || t >= j->ntiers || !j->tier[t].have) {
        return false;
    }
    char *files = store_journal_files(st, t);
    bool same = files != NULL && strcmp(files, j->tier[t].files) == 0;
    free(files);
    return same;
}

ErrCode store_journal_append(const Store *st, VerifyJournal *j, int t, const JournalTier *e,
                             Error *err) {
    Text x = {0};
    uint64_t pos = 0, count[VALUE_COUNT] = {0};
    for (int i = 0; i < e->nhist; i++) {
        pos += e->n[i];
        count[db_raw_value(&st->fmt, e->raw[i])] += e->n[i];
    }
    text_add(&x,
             "tier=%d path=%s threads=%d files=%s positions=%" PRIu64 " win=%" PRIu64
             " lose=%" PRIu64 " tie=%" PRIu64 " draw=%" PRIu64 " checked=%" PRIu64 " hist=",
             t, e->parts ? "parts" : "whole", e->threads, e->files, pos, count[VALUE_WIN],
             count[VALUE_LOSE], count[VALUE_TIE], count[VALUE_DRAW], e->checked);
    for (int i = 0; i < e->nhist; i++) {
        text_add(&x, "%s%" PRIu32 ":%" PRIu64, i > 0 ? "," : "", e->raw[i], e->n[i]);
    }
    text_add(&x, " counters=");
    for (int i = 0; i < COUNTER_COUNT; i++) {
        text_add(&x, "%s%s:%" PRIu64, i > 0 ? "," : "", counter_names[i],
                 counters_get(&e->counters, i));
    }
    text_add(&x, " pieces=%" PRIu64 " blocks=%" PRIu64 " est=%" PRIu64 " cpu=%.3f wall=%.3f end\n",
             e->pieces, e->blocks, e->est, e->cpu, e->wall);
    ErrCode rc = x.failed ? error_set(err, ERR_MEMORY, "out of memory for a journal line")
                          : journal_write(j, x.s, x.n, err);
    free(x.s);
    return rc;
}

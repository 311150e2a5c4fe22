/* core/error.h: error codes and messages.
 *
 * Every fallible function returns an ErrCode (ERR_OK == 0) and, on failure,
 * fills an Error with a message that says what went wrong and what to do.
 * The command-line tools exit with the code, so every failure is non-zero.
 * A message is one line of printable ASCII: error_set and error_prefix pass
 * it through text_escape, so input quoted in it (a position, a file name)
 * cannot put a newline or a terminal escape sequence on standard error.
 */
#ifndef CORE_ERROR_H
#define CORE_ERROR_H

#include <stdarg.h>
#include <stddef.h>

typedef enum ErrCode {
    ERR_OK = 0,
    ERR_USAGE = 2,       /* bad input: unknown name, bad option, malformed position */
    ERR_UNSUPPORTED = 3, /* this solver cannot run this game (the message says why) */
    ERR_MEMORY = 4,      /* the solve would not fit in memory, or an allocation failed */
    ERR_IO = 5,          /* a file could not be read or written, or is corrupt */
    ERR_INTERNAL = 6,    /* a broken invariant in a game module or a solver */
    ERR_LIMIT = 7,       /* a configured limit was reached (calls, depth, remoteness) */
} ErrCode;

typedef struct Error {
    ErrCode code;
    char msg[1024];
} Error;

/* Records code and a printf-style message in err (which may be NULL) and
 * returns code, so that callers can write `return error_set(err, ...)`. */
ErrCode error_set(Error *err, ErrCode code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefixes the message already in err with a printf-style context. */
void error_prefix(Error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Copies text into buf (n bytes, always NUL-terminated when n > 0) with
 * every byte outside printable ASCII (0x20..0x7e) written as \xNN: a
 * newline becomes \x0a, ESC \x1b. Stops before an escape that would not
 * fit. Returns buf. For anything that quotes user input outside an Error. */
const char *text_escape(const char *text, char *buf, size_t n);

/* The end of a command's run: flushes and closes standard output, and
 * turns rc == 0 into ERR_IO, with "PROG: cannot write WHAT to standard
 * output: REASON" on stderr, when the output could not be written (a full
 * disk, a closed pipe). Returns rc otherwise. */
int error_finish_stdout(int rc, const char *prog, const char *what);

/* Clears err to ERR_OK with an empty message. */
void error_clear(Error *err);

/* The first error of a parallel region (OpenMP workers of the tier
 * solvers): records code and the message in err and raises *failed, unless
 * *failed is already up (the first one wins; a named critical section
 * orders them). Workers poll error_once_failed to stop early. */
void error_once_vset(Error *err, volatile int *failed, ErrCode code, const char *fmt, va_list ap);

static inline int error_once_failed(const volatile int *failed) {
    return __atomic_load_n(failed, __ATOMIC_ACQUIRE);
}

#endif /* CORE_ERROR_H */

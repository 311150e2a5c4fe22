/* core/error.c: see error.h. */
#include "core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *text_escape(const char *text, char *buf, size_t n) {
    static const char hex[] = "0123456789abcdef";
    size_t used = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        bool plain = *p >= 0x20 && *p < 0x7f;
        size_t len = plain ? 1 : 4;
        if (used + len >= n) {
            break;
        }
        if (plain) {
            buf[used++] = (char)*p;
        } else {
            buf[used++] = '\\';
            buf[used++] = 'x';
            buf[used++] = hex[*p >> 4];
            buf[used++] = hex[*p & 15];
        }
    }
    if (n > 0) {
        buf[used] = '\0';
    }
    return buf;
}

/* Escapes err->msg in place (see text_escape). */
static void escape_msg(Error *err) {
    char tmp[sizeof err->msg];
    text_escape(err->msg, tmp, sizeof tmp);
    memcpy(err->msg, tmp, sizeof tmp);
}

ErrCode error_set(Error *err, ErrCode code, const char *fmt, ...) {
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        escape_msg(err);
    }
    return code;
}

void error_prefix(Error *err, const char *fmt, ...) {
    if (err == NULL) {
        return;
    }
    char prefix[sizeof err->msg];
    char old[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    size_t n = strlen(prefix);
    memcpy(err->msg, prefix, n);
    size_t room = sizeof err->msg - 1 - n;
    size_t m = strnlen(old, room);
    memcpy(err->msg + n, old, m);
    err->msg[n + m] = '\0';
    escape_msg(err);
}

void error_clear(Error *err) {
    if (err != NULL) {
        err->code = ERR_OK;
        err->msg[0] = '\0';
    }
}

void error_once_vset(Error *err, volatile int *failed, ErrCode code, const char *fmt, va_list ap) {
#pragma omp critical(error_once)
    {
        if (!*failed) {
            char msg[sizeof err->msg];
            vsnprintf(msg, sizeof msg, fmt, ap);
            error_set(err, code, "%s", msg);
            __atomic_store_n(failed, 1, __ATOMIC_RELEASE);
        }
    }
}

int error_finish_stdout(int rc, const char *prog, const char *what) {
    errno = 0;
    bool bad = fflush(stdout) != 0 || ferror(stdout) != 0;
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = true;
        e = errno;
    }
    if (bad && rc == 0) {
        fprintf(stderr, "%s: cannot write %s to standard output%s%s\n", prog, what,
                e != 0 ? ": " : "", e != 0 ? strerror(e) : "");
        return ERR_IO;
    }
    return rc;
}

/* core/error.c: see error.h. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

ErrCode error_set(Error *err, ErrCode code, const char *fmt, ...) {
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
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
}

void error_clear(Error *err) {
    if (err != NULL) {
        err->code = ERR_OK;
        err->msg[0] = '\0';
    }
}

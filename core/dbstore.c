/* core/dbstore.c: a database directory (core/dbstore.h): opening it (a
 * directory of this user's, or one others may write only with the sticky
 * bit, for a writer), its writers' lock (an exclusive flock on DIR/lock
 * holding the writer's PID), the writer's clean-up of the temporary files
 * interrupted writers left (its own pattern only, NAME.tmp.PID.K, and only
 * once the writer has accepted the directory), and the safe write every
 * file of the directory goes through: a fresh temporary name created with
 * O_CREAT|O_EXCL|O_NOFOLLOW, written, flushed (fsync), renamed over its
 * name, the directory flushed; a failure removes the temporary file and
 * leaves the previous file intact. Reading opens with
 * O_NOFOLLOW|O_NONBLOCK and accepts only regular files. Also the build
 * string the manifests carry. Every operation is O(1) system calls but the
 * clean-up, O(entries of the directory).
 */
#define _DEFAULT_SOURCE /* flock, S_ISVTX, O_NOFOLLOW with openat */
#include "core/dbstore.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dbstore_internal.h"

#ifndef GAMESMAN_COMMIT
#define GAMESMAN_COMMIT "unknown"
#endif

const char *dbstore_build(void) { return "gamesman-perf " GAMESMAN_COMMIT ", gcc " __VERSION__; }

/* ------------------------------------------------------------ directory */

ErrCode dbstore_dir_open(const char *path, bool create, DbDir *d, Error *err) {
    memset(d, 0, sizeof *d);
    d->fd = -1;
    d->lock_fd = -1;
    if (strlen(path) >= sizeof d->path - DBSTORE_NAME_MAX - 32) {
        return error_set(err, ERR_IO, "database directory name too long: %.100s...", path);
    }
    snprintf(d->path, sizeof d->path, "%s", path);
    if (create && mkdir(path, 0755) != 0 && errno != EEXIST) {
        return error_set(err, ERR_IO, "cannot create the database directory %s: %s", path,
                         strerror(errno));
    }
    d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d->fd < 0) {
        int e = errno;
        if (e == ENOTDIR) {
            return error_set(err, ERR_IO, "the database directory %s is not a directory", path);
        }
        return error_set(err, ERR_IO, "cannot open the database directory %s: %s%s", path,
                         strerror(e), e == ENOENT ? " (solve with --solver S --db DIR first)" : "");
    }
    struct stat st;
    if (fstat(d->fd, &st) != 0) {
        ErrCode rc = error_set(err, ERR_IO, "cannot stat %s: %s", path, strerror(errno));
        dbstore_dir_close(d);
        return rc;
    }
    if (create && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
        dbstore_dir_close(d);
        return error_set(err, ERR_IO,
                         "the database directory %s can be written by every user and has no "
                         "sticky bit, so another user could replace its files; use a directory "
                         "of your own (chmod o-w %s)",
                         path, path);
    }
    return ERR_OK;
}

void dbstore_dir_close(DbDir *d) {
    if (d->lock_fd >= 0) {
        close(d->lock_fd); /* releases the flock */
    }
    if (d->fd >= 0) {
        close(d->fd);
    }
    d->fd = d->lock_fd = -1;
}

int dbstore_open_regular(const DbDir *d, const char *name, int flags, bool *missing, uint64_t *size,
                         Error *err) {
    if (missing != NULL) {
        *missing = false;
    }
    int fd = openat(d->fd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT && missing != NULL) {
            *missing = true;
            return -1;
        }
        if (e == ELOOP) {
            error_set(err, ERR_IO,
                      "%s/%s is a symbolic link, which a database never holds; "
                      "remove it",
                      d->path, name);
        } else {
            error_set(err, ERR_IO, "cannot open %s/%s: %s", d->path, name, strerror(e));
        }
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        error_set(err, ERR_IO,
                  "%s/%s is not a regular file (a FIFO, device or directory); "
                  "remove it",
                  d->path, name);
        close(fd);
        return -1;
    }
    /* Back to blocking reads: O_NONBLOCK only kept open() from waiting. */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) {
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    if (size != NULL) {
        *size = (uint64_t)st.st_size;
    }
    return fd;
}

ErrCode dbstore_lock(DbDir *d, Error *err) {
    int fd = dbstore_open_regular(d, "lock", O_RDWR | O_CREAT, NULL, NULL, err);
    if (fd < 0) {
        return ERR_IO;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        char buf[32] = {0};
        ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        long pid = n > 0 ? strtol(buf, NULL, 10) : 0;
        close(fd);
        if (e == EWOULDBLOCK) {
            return error_set(err, ERR_IO,
                             "the database directory %s is in use by another solve (process %ld "
                             "holds %s/lock); wait for it to finish or use another --db",
                             d->path, pid, d->path);
        }
        return error_set(err, ERR_IO, "cannot lock %s/lock: %s", d->path, strerror(e));
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        ErrCode rc = error_set(err, ERR_IO, "cannot write %s/lock: %s", d->path, strerror(errno));
        close(fd);
        return rc;
    }
    d->lock_fd = fd;
    return ERR_OK;
}

/* Digits [p, end) are a decimal number of 1 to `most` digits, with no
 * leading zero unless `zero_ok` and the number is 0; returns the end of
 * the digits, or NULL. */
static const char *decimal(const char *p, size_t most, bool zero_ok) {
    size_t n = strspn(p, "0123456789");
    if (n == 0 || n > most || (p[0] == '0' && (n > 1 || !zero_ok))) {
        return NULL;
    }
    return p + n;
}

/* A name the database writes (core/dbstore.h): "manifest",
 * "manifest-of-N.txt", or a record file "X.gmdb" (X a lower-case letter,
 * then lower-case letters, digits and '-'). [name, end). */
static bool db_name(const char *name, const char *end) {
    size_t len = (size_t)(end - name);
    if (len == 8 && memcmp(name, "manifest", 8) == 0) {
        return true;
    }
    if (len > 16 && memcmp(name, "manifest-of-", 12) == 0) {
        const char *n = decimal(name + 12, 6, false);
        return n != NULL && n + 4 == end && memcmp(n, ".txt", 4) == 0;
    }
    if (len < 6 || len >= DBSTORE_NAME_MAX || memcmp(end - 5, ".gmdb", 5) != 0 || name[0] < 'a' ||
        name[0] > 'z') {
        return false;
    }
    for (const char *p = name; p < end - 5; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-')) {
            return false;
        }
    }
    return true;
}

bool dbstore_tmp_name(const char *tmp) {
    /* NAME.tmp.PID.K, exactly as dbstore_tmp_create writes it */
    const char *t = strstr(tmp, ".tmp.");
    if (t == NULL || !db_name(tmp, t)) {
        return false;
    }
    const char *pid = decimal(t + 5, 10, false);
    if (pid == NULL || *pid != '.') {
        return false;
    }
    const char *k = decimal(pid + 1, 10, true);
    return k != NULL && *k == '\0';
}

void dbstore_clean_tmp(const DbDir *d) {
    if (d->lock_fd < 0) {
        return; /* not the writer: another process may be writing them */
    }
    int dfd = dup(d->fd);
    DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (dir == NULL) {
        if (dfd >= 0) {
            close(dfd);
        }
        return;
    }
    uid_t me = geteuid();
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        struct stat st;
        /* unlinkat never follows a link; only this user's files and links
         * (root in a shared sticky directory leaves other users' alone) */
        if (dbstore_tmp_name(e->d_name) &&
            fstatat(d->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) && st.st_uid == me) {
            unlinkat(d->fd, e->d_name, 0);
        }
    }
    closedir(dir);
}

bool dbstore_exists(const DbDir *d, const char *name) {
    struct stat st;
    return fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

void dbstore_remove(const DbDir *d, const char *name) { unlinkat(d->fd, name, 0); }

/* --------------------------------------------------------- safe writes */

ErrCode dbstore_write_all(int fd, const void *data, uint64_t n, const char *path, Error *err) {
    const unsigned char *p = data;
    while (n > 0) {
        size_t chunk = n > (UINT64_C(1) << 30) ? (size_t)1 << 30 : (size_t)n;
        ssize_t w = write(fd, p, chunk);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return error_set(err, ERR_IO, "cannot write %s: %s%s", path, strerror(errno),
                             errno == ENOSPC ? " (free some space and run again: the files "
                                               "already written are kept)"
                                             : "");
        }
        p += w;
        n -= (uint64_t)w;
    }
    return ERR_OK;
}

int dbstore_tmp_create(const DbDir *d, const char *name, char *tmp, size_t n, Error *err) {
    static unsigned counter;
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned k = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
        snprintf(tmp, n, "%s.tmp.%ld.%u", name, (long)getpid(), k);
        int fd = openat(d->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0) {
            return fd;
        }
        if (errno != EEXIST) {
            error_set(err, ERR_IO, "cannot create %s/%s: %s", d->path, tmp, strerror(errno));
            return -1;
        }
    }
    error_set(err, ERR_IO, "cannot create a temporary file for %s/%s: every name is taken", d->path,
              name);
    return -1;
}

ErrCode dbstore_tmp_commit(const DbDir *d, int fd, const char *tmp, const char *name, ErrCode rc,
                           Error *err) {
    if (rc == ERR_OK && fsync(fd) != 0) {
        rc =
            error_set(err, ERR_IO, "cannot flush %s/%s to disk: %s", d->path, tmp, strerror(errno));
    }
    if (close(fd) != 0 && rc == ERR_OK) {
        rc = error_set(err, ERR_IO, "cannot close %s/%s: %s", d->path, tmp, strerror(errno));
    }
    if (rc == ERR_OK && renameat(d->fd, tmp, d->fd, name) != 0) {
        rc = error_set(err, ERR_IO, "cannot rename %s/%s to %s: %s", d->path, tmp, name,
                       strerror(errno));
    }
    if (rc != ERR_OK) {
        unlinkat(d->fd, tmp, 0);
        return rc;
    }
    fsync(d->fd);
    return ERR_OK;
}

uint64_t dbstore_files_limit(uint64_t want) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) {
        return 0;
    }
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
        struct rlimit up = rl;
        up.rlim_cur = rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want ? rl.rlim_max : want;
        if (up.rlim_cur > rl.rlim_cur && setrlimit(RLIMIT_NOFILE, &up) == 0) {
            rl = up;
        }
    }
    return rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_cur;
}

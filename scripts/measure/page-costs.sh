#!/bin/sh
# scripts/measure/page-costs.sh FILE [N]: what a reader of record files
# pays on this host for memory and system calls (docs/connect-four.md,
# queries; core/dbstore.h, dbstore_file_open_lean). FILE is a record file
# of a database (one with a zstd dictionary: 256 blocks or more); it is
# read once first so that its pages are in the page cache. Prints one
# `key value` line a figure, microseconds:
#   anon_first_touch_us      a page of fresh anonymous memory, first written
#   anon_again_us            the same page again
#   small_2mib_first_touch_us  2 MiB of fresh memory first written, 4 KiB
#                            pages (a fault each)
#   huge_2mib_first_touch_us   the same advised to be a transparent huge
#                            page (MADV_HUGEPAGE: one fault, where the
#                            kernel's THP setting allows it)
#   map_first_touch_us       a page of FILE mapped, first read, one in 16
#                            (each one a fault: the kernel maps 16 around it)
#   pread_256_us, pread_64k_us  a pread of 256 bytes, of 64 KiB, into a
#                            buffer already touched
#   ddict_live_us            making FILE's zstd dictionary (ZSTD_createDDict)
#                            N times, all kept (fresh memory each time)
#   ddict_recycled_us        the same, each freed before the next is made
#   ddict_bytes              the memory of one (ZSTD_sizeof_DDict)
# Compiles a small C program with cc (libzstd-dev, which the build needs).
set -eu
file=$1
n=${2:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/pc.c" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
int main(int argc, char **argv) {
    int n = atoi(argv[2]);
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    off_t len = lseek(fd, 0, SEEK_END);
    static unsigned char buf[1 << 16];
    for (off_t o = 0; o < len; o += sizeof buf) {
        if (pread(fd, buf, sizeof buf, o) < 0) {
            return 1;
        }
    }
    volatile unsigned long sink = 0;
    size_t pages = 4096;
    char *p = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    double t = now();
    for (size_t i = 0; i < pages; i++) {
        p[i * 4096] = 1;
    }
    printf("anon_first_touch_us %.2f\n", (now() - t) / (double)pages * 1e6);
    t = now();
    for (size_t i = 0; i < pages; i++) {
        sink += (unsigned long)p[i * 4096];
    }
    printf("anon_again_us %.3f\n", (now() - t) / (double)pages * 1e6);
    /* 2 MiB first written in 4 KiB pages, then 2 MiB advised to be one
     * transparent huge page (core/mem.h mem_alloc_huge) */
    for (int huge = 0; huge < 2; huge++) {
        const size_t mib2 = (size_t)2 << 20;
        char *r = mmap(NULL, 2 * mib2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char *a = (char *)(((uintptr_t)r + mib2 - 1) & ~(uintptr_t)(mib2 - 1));
        if (huge) {
            madvise(a, mib2, MADV_HUGEPAGE);
        }
        t = now();
        for (size_t i = 0; i < mib2; i += 4096) {
            a[i] = 1;
        }
        printf("%s_2mib_first_touch_us %.1f\n", huge ? "huge" : "small", (now() - t) * 1e6);
        munmap(r, 2 * mib2);
    }
    size_t fp = (size_t)len / 4096, touched = 0;
    unsigned char *m = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, 0);
    t = now();
    for (size_t i = 0; i < fp; i += 16, touched++) {
        sink += m[i * 4096];
    }
    printf("map_first_touch_us %.2f\n", (now() - t) / (double)touched * 1e6);
    munmap(m, (size_t)len);
    size_t reads = fp < 1000 ? 1000 : fp;
    t = now();
    for (size_t i = 0; i < reads; i++) {
        sink += (unsigned long)pread(fd, buf, 256, (off_t)((i * 4096) % ((size_t)len - 256)));
    }
    printf("pread_256_us %.2f\n", (now() - t) / (double)reads * 1e6);
    size_t big = (size_t)len > sizeof buf ? (size_t)len - sizeof buf : 0;
    t = now();
    for (size_t i = 0; i < reads; i++) {
        sink += (unsigned long)pread(fd, buf, sizeof buf, big > 0 ? (off_t)((i * 4096) % big) : 0);
    }
    printf("pread_64k_us %.2f\n", (now() - t) / (double)reads * 1e6);
    unsigned char h[512 + 65536];
    if (pread(fd, h, sizeof h, 0) < 512) {
        return 1;
    }
    uint32_t d;
    memcpy(&d, h + 344, 4);
    if (d == 0 || d > 65536) {
        fprintf(stderr, "%s has no dictionary\n", argv[1]);
        return 1;
    }
    ZSTD_DDict **all = malloc((size_t)n * sizeof *all);
    t = now();
    for (int i = 0; i < n; i++) {
        all[i] = ZSTD_createDDict(h + 512, d);
    }
    printf("ddict_live_us %.2f\n", (now() - t) / n * 1e6);
    printf("ddict_bytes %zu\n", ZSTD_sizeof_DDict(all[0]));
    for (int i = 0; i < n; i++) {
        ZSTD_freeDDict(all[i]);
    }
    free(all);
    t = now();
    for (int i = 0; i < n; i++) {
        ZSTD_freeDDict(ZSTD_createDDict(h + 512, d));
    }
    printf("ddict_recycled_us %.2f\n", (now() - t) / n * 1e6);
    return sink == 42 ? 2 : 0;
}
EOF
cc -O2 -o "$tmp/pc" "$tmp/pc.c" -lzstd
"$tmp/pc" "$file" "$n"

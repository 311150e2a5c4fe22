/* core/sort.h: sorting the short arrays of one position (its children,
 * its parents) where qsort's call per compare costs more than the sort.
 *
 * sort_u64 sorts a[0 .. n) ascending: Shell sort with Ciura's gaps, the
 * compare inline. O(n^1.3) or so; meant for n up to a few hundred (a
 * position's children or un-moves), not for large arrays.
 */
#ifndef CORE_SORT_H
#define CORE_SORT_H

#include <stdint.h>

static inline void sort_u64(uint64_t *a, int n) {
    static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (int gi = 0; gi < (int)(sizeof gaps / sizeof gaps[0]); gi++) {
        int gap = gaps[gi];
        for (int i = gap; i < n; i++) {
            uint64_t x = a[i];
            int j = i;
            for (; j >= gap && a[j - gap] > x; j -= gap) {
                a[j] = a[j - gap];
            }
            a[j] = x;
        }
    }
}

#endif /* CORE_SORT_H */

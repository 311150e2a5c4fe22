/* fuzz/journal.c: fuzz target of --verify's journal reader
 * (solvers/store_journal.c store_journal_open: the first line, a last line
 * cut short, every tier line) and of the verification that takes tiers
 * from it (solvers/store.h store_verify_journal).
 *
 * Input: one mode byte, then the text of a journal, written as the journal
 * file of a copy of the reference database connect4-4x4-tier (fuzz/corpus.sh;
 * without $GAMESMAN_FUZZ_DBS the input is ignored: the reader needs a
 * database to hold the journal against). Bit 0 of the mode puts that
 * database's first line before the text (so that the tier lines behind it
 * are parsed); bit 1 runs store_verify_journal (every tier not taken from the
 * journal checked, tens of milliseconds), else the journal is opened,
 * matched tier by tier and closed.
 *
 * Checked (a finding when false): a journal the reader accepts holds, for
 * each tier with a line, a files list and a histogram of records the
 * database can hold; a verification that passes has checked the manifest's
 * positions exactly (a tier counted twice or missed would not), with every
 * tier whole or by parts; and no sanitizer report anywhere below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dbstore.h"
#include "fuzz/fuzz.h"
#include "games/game.h"
#include "solvers/store.h"
#include "solvers/store_internal.h"

static char dir[4200], journal[4300];
static Game *game; /* NULL: no reference database */

static void setup(void) {
    const char *from = fuzz_reference_db("connect4-4x4-tier");
    if (from == NULL) {
        return;
    }
    snprintf(dir, sizeof dir, "%s/connect4-4x4-tier", fuzz_scratch());
    snprintf(journal, sizeof journal, "%s/journal", fuzz_scratch());
    fuzz_copy_dir(from, dir);
    Error err = {0};
    FUZZ_CHECK(game_create("connect4:w=4,h=4", &game, &err) == ERR_OK, "%s", err.msg);
}

/* Setup once, before the first input (not counted in -timeout). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    setup();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || game == NULL) {
        return 0;
    }
    Store st;
    Error err = {0};
    FUZZ_CHECK(store_open(game, dir, &st, &err) == ERR_OK, "%s", err.msg);
    char header[DBSTORE_SPEC_MAX + 256];
    int n = (data[0] & 1) ? snprintf(header, sizeof header,
                                     "gamesman-verify-journal 1 spec=%s solver=%s layout=%s "
                                     "tiers=%d width=%u\n",
                                     st.m.spec, st.m.solver, st.m.layout, st.ntiers, st.m.width)
                          : 0;
    char *text = malloc((size_t)n + size);
    FUZZ_CHECK(text != NULL, "out of memory");
    memcpy(text, header, (size_t)n);
    memcpy(text + n, data + 1, size - 1);
    fuzz_write(fuzz_scratch(), "journal", text, (size_t)n + size - 1);
    free(text);
    if (data[0] & 2) {
        uint64_t checked = 0;
        if (store_verify_journal(&st, 1, false, journal, &checked, &err) == ERR_OK) {
            FUZZ_CHECK(checked == st.m.positions, "passed with %llu of %llu positions checked",
                       (unsigned long long)checked, (unsigned long long)st.m.positions);
            FUZZ_CHECK(st.verify_whole + st.verify_parts == st.ntiers, "%d + %d of %d tiers",
                       st.verify_whole, st.verify_parts, st.ntiers);
        }
    } else {
        VerifyJournal j;
        if (store_journal_open(&st, journal, &j, &err) == ERR_OK) {
            for (int t = 0; t < j.ntiers; t++) {
                const JournalTier *e = &j.tier[t];
                FUZZ_CHECK(!e->have || e->files != NULL, "tier %d: no files", t);
                for (int i = 0; e->have && i < e->nhist; i++) {
                    FUZZ_CHECK(e->n[i] > 0 && store_record_problem(&st, e->raw[i]) == NULL,
                               "tier %d: record %u", t, e->raw[i]);
                }
                store_journal_matches(&st, &j, t);
            }
        }
        store_journal_close(&j);
    }
    store_close(&st);
    return 0;
}

/*
 * EXEC CICS file control run in the worker, for a call whose database work runs here (a call frame of
 * kind 4 of a folder sqlbridge.cics_worker found able): READ, WRITE, REWRITE, DELETE, UNLOCK and
 * browsing (worker_cics.h says which file has which), on the call's own connection, so that they, the
 * call's EXEC SQL and its end are one unit of work. The options are read as db.cics.dispatch reads
 * them, the conditions and RESP2 values are db.cics.files', and the EIB, RESP and RESP2 are set as
 * sqlbridge.cics sets them. A condition with neither RESP nor NOHANDLE is told to the server
 * (=CONDITION), whose HANDLE table says where the program goes or which abend ends the task; an abend
 * (a record lock not granted) is told as =ABEND, for the server to end the task as it would.
 */
#include "worker_cics.h"

#include <libcob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EIB_BYTES 85
static const char *const VERBS[V_COUNT] = {"READ", "WRITE", "REWRITE", "DELETE", "UNLOCK", "STARTBR", "READNEXT",
                                           "READPREV", "RESETBR", "ENDBR"};
static const unsigned EIBFN[V_COUNT] = {0x0602, 0x0604, 0x0606, 0x0608, 0x060A, 0x060C, 0x060E, 0x0610, 0x0614,
                                        0x0612}; /* precompile.cics_table */

/* ---------------------------------------------------------------------------------- records and rids */
/* An ESDS's or RRDS's RIDFLD as a rid: its first 4 bytes (8 with XRBA), big-endian, as 8 bytes */
static void number_rid(const struct command *k, struct key *out) {
    size_t n = k->xrba ? 8 : 4;
    memset(out->b, 0, 8);
    for (size_t i = 0; i < n && i < k->ridfld_n; i++)
        out->b[8 - (n < k->ridfld_n ? n : k->ridfld_n) + i] = k->ridfld[i];
    out->n = 8;
}

/* The rid to search from (db.cics.files.FileControl._rid): 1, or 0 with the condition set */
int fc_rid(struct command *k, struct dataset *d, struct key *out) {
    if (d->org != KSDS)
        return number_rid(k, out), 1;
    long long kl = k->keylength ? number_of(k->keylength) : -1;
    if (k->keylength && kl < 0)
        return cond(k, INVREQ, 42);
    if (k->generic) {
        if (!k->keylength || kl >= (long long)d->key_length)
            return cond(k, INVREQ, 25);
        fc_key(out, k->ridfld, (int)(kl < (long long)k->ridfld_n ? kl : (long long)k->ridfld_n));
        return 1;
    }
    if (k->keylength && kl != (long long)d->key_length)
        return cond(k, INVREQ, 26);
    memset(out->b, 0, d->key_length);
    memcpy(out->b, k->ridfld, k->ridfld_n < d->key_length ? k->ridfld_n : d->key_length);
    out->n = (int)d->key_length;
    return 1;
}

/* INTO (cut to LENGTH or its size: LENGERR 11) and LENGTH (the record's whole length) */
int fc_read_result(struct command *k, const struct row *r) {
    long long into = k->length ? number_of(k->length) : (long long)k->into_n, whole = r->data_n, n = whole;
    if (whole > into) /* cut as a slice cuts (a negative length from the end) */
        cond(k, LENGERR, 11), n = into >= 0 ? into : (whole + into > 0 ? whole + into : 0);
    memcpy(k->into, r->data, (size_t)n < k->into_n ? (size_t)n : k->into_n);
    if (k->length)
        put_number(k->length, whole);
    return k->resp_ == 0;
}

/* RIDFLD given back (READNEXT, READPREV, WRITE to an ESDS): a key blank-padded to the area, an RBA or RRN
 * as 4 bytes (8 with XRBA), big-endian */
void fc_rid_back(struct command *k, struct dataset *d, const unsigned char *rid, int rid_n) {
    if (!k->ridfld)
        return;
    if (d->org == KSDS) {
        memset(k->ridfld, ' ', k->ridfld_n);
        memcpy(k->ridfld, rid, (size_t)rid_n < k->ridfld_n ? (size_t)rid_n : k->ridfld_n);
        return;
    }
    size_t w = k->xrba ? 8 : 4, m = w < k->ridfld_n ? w : k->ridfld_n;
    if (rid_n == 8)
        memcpy(k->ridfld, rid + 8 - w, m);
}

/* Whether the rid starts with the key's bytes (a GENERIC key's record) */
int fc_starts(const unsigned char *rid, int rid_n, const struct key *key) {
    return rid_n >= key->n && memcmp(rid, key->b, (size_t)key->n) == 0;
}

/* The record READ finds from the key (db.cics.files.FileControl.read): EQUAL its own, else (GTEQ, GENERIC)
 * the first at or after it, which GENERIC without GTEQ wants to start with it: 1 (in *r), or 0, NOTFND */
int fc_find(struct command *k, struct connection *c, struct dataset *d, const struct key *key, struct row *r) {
    int got = fc_run(c, d, !k->gteq && !k->generic ? S_EQUAL : S_GTEQ, key, NULL, 0, 0, r, NULL);
    if (got && k->generic && !k->gteq && !fc_starts(r->rid, r->rid_n, key))
        got = 0;
    return got ? 1 : cond(k, NOTFND, 80);
}

static void read_file(struct command *k, struct connection *c, struct dataset *d) {
    struct key key;
    struct row r;
    if (!fc_rid(k, d, &key))
        return;
    if (k->update)
        return fc_read_update(k, c, d, &key);
    if (fc_find(k, c, d, &key, &r))
        fc_read_result(k, &r);
}

/* FROM's bytes as WRITE and REWRITE take them: FROM[:LENGTH] */
int fc_from_length(const struct command *k) { return slice_length(k->from_n, k->length); }

/* FROM's bytes as a command takes them, FROM[:LENGTH] (a negative LENGTH counting from the end) */
int slice_length(size_t size, const unsigned char *length) {
    long long n = (long long)size, l = length ? number_of(length) : n;
    return (int)(l < 0 ? (n + l > 0 ? n + l : 0) : (l < n ? l : n));
}

/* The CALL's descriptor (its third parameter) cut at each ';', trailing blanks and NULs off: how many parts
 * (each part[i], len[i]); -1 when more than `most` */
int descriptor_parts(const char **part, size_t *len, int most) {
    const char *desc = cob_get_param_data(3);
    size_t n = (size_t)cob_get_param_size(3);
    while (n && (desc[n - 1] == ' ' || desc[n - 1] == 0))
        n--;
    int count = 0;
    for (size_t i = 0, start = 0; i <= n; i++) {
        if (i < n && desc[i] != ';')
            continue;
        if (count == most)
            return -1;
        part[count] = desc + start, len[count++] = i - start;
        start = i + 1;
    }
    return count;
}

/* FROM(data-area) with LENGTH (or FLENGTH) beyond the item takes that many bytes from the item's address, as
 * CICS does (FROM a record's first field, LENGTH the whole record's): the FROM parameter is that long for
 * whoever reads it, the file and queue code here and the server; an answer writes back only the item's own
 * bytes (ask_with). A LENGTH past the program's storage is its fault, as on CICS. */
#define WIDEST (16 << 20) /* a longer LENGTH is not taken (the item's size stays, the command's check answers) */
int wide_param;
size_t wide_item;
static size_t wide_size;

void widen_from(int count) {
    wide_param = 0;
    const char *parts[MAX_PARTS];
    size_t lens[MAX_PARTS];
    int n = descriptor_parts(parts, lens, MAX_PARTS), param = 4, from = 0, length = 0;
    for (int i = 2; i < n; i++) {
        const char *w = parts[i];
        size_t len = lens[i];
        if (len <= 2 || w[len - 1] != ')' || w[len - 2] != '(')
            continue;
        if (len == 6 && memcmp(w, "FROM()", 6) == 0)
            from = param;
        else if ((len == 8 && memcmp(w, "LENGTH()", 8) == 0) || (len == 9 && memcmp(w, "FLENGTH()", 9) == 0))
            length = param;
        param++;
    }
    if (!from || !length || from > count || length > count || cob_get_param_size(length) != 8)
        return;
    long long want = number_of(cob_get_param_data(length));
    size_t item = (size_t)cob_get_param_size(from);
    if (want > (long long)item && want <= WIDEST)
        wide_param = from, wide_item = item, wide_size = (size_t)want;
}

size_t cics_param_size(int i) {
    return wide_param && i == wide_param ? wide_size : (size_t)cob_get_param_size(i);
}

int fc_length_error(struct command *k, struct dataset *d, int n) {
    if (n > (int)d->max)
        return !cond(k, LENGERR, 12);
    if ((d->min == d->max && n != (int)d->max) || n < (int)(d->key_offset + d->key_length))
        return !cond(k, LENGERR, 14);
    return 0;
}

static void write_file(struct command *k, struct connection *c, struct dataset *d) {
    int n = fc_from_length(k);
    if (fc_length_error(k, d, n))
        return;
    struct key rid;
    if (d->org == KSDS) {
        if (k->keylength && number_of(k->keylength) != (long long)d->key_length)
            return (void)cond(k, INVREQ, 26);
        fc_key(&rid, k->from + d->key_offset, (int)d->key_length);
    } else if (d->org == ESDS) {
        long long next = 0;
        if (!fc_run(c, d, S_NEXT_RBA, NULL, NULL, 0, n, NULL, &next))
            fc_fail("the dataset's next RBA is gone");
        fc_changed(c);
        unsigned long long rba = (unsigned long long)(next - n);
        for (int i = 7; i >= 0; i--, rba >>= 8)
            rid.b[i] = (unsigned char)rba;
        rid.n = 8;
    } else {
        if (!k->ridfld)
            return (void)cond(k, INVREQ, 0);
        number_rid(k, &rid);
        unsigned long long rrn = 0;
        for (int i = 0; i < 8; i++)
            rrn = rrn << 8 | rid.b[i];
        if (rrn < 1)
            return (void)cond(k, INVREQ, 0);
    }
    long long changes = 0;
    fc_run(c, d, S_INSERT, &rid, k->from, n, 0, NULL, &changes);
    fc_changed(c);
    if (changes == 0)
        return (void)cond(k, DUPREC, 150);
    if (d->org == ESDS)
        fc_rid_back(k, d, rid.b, 8);
}

/* ---------------------------------------------------------------------------------- the command */
#define IS(word) (len == sizeof word - 1 && memcmp(w, word, len) == 0)

/* An option with a parameter: kept (0: one this file does not run, SET or TOKEN: the server's) */
static int parameter(struct command *k, const char *w, size_t len, unsigned char *data, size_t size) {
    int numeric = IS("LENGTH") || IS("KEYLENGTH") || IS("REQID") || IS("NUMREC") || IS("RESP") || IS("RESP2");
    if (numeric && size < 8)
        return 0;
    if (IS("FILE"))
        k->file = data, k->file_n = size;
    else if (IS("INTO"))
        k->into = data, k->into_n = size;
    else if (IS("FROM"))
        k->from = data, k->from_n = size;
    else if (IS("RIDFLD"))
        k->ridfld = data, k->ridfld_n = size;
    else if (IS("LENGTH"))
        k->length = data;
    else if (IS("KEYLENGTH"))
        k->keylength = data;
    else if (IS("REQID"))
        k->reqid = data;
    else if (IS("NUMREC"))
        k->numrec = data;
    else if (IS("RESP"))
        k->resp = data;
    else if (IS("RESP2"))
        k->resp2 = data;
    else if (!IS("SYSID"))
        return 0;
    return 1;
}

static int flag(struct command *k, const char *w, size_t len) {
    int *set = IS("GENERIC") ? &k->generic : IS("GTEQ") ? &k->gteq : IS("EQUAL") ? &k->equal
             : IS("UPDATE") ? &k->update : IS("NOSUSPEND") ? &k->nosuspend : IS("NOHANDLE") ? &k->nohandle
             : IS("XRBA") ? &k->xrba : NULL;
    if (set)
        return *set = 1;
    /* what db.cics.dispatch does not read either */
    return IS("RBA") || IS("RRN") || IS("DEBKEY") || IS("DEBREC") || IS("UNCOMMITTED") || IS("CONSISTENT") ||
           IS("REPEATABLE") || IS("MASSINSERT");
}

/* The descriptor's command and options, each OPT() taking the next parameter: 0 when not one run here */
static int options(struct command *k, int count) {
    const char *parts[MAX_PARTS];
    size_t lens[MAX_PARTS];
    int n = descriptor_parts(parts, lens, MAX_PARTS), param = 4, v = 0;
    if (n < 2)
        return 0;
    while (v < V_COUNT && !(lens[1] == strlen(VERBS[v]) && memcmp(parts[1], VERBS[v], lens[1]) == 0))
        v++;
    if (v == V_COUNT)
        return 0;
    k->line = atoi(parts[0]), k->verb = (enum verb)v;
    for (int i = 2; i < n; i++) {
        const char *w = parts[i];
        size_t len = lens[i];
        if (len > 2 && w[len - 1] == ')' && w[len - 2] == '(') {
            if (param > count || !parameter(k, w, len - 2, cob_get_param_data(param), cics_param_size(param)))
                return 0;
            param++;
        } else if (!flag(k, w, len)) {
            return 0;
        }
    }
    if (!k->file || param != count + 1)
        return 0;
    switch (k->verb) {
    case V_READ:
    case V_READNEXT:
    case V_READPREV:
        return k->into && k->ridfld;
    case V_WRITE:
    case V_REWRITE:
        return k->from != NULL;
    case V_STARTBR:
    case V_RESETBR:
        return k->ridfld != NULL;
    default:
        return 1;
    }
}
#undef IS

static uint32_t state_call; /* the call the holds and browses are of */

void cics_file_syncpoint(void) { fc_holds_end(); }

/* A CALL 'CICSRT' of file control run here (1), or not one this file runs (0: the server's) */
int cics_file(int count) {
    struct command k;
    memset(&k, 0, sizeof k);
    if (count < 4 || count > MAX_ARGS || cob_get_param_size(2) < EIB_BYTES || !options(&k, count))
        return 0;
    if (state_call != running) { /* a new call: the last one's holds and browses are gone with it */
        fc_holds_end();
        fc_browses_end();
        state_call = running;
    }
    k.eib = cob_get_param_data(2);
    struct connection *c = NULL;
    struct dataset *d = fc_dataset(&k, &c);
    if (d) {
        switch (k.verb) {
        case V_READ: read_file(&k, c, d); break;
        case V_WRITE: write_file(&k, c, d); break;
        case V_REWRITE: fc_rewrite(&k, c, d); break;
        case V_DELETE: fc_delete(&k, c, d); break;
        case V_UNLOCK: fc_unlock(&k, d); break;
        case V_STARTBR: fc_startbr(&k, c, d, 0); break;
        case V_RESETBR: fc_startbr(&k, c, d, 1); break;
        case V_READNEXT:
        case V_READPREV: fc_browse(&k, c, d); break;
        default: fc_endbr(&k, d); break;
        }
        fc_release();
    }
    return fc_finish(&k, VERBS[k.verb], EIBFN[k.verb]);
}

/* The command's end, as sqlbridge.cics ends it: an abend or a condition neither RESP nor NOHANDLE takes
 * told to the server (it routes or abends); else the EIB's EIBFN, EIBRESP, EIBRESP2 and DFHEIGDI, and
 * RESP and RESP2 when given. 1 (the CALL is answered) */
int fc_finish(struct command *k, const char *verb, unsigned fn) {
    char text[400];
    if (k->abend[0]) /* the task abends, as the server ends it (its HANDLE ABEND first) */
        snprintf(text, sizeof text, "0;=ABEND;%d;%s;%s;%s", k->line, verb, k->abend, k->why);
    else if (k->resp_ && !k->resp && !k->nohandle) /* the server's HANDLE table says where to go, or abends */
        snprintf(text, sizeof text, "0;=CONDITION;%d;%s;%d;%d", k->line, verb, k->resp_, k->resp2_);
    else
        text[0] = 0;
    if (text[0]) {
        void *data[4] = {NULL, NULL, k->eib, text};
        size_t sizes[4] = {0, 0, (size_t)cob_get_param_size(2), strlen(text)};
        ask_with(2, cob_get_s64_param(1), 3, data, sizes);
        return 1;
    }
    unsigned char *e = k->eib;
    e[20] = e[21] = 0, e[27] = (unsigned char)(fn >> 8), e[28] = fn & 0xFF;
    for (int i = 0; i < 4; i++) {
        e[76 + i] = (unsigned char)((unsigned)k->resp_ >> (24 - 8 * i));
        e[80 + i] = (unsigned char)((unsigned)k->resp2_ >> (24 - 8 * i));
    }
    if (k->resp)
        put_number(k->resp, k->resp_);
    if (k->resp2)
        put_number(k->resp2, k->resp2_);
    return 1;
}

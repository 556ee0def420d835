/*
 * EXEC CICS file control run in the worker, for a call whose database work runs here (a call frame of
 * kind 4 of a folder sqlbridge.cics_worker found able): READ (no UPDATE, INTO) and WRITE, on the call's
 * own connection, so that they, the call's EXEC SQL and its end are one unit of work. The semantics are
 * db.cics.files' and db.cics.dispatch's (the same statements on the same tables, the same conditions
 * with the same RESP2), and the EIB, RESP and RESP2 are set as sqlbridge.cics sets them; a condition
 * with neither RESP nor NOHANDLE is told to the server (=CONDITION), whose HANDLE table says where the
 * program goes or which abend ends the task. A dataset's definition is asked of the server once per
 * folder (SQLPLAN, number FILE_PLAN).
 */
#include "worker_sql.h"
#include "worker_pg.h"

#include <libcob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EIB_BYTES 85
#define FILE_PLAN (-2) /* sqlbridge.cics_worker.FILE_PLAN */
enum { READ_FN = 0x0602, WRITE_FN = 0x0604 }; /* precompile.cics_table: EIBFN */
enum { FILENOTFOUND = 12, NOTFND = 13, DUPREC = 14, INVREQ = 16, NOTOPEN = 19, LENGERR = 22 }; /* db.cics.result */
enum { KSDS, ESDS, RRDS };

static void fail(const char *what, const char *why) {
    fprintf(stderr, "cobol-mcp worker: %s: %s\n", what, why);
    _exit(70);
}

/* ---------------------------------------------------------------------------------- datasets */
struct dataset {
    struct dataset *next;
    unsigned folder;
    char file[9];
    int found, org, opened;
    uint32_t min, max, key_offset, key_length;
    char *name, *database;
    sqlite3_stmt *stmt[5]; /* opened?, read equal, read GTEQ, ESDS's next RBA, insert */
};
static struct dataset *datasets;
static const char *const STATEMENTS[5] = {
    "SELECT 1 FROM cics_datasets WHERE name = ?",
    "SELECT rid, data FROM cics_records WHERE dataset = ? AND rid = ?",
    "SELECT rid, data FROM cics_records WHERE dataset = ? AND rid >= ? ORDER BY rid LIMIT 1",
    "UPDATE cics_datasets SET next_rba = next_rba + ? WHERE name = ? RETURNING next_rba",
    "INSERT INTO cics_records (dataset, rid, data) VALUES (?, ?, ?) ON CONFLICT (dataset, rid) DO NOTHING",
};

static uint32_t u32(const unsigned char **p, const unsigned char *end, unsigned size) {
    uint32_t v = 0;
    if ((size_t)(end - *p) < size)
        fail("CICS file control", "the server's plan of a dataset does not read");
    for (unsigned i = 0; i < size; i++)
        v |= (uint32_t)(*p)[i] << (8 * i);
    *p += size;
    return v;
}

static char *text(const unsigned char **p, const unsigned char *end) {
    uint32_t n = u32(p, end, 2);
    if ((size_t)(end - *p) < n)
        fail("CICS file control", "the server's plan of a dataset does not read");
    char *t = malloc(n + 1);
    memcpy(t, *p, n);
    t[n] = 0;
    *p += n;
    return t;
}

/* FILE's definition (the server's plan: <B found><B organization><I min><I max><I key length><I key
 * offset> its name and the database, each <H length> and bytes), asked once per folder */
static struct dataset *dataset(const char *file) {
    for (struct dataset *d = datasets; d; d = d->next)
        if (d->folder == sql_folder && strcmp(d->file, file) == 0)
            return d;
    char name[9];
    snprintf(name, sizeof name, "%s", file);
    void *data[3] = {NULL, NULL, name};
    size_t sizes[3] = {0, 0, strlen(name)}, n;
    ask_with(3, FILE_PLAN, 2, data, sizes);
    const unsigned char *p = plan_asked(&n), *end = p + n;
    struct dataset *d = calloc(1, sizeof *d);
    snprintf(d->file, sizeof d->file, "%s", file);
    d->folder = sql_folder;
    d->found = (int)u32(&p, end, 1);
    d->org = (int)u32(&p, end, 1);
    d->min = u32(&p, end, 4), d->max = u32(&p, end, 4);
    d->key_length = u32(&p, end, 4), d->key_offset = u32(&p, end, 4);
    d->name = text(&p, end), d->database = text(&p, end);
    if (d->org > RRDS || d->key_length > 255 || d->key_offset > d->max)
        fail("CICS file control", "the server's plan of a dataset does not read");
    d->next = datasets, datasets = d;
    return d;
}

/* Statement k of the dataset run with these values (a blob where len >= 0, else the int64 number): its
 * first row's rid and data (returns 1), none (0); its changes in *changes */
static int run(struct dataset *d, struct connection *c, int k, const unsigned char *const *blobs, const int *lens,
               long long number, const unsigned char **rid, int *rid_n, const unsigned char **out, int *out_n,
               long long *changes) {
    if (c->pg)
        fail("CICS file control", "a dataset on PostgreSQL is the server's");
    if (!d->stmt[k] && lite.prepare_v2(c->db, STATEMENTS[k], -1, &d->stmt[k], NULL) != SQLITE_OK)
        fail("CICS file control", lite.errmsg(c->db));
    sqlite3_stmt *s = d->stmt[k];
    lite.reset(s);
    int at = 1;
    if (k == 3)
        lite.bind_int64(s, at++, number);
    lite.bind_text(s, at++, d->name, -1, NULL);
    for (int i = 0; blobs && lens[i] >= 0; i++)
        lite.bind_blob(s, at++, blobs[i], lens[i], NULL);
    int rc = lite.step(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        fail("CICS file control", lite.errmsg(c->db));
    if (changes && k == 4)
        *changes = lite.changes(c->db);
    if (rc != SQLITE_ROW) {
        lite.reset(s);
        return 0;
    }
    if (rid) { /* (the row stays the statement's until the caller has copied it: done()) */
        *rid = lite.column_blob(s, 0), *rid_n = lite.column_bytes(s, 0);
        *out = lite.column_blob(s, 1), *out_n = lite.column_bytes(s, 1);
        return 1;
    }
    if (changes && k == 3)
        *changes = lite.column_int64(s, 0); /* ESDS: the next RBA */
    lite.reset(s);
    return 1;
}

/* ---------------------------------------------------------------------------------- a command */
struct command {
    int line, write, nohandle, generic, gteq, xrba;
    unsigned char *file, *into, *from, *ridfld, *length, *keylength, *resp, *resp2, *eib;
    size_t file_n, into_n, from_n, ridfld_n;
    int resp_, resp2_;
};

static long long number_of(const unsigned char *p) {
    long long v;
    memcpy(&v, p, 8);
    return v;
}

static void put_number(unsigned char *p, long long v) { memcpy(p, &v, 8); }

/* The descriptor's options, each OPT() taking the next parameter; 0: a shape this file does not run */
static int options(struct command *k, int count) {
    const char *desc = cob_get_param_data(3);
    size_t n = (size_t)cob_get_param_size(3);
    while (n && (desc[n - 1] == ' ' || desc[n - 1] == 0))
        n--;
    int part = 0, param = 4;
    for (size_t i = 0, start = 0; i <= n; i++) {
        if (i < n && desc[i] != ';')
            continue;
        const char *w = desc + start;
        size_t len = i - start;
        start = i + 1;
        if (part++ == 0) {
            k->line = atoi(w);
            continue;
        }
        if (part == 2) {
            k->write = len == 5 && memcmp(w, "WRITE", 5) == 0;
            if (!k->write && !(len == 4 && memcmp(w, "READ", 4) == 0))
                return 0;
            continue;
        }
#define IS(word) (len == sizeof word - 1 && memcmp(w, word, len) == 0)
        if (len > 2 && w[len - 1] == ')' && w[len - 2] == '(') {
            if (param > count)
                return 0;
            unsigned char *data = cob_get_param_data(param);
            size_t size = (size_t)cob_get_param_size(param++);
            len -= 2;
            int numeric = IS("LENGTH") || IS("KEYLENGTH") || IS("RESP") || IS("RESP2");
            if (numeric && size < 8)
                return 0;
            if (IS("FILE"))
                k->file = data, k->file_n = size;
            else if (IS("INTO") && !k->write)
                k->into = data, k->into_n = size;
            else if (IS("FROM") && k->write)
                k->from = data, k->from_n = size;
            else if (IS("RIDFLD"))
                k->ridfld = data, k->ridfld_n = size;
            else if (IS("LENGTH"))
                k->length = data;
            else if (IS("KEYLENGTH"))
                k->keylength = data;
            else if (IS("RESP"))
                k->resp = data;
            else if (IS("RESP2"))
                k->resp2 = data;
            else if (!IS("SYSID"))
                return 0; /* SET, TOKEN, REQID …: the server's */
        } else if (IS("GENERIC")) {
            k->generic = 1;
        } else if (IS("GTEQ")) {
            k->gteq = 1;
        } else if (IS("NOHANDLE")) {
            k->nohandle = 1;
        } else if (IS("XRBA")) {
            k->xrba = 1;
        } else if (!(IS("EQUAL") || IS("RBA") || IS("RRN") || IS("DEBKEY") || IS("DEBREC") || IS("UNCOMMITTED") ||
                     IS("CONSISTENT") || IS("REPEATABLE") || IS("MASSINSERT") || IS("NOSUSPEND"))) {
            return 0; /* UPDATE …: the server's */
        }
#undef IS
    }
    return k->file && (k->write ? k->from != NULL : k->into != NULL && k->ridfld != NULL) && param == count + 1;
}

static int cond(struct command *k, int resp, int resp2) {
    k->resp_ = resp, k->resp2_ = resp2;
    return 0;
}

/* An ESDS's or RRDS's RIDFLD as a number: its first 4 bytes (8 with XRBA), big-endian */
static unsigned long long rid_number(const struct command *k) {
    unsigned long long v = 0;
    size_t n = k->xrba ? 8 : 4;
    for (size_t i = 0; i < n && k->ridfld && i < k->ridfld_n; i++)
        v = v << 8 | k->ridfld[i];
    return v;
}

static void rid_bytes(unsigned long long v, unsigned char *out) {
    for (int i = 7; i >= 0; i--, v >>= 8)
        out[i] = (unsigned char)v;
}

static int open_dataset(struct command *k, struct dataset **found, struct connection **conn) {
    char file[9] = {0};
    size_t n = k->file_n < 8 ? k->file_n : 8;
    for (size_t i = 0; i < n; i++)
        file[i] = (char)(k->file[i] >= 'a' && k->file[i] <= 'z' ? k->file[i] - 32 : k->file[i]);
    while (n && (file[n - 1] == ' ' || file[n - 1] == 0))
        file[--n] = 0;
    struct dataset *d = *found = dataset(file);
    if (!d->found)
        return cond(k, FILENOTFOUND, 1);
    *conn = call_connection(d->database, "CICS file control");
    if (!d->opened) {
        if (!run(d, *conn, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL))
            return cond(k, NOTOPEN, 60);
        d->opened = 1;
    }
    return 1;
}

static void read_file(struct command *k) {
    struct dataset *d;
    struct connection *c;
    if (!open_dataset(k, &d, &c))
        return;
    unsigned char key[256], number[8];
    const unsigned char *search = key;
    int key_n;
    if (d->org != KSDS) {
        rid_bytes(rid_number(k), number);
        search = number, key_n = 8;
    } else {
        long long kl = k->keylength ? number_of(k->keylength) : -1;
        if (k->keylength && kl < 0)
            return (void)cond(k, INVREQ, 42);
        if (k->generic) {
            if (!k->keylength || kl >= (long long)d->key_length)
                return (void)cond(k, INVREQ, 25);
            key_n = (int)(kl < (long long)k->ridfld_n ? kl : (long long)k->ridfld_n);
            search = k->ridfld;
        } else {
            if (k->keylength && kl != (long long)d->key_length)
                return (void)cond(k, INVREQ, 26);
            key_n = (int)d->key_length;
            size_t have = k->ridfld_n < d->key_length ? k->ridfld_n : d->key_length;
            memset(key, 0, d->key_length);
            memcpy(key, k->ridfld, have);
        }
    }
    const unsigned char *blobs[2] = {search, NULL}, *rid, *data;
    int lens[2] = {key_n, -1}, rid_n, data_n;
    int exact = !k->gteq && !k->generic;
    int got = run(d, c, exact ? 1 : 2, blobs, lens, 0, &rid, &rid_n, &data, &data_n, NULL);
    if (got && k->generic && !k->gteq && (rid_n < key_n || memcmp(rid, search, (size_t)key_n) != 0))
        got = 0;
    if (!got) {
        lite.reset(d->stmt[exact ? 1 : 2]);
        return (void)cond(k, NOTFND, 80);
    }
    long long into = k->length ? number_of(k->length) : (long long)k->into_n, whole = data_n;
    if (whole > into) /* LENGERR: cut to the length, as a slice cuts (a negative one from the end) */
        cond(k, LENGERR, 11), data_n = (int)(into >= 0 ? into : (whole + into > 0 ? whole + into : 0));
    memcpy(k->into, data, (size_t)data_n < k->into_n ? (size_t)data_n : k->into_n);
    lite.reset(d->stmt[exact ? 1 : 2]);
    if (k->length)
        put_number(k->length, whole);
}

static void write_file(struct command *k) {
    struct dataset *d;
    struct connection *c;
    if (!open_dataset(k, &d, &c))
        return;
    long long n = (long long)k->from_n;
    if (k->length) { /* FROM[:LENGTH], as a slice takes it */
        long long l = number_of(k->length);
        n = l < 0 ? (n + l > 0 ? n + l : 0) : (l < n ? l : n);
    }
    if (n > (long long)d->max)
        return (void)cond(k, LENGERR, 12);
    if ((d->min == d->max && n != (long long)d->max) || n < (long long)(d->key_offset + d->key_length))
        return (void)cond(k, LENGERR, 14);
    unsigned char number[8];
    const unsigned char *rid = number;
    int rid_n = 8;
    if (d->org == KSDS) {
        if (k->keylength && number_of(k->keylength) != (long long)d->key_length)
            return (void)cond(k, INVREQ, 26);
        rid = k->from + d->key_offset, rid_n = (int)d->key_length;
    } else if (d->org == ESDS) {
        long long next = 0;
        if (!run(d, c, 3, NULL, NULL, n, NULL, NULL, NULL, NULL, &next))
            fail("CICS file control", "the dataset's next RBA is gone");
        rid_bytes((unsigned long long)(next - n), number);
    } else {
        unsigned long long rrn = k->ridfld ? rid_number(k) : 0;
        if (rrn < 1)
            return (void)cond(k, INVREQ, 0);
        rid_bytes(rrn, number);
    }
    const unsigned char *blobs[3] = {rid, k->from, NULL};
    int lens[3] = {rid_n, (int)n, -1};
    long long changes = 0;
    run(d, c, 4, blobs, lens, 0, NULL, NULL, NULL, NULL, &changes);
    if (changes == 0)
        return (void)cond(k, DUPREC, 150);
    if (d->org == ESDS && k->ridfld) { /* the RBA given back, as wide as XRBA says, into RIDFLD's bytes */
        size_t w = k->xrba ? 8 : 4, m = w < k->ridfld_n ? w : k->ridfld_n;
        memcpy(k->ridfld, number + 8 - w, m);
    }
}

/* A CALL 'CICSRT' of READ or WRITE run here (1), or not one this file runs (0: the server's) */
int cics_file(int count) {
    struct command k;
    memset(&k, 0, sizeof k);
    if (count < 4 || count > MAX_ARGS || cob_get_param_size(2) < EIB_BYTES || !options(&k, count))
        return 0;
    k.eib = cob_get_param_data(2);
    if (k.write)
        write_file(&k);
    else
        read_file(&k);
    if (k.resp_ && !k.resp && !k.nohandle) { /* the server's HANDLE table says where to go, or abends */
        char text[96];
        snprintf(text, sizeof text, "0;=CONDITION;%d;%s;%d;%d", k.line, k.write ? "WRITE" : "READ", k.resp_, k.resp2_);
        void *data[4] = {NULL, NULL, k.eib, text};
        size_t sizes[4] = {0, 0, (size_t)cob_get_param_size(2), strlen(text)};
        ask_with(2, cob_get_s64_param(1), 3, data, sizes);
        return 1;
    }
    unsigned fn = k.write ? WRITE_FN : READ_FN;
    unsigned char *e = k.eib;
    e[20] = e[21] = 0, e[27] = (unsigned char)(fn >> 8), e[28] = fn & 0xFF;
    for (int i = 0; i < 4; i++)
        e[76 + i] = (unsigned char)((unsigned)k.resp_ >> (24 - 8 * i)), e[80 + i] = (unsigned char)((unsigned)k.resp2_ >> (24 - 8 * i));
    if (k.resp)
        put_number(k.resp, k.resp_);
    if (k.resp2)
        put_number(k.resp2, k.resp2_);
    return 1;
}

/*
 * EXEC CICS file control run in the worker (sqlbridge.cics_worker says when): what worker_cicsfile.c
 * (a command's options, datasets, the statements on SQLite and PostgreSQL, READ and WRITE, the EIB),
 * worker_cicsupdate.c (READ UPDATE, REWRITE, DELETE, UNLOCK), worker_cicsbrowse.c (STARTBR, READNEXT,
 * READPREV, RESETBR, ENDBR), worker_cicsres.c (TS and TD queues) and worker_cicscounter.c (named
 * counters) share, with worker_cicsdb.c's statements. The semantics are db.cics's and db.cics.dispatch's.
 */
#ifndef COBOL_MCP_WORKER_CICS_H
#define COBOL_MCP_WORKER_CICS_H
#include "worker_pg.h"

#pragma GCC visibility push(hidden)

enum { KSDS, ESDS, RRDS };
enum { FILENOTFOUND = 12, NOTFND = 13, DUPREC = 14, INVREQ = 16, NOTOPEN = 19, ENDFILE = 20, LENGERR = 22,
       RECORDBUSY = 101 }; /* db.cics.result */
enum verb { V_READ, V_WRITE, V_REWRITE, V_DELETE, V_UNLOCK, V_STARTBR, V_READNEXT, V_READPREV, V_RESETBR, V_ENDBR,
            V_COUNT };
/* the statements (DB_SQL): file control's, each with ?1 the dataset's name, ?2 a rid (or ESDS's length), ?3
 * a rid or a record; then TS queues', TD queues' and named counters' (worker_cicsres.c) */
enum { S_OPENED, S_EQUAL, S_GTEQ, S_NEXT_RBA, S_INSERT, S_WRITER, S_LOCK, S_LOCK_NOWAIT, S_REWRITE, S_DELETE,
       S_DELETE_FROM, S_DELETE_RANGE, S_AFTER, S_BEFORE_EQ, S_BEFORE,
       S_TS_MAKE, S_TS_ADD, S_TS_ITEM_ADD, S_TS_ITEMS, S_TS_ITEM_SET, S_TS_STATE, S_TS_ITEM_GET, S_TS_NEXT,
       S_TS_DROP, S_TS_ITEMS_DROP, S_TD_ADD, S_TD_FIRST, S_TD_TAKE, S_TD_DROP,
       S_CT_GET, S_CT_GET_LOCK, S_CT_SET, S_CT_MAKE, S_CT_DROP, S_COUNT };
extern const char *const DB_SQL[S_COUNT], *const DB_PG_SUFFIX[S_COUNT];
#define DB_ARGS 6
struct arg { /* a statement's argument: 't' text (its length, or -1: to its NUL; PostgreSQL's to its NUL), 'b'
              * bytes, 'i' a number */
    char type;
    const void *p;
    int n;
    long long i;
};
#define KEY_ROOM 257 /* a rid: a key of at most 255 bytes, an RBA or RRN of 8, high values of 256 */

struct dataset {
    struct dataset *next;
    unsigned folder;
    char file[9];
    int found, org, opened;
    uint32_t min, max, key_offset, key_length;
    char *name, *database;
};

struct key {
    unsigned char b[KEY_ROOM];
    int n;
};

struct row { /* a statement's first row: valid until the next statement */
    const unsigned char *rid, *data;
    int rid_n, data_n;
};

struct command {
    enum verb verb;
    int line, generic, gteq, equal, update, nosuspend, nohandle, xrba;
    unsigned char *file, *into, *from, *ridfld, *length, *keylength, *reqid, *numrec, *resp, *resp2, *eib;
    size_t file_n, into_n, from_n, ridfld_n;
    int resp_, resp2_;
    char abend[5], why[300]; /* an abend the command ends the task with (AFCV: a lock not granted) */
};

/* worker_cicsfile.c */
int cond(struct command *k, int resp, int resp2);
void fc_fail(const char *why);
long long number_of(const unsigned char *p);
void put_number(unsigned char *p, long long v);
struct dataset *fc_dataset(struct command *k, struct connection **conn);
int fc_rid(struct command *k, struct dataset *d, struct key *out);
int fc_run(struct connection *c, struct dataset *d, int s, const struct key *a, const unsigned char *b, int b_n,
           long long number, struct row *row, long long *count);
int db_run(struct connection *c, int s, const struct arg *args, int n, int may_fail, long long *count);
const unsigned char *db_bytes(int k, int *n);
long long db_int(int k);
int fc_finish(struct command *k, const char *verb, unsigned fn); /* the EIB, RESP, RESP2, or the server told */
extern char fc_state[6], fc_text[256]; /* a lock attempt's failure (fc_run's -1): its SQLSTATE and text */
void fc_changed(struct connection *c);
void fc_release(void); /* the last statement's row let go (SQLite's statement reset) */
int fc_read_result(struct command *k, const struct row *r);
int fc_starts(const unsigned char *rid, int rid_n, const struct key *key);
int fc_find(struct command *k, struct connection *c, struct dataset *d, const struct key *key, struct row *r);
int fc_length_error(struct command *k, struct dataset *d, int n);
int fc_from_length(const struct command *k);
int slice_length(size_t size, const unsigned char *length);
#define MAX_PARTS 64 /* a descriptor's parts at most: its line, its command and the options */
int descriptor_parts(const char **part, size_t *len, int most);
void fc_rid_back(struct command *k, struct dataset *d, const unsigned char *rid, int rid_n);
void fc_key(struct key *out, const unsigned char *b, int n);

/* worker_cicsres.c: TS and TD queues, a command's options by name; worker_cicscounter.c: named counters */
#define MAX_OPTIONS 24
struct options { /* a command's options: each with its parameter (or none: a flag) */
    int n;
    char name[MAX_OPTIONS][16];
    unsigned char *data[MAX_OPTIONS];
    size_t size[MAX_OPTIONS];
};
struct connection *res_connection(void);
unsigned char *opt(const struct options *o, const char *name, size_t *size);
long long *number(const struct options *o, const char *name, long long *out);
void counter_command(struct command *k, const struct options *o, const char *verb, const char *word);

/* worker_cicsupdate.c */
void fc_read_update(struct command *k, struct connection *c, struct dataset *d, const struct key *key);
void fc_rewrite(struct command *k, struct connection *c, struct dataset *d);
void fc_delete(struct command *k, struct connection *c, struct dataset *d);
void fc_unlock(struct command *k, struct dataset *d);
void fc_holds_end(void);

/* worker_cicsbrowse.c */
void fc_startbr(struct command *k, struct connection *c, struct dataset *d, int reset);
void fc_browse(struct command *k, struct connection *c, struct dataset *d);
void fc_endbr(struct command *k, struct dataset *d);
void fc_browses_end(void);

#pragma GCC visibility pop
#endif

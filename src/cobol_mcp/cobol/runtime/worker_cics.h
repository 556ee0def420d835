/*
 * EXEC CICS file control run in the worker (sqlbridge.cics_worker says when): what worker_cicsfile.c
 * (a command's options, datasets, the statements on SQLite and PostgreSQL, READ and WRITE, the EIB),
 * worker_cicsupdate.c (READ UPDATE, REWRITE, DELETE, UNLOCK) and worker_cicsbrowse.c (STARTBR,
 * READNEXT, READPREV, RESETBR, ENDBR) share. The semantics are db.cics.files' and db.cics.dispatch's.
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
/* the statements, each with ?1 the dataset's name, ?2 a rid (or ESDS's length), ?3 a rid or a record */
enum { S_OPENED, S_EQUAL, S_GTEQ, S_NEXT_RBA, S_INSERT, S_WRITER, S_LOCK, S_LOCK_NOWAIT, S_REWRITE, S_DELETE,
       S_DELETE_FROM, S_DELETE_RANGE, S_AFTER, S_BEFORE_EQ, S_BEFORE, S_COUNT };
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
extern char fc_state[6], fc_text[256]; /* a lock attempt's failure (fc_run's -1): its SQLSTATE and text */
void fc_changed(struct connection *c);
void fc_release(void); /* the last statement's row let go (SQLite's statement reset) */
int fc_read_result(struct command *k, const struct row *r);
int fc_length_error(struct command *k, struct dataset *d, int n);
int fc_from_length(const struct command *k);
void fc_rid_back(struct command *k, struct dataset *d, const unsigned char *rid, int rid_n);
void fc_key(struct key *out, const unsigned char *b, int n);

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

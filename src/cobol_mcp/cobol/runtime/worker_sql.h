/*
 * EXEC SQL run in the worker on SQLite (sqlbridge.inworker says when and why): what worker_sqlite.c
 * (the library, connections, plans and their cache) and worker_sql.c (a statement run, a call's
 * unit of work) share.
 */
#ifndef COBOL_MCP_WORKER_SQL_H
#define COBOL_MCP_WORKER_SQL_H
#include "worker.h"

#pragma GCC visibility push(hidden)

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef struct sqlite3_context sqlite3_context;
typedef struct sqlite3_value sqlite3_value;
enum {
    SQLITE_OK = 0,
    SQLITE_ROW = 100,
    SQLITE_DONE = 101,
    SQLITE_INTEGER = 1,
    SQLITE_FLOAT = 2,
    SQLITE_TEXT = 3,
    SQLITE_BLOB = 4,
    SQLITE_NULL = 5,
    SQLITE_OPEN_READWRITE = 0x2,
    SQLITE_OPEN_CREATE = 0x4,
    SQLITE_UTF8 = 1,
    SQLITE_DETERMINISTIC = 0x800,
    BUSY_TIMEOUT_MS = 10000, /* db.connection.BUSY_TIMEOUT_MS */
};
#define SQLITE_TRANSIENT ((void (*)(void *))-1)

struct sqlite_api {
    int (*open_v2)(const char *, sqlite3 **, int, const char *);
    int (*close)(sqlite3 *);
    int (*busy_timeout)(sqlite3 *, int);
    int (*exec)(sqlite3 *, const char *, void *, void *, char **);
    int (*prepare_v2)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
    int (*step)(sqlite3_stmt *);
    int (*reset)(sqlite3_stmt *);
    int (*finalize)(sqlite3_stmt *);
    int (*bind_int64)(sqlite3_stmt *, int, long long);
    int (*bind_text)(sqlite3_stmt *, int, const char *, int, void (*)(void *));
    int (*bind_null)(sqlite3_stmt *, int);
    int (*bind_blob)(sqlite3_stmt *, int, const void *, int, void (*)(void *));
    int (*column_count)(sqlite3_stmt *);
    int (*column_type)(sqlite3_stmt *, int);
    long long (*column_int64)(sqlite3_stmt *, int);
    double (*column_double)(sqlite3_stmt *, int);
    const unsigned char *(*column_text)(sqlite3_stmt *, int);
    int (*column_bytes)(sqlite3_stmt *, int);
    const void *(*column_blob)(sqlite3_stmt *, int);
    int (*changes)(sqlite3 *);
    int (*get_autocommit)(sqlite3 *);
    const char *(*errmsg)(sqlite3 *);
    int (*extended_errcode)(sqlite3 *);
    int (*create_function)(sqlite3 *, const char *, int, int, void *, void (*)(sqlite3_context *, int, sqlite3_value **),
                           void (*)(sqlite3_context *, int, sqlite3_value **), void (*)(sqlite3_context *));
    int (*value_type)(sqlite3_value *);
    long long (*value_int64)(sqlite3_value *);
    double (*value_double)(sqlite3_value *);
    const unsigned char *(*value_text)(sqlite3_value *);
    int (*value_bytes)(sqlite3_value *);
    void (*result_text)(sqlite3_context *, const char *, int, void (*)(void *));
    void (*result_int64)(sqlite3_context *, long long);
    void (*result_null)(sqlite3_context *);
    void (*result_error)(sqlite3_context *, const char *, int);
    void *(*aggregate_context)(sqlite3_context *, int);
};
extern struct sqlite_api lite;

struct connection {
    struct connection *next;
    char *path;
    sqlite3 *db;
    void *pg;               /* PostgreSQL's connection (worker_pg.c), instead of db */
    int in_txn, savepoint;  /* PostgreSQL: a transaction begun; the savepoint after the last change held */
    unsigned session;       /* PostgreSQL: which session (opened again after the database ended one) */
    void *files[40];        /* CICS's statements (worker_cics.h): SQLite's, prepared */
    unsigned long long files_prepared; /* PostgreSQL: which are prepared, */
    unsigned files_session; /* in which session */
};

/* sqlbridge.inworker: operations, flags, classes of pieces and kinds of columns */
enum { OP_NONE, OP_INTO, OP_CHANGE, OP_OPEN, OP_FETCH, OP_CLOSE, OP_COMMIT, OP_ROLLBACK };
enum { F_HOLD = 1, F_ROWID = 2, F_NOTFOUND = 4, F_DML = 8, F_DELETE = 16, F_SAVE = 32 };
enum { P_TEXT = 1, P_VARCHAR, P_DISPLAY, P_PACKED, P_BINARY, P_NATIVE };
enum { COL_NONE, COL_DECIMAL, COL_CHAR, COL_VARCHAR, COL_DATE };
enum { TRUNCATED = 1, DECIMAL_VALUE = 2 }; /* a number piece's `truncated` bits */
#define NO_SLOT 0xFFFF

struct piece {
    unsigned cls, is_signed, leading, separate, digits, truncated, len_size, len_native, len_signed, param;
    int scale;
    uint32_t offset, size, text_offset;
    char *name, *pic;
};

struct column {
    unsigned kind, n; /* DECIMAL: scale; CHAR: length */
};

struct bind {
    int value, indicator; /* of the reads; value -1: the rowid of the CURRENT OF cursor */
    struct column column;
};

struct output {
    struct piece target, indicator;
    unsigned has_indicator;
    struct column column;
};

struct cursor { /* a cursor of a program (its slot: sqlbridge.inworker) */
    struct cursor *next;
    char program[NAME_LENGTH];
    unsigned slot;
    int open, has_row, on_row, hold, rowid;
    long long current;
    sqlite3_stmt *stmt;
    int failed, fail_code;
    void *res;                  /* PostgreSQL: the rows its last FETCH brought, */
    int row, rows;              /* the next one of them, how many */
    char *ctid;                 /* and the row the program is on (WHERE CURRENT OF) */
    char fail_state[6];
    char *fail_text;
};


struct plan {
    unsigned op, flags, slot, current, nparams, nreads, nbinds, nouts;
    uint32_t *sizes;
    char *database, *cursor_name, *current_name, *sql;
    struct piece *reads;
    struct bind *binds;
    struct output *outs;
    sqlite3_stmt *stmt;            /* prepared on first use */
    char pg_name[24];              /* PostgreSQL: its prepared statement's name, once prepared, */
    unsigned pg_session;           /* in that session of the connection */
    struct connection *conn;       /* the database's, found on first use */
    struct cursor *cursor, *of;    /* the cursor it names, and the CURRENT OF one, found on first use */
};

typedef __int128 big;

struct outcome { /* what a statement leaves in the SQLCA */
    int code;
    char state[6];
    int errd3;
    char warn[11];
    char message[71];
};

struct value { /* a host variable's value: text (Latin-1 bytes) or n × 10^-scale (the server's Decimal or int) */
    int is_text, decimal;
    const unsigned char *text;
    size_t len;
    big n;
    int scale;
};

struct cell { /* a result column's value: SQLITE_INTEGER, _FLOAT, _TEXT (made Latin-1), _BLOB, _NULL */
    int type;
    long long i;
    double d;
    unsigned char *text;
    size_t len;
};

/* worker_sqlnum.c */
size_t to_utf8(const unsigned char *in, size_t n, unsigned char *out);
size_t to_latin1(const unsigned char *in, size_t n, unsigned char *out);
big ten(int n);
size_t plain(big n, int scale, char *out);
int shortest(double d, char *mantissa, int *point);
size_t float_text(double d, char *out);
int parse_decimal(const unsigned char *s, size_t len, big *n, int *exp);

/* worker_sqlvalue.c */
void sql_error(struct outcome *o, int code, const char *state, const char *message);
void sql_warn(struct outcome *o, int flag);
void driver_error(struct outcome *o, sqlite3 *db, int is_delete);
int read_piece(const struct piece *p, unsigned char **data, struct value *v, struct outcome *o);
size_t column_text(const struct value *v, const struct column *c, unsigned char *out);
int bind_value(sqlite3_stmt *s, int k, const struct value *v, const struct column *c);
int store_cell(const struct piece *p, unsigned char **data, const struct cell *c, const struct column *col,
               long long *cut_length, struct outcome *o);
int store_whole(const struct piece *p, unsigned char **data, long long n, struct outcome *o);

/* worker_sqlarith.c and worker_sqldate.c: DB2's exact DECIMAL functions and DB2_DATEADD (db.exact) */
struct failure {
    int set, code;
    char state[6], text[400];
};
#define MAXD 240 /* digits: DB2's 31, products of two, and room (db.exact computes with 200) */

struct dec {
    int neg, scale, n;      /* value = ±(digits) × 10^-scale */
    unsigned char d[MAXD];  /* d[0] the least significant digit, n of them */
};

extern struct failure arith_failure; /* the last function's failure, for driver_error */
void arith_register(sqlite3 *db);
void dec_trim(struct dec *x);
int dec_zero(const struct dec *x);
int dec_from_text(const unsigned char *s, size_t len, struct dec *x);
void dec_from_int(long long v, struct dec *x);
int dec_arg(sqlite3_context *ctx, sqlite3_value *v, struct dec *x, int *ok);
void dec_align(struct dec *x, int scale);
void dec_add(struct dec a, struct dec b, struct dec *r);
void dec_mul(const struct dec *a, const struct dec *b, struct dec *r);
void dec_truncate(struct dec *x, int scale);
void dec_div(struct dec a, struct dec b, int scale, struct dec *r);
size_t dec_text(const struct dec *x, char *out);
void dec_result(sqlite3_context *ctx, const struct dec *x);
void arith_fail(sqlite3_context *ctx, int code, const char *state, const char *text);
void date_add(sqlite3_context *ctx, int argc, sqlite3_value **v);
/* A date in any of DB2's string forms (ISO/JIS yyyy-mm-dd, USA mm/dd/yyyy, EUR dd.mm.yyyy, month and day
 * with or without their leading zero, trailing blanks) as yyyy-mm-dd into out (11 bytes): its length
 * (10), or 0 for text of no such shape (db.dates.iso) */
size_t date_iso(const char *s, size_t len, char *out);

/* worker_sqlite.c */
struct reader { /* the server's plan bytes read in turn (little-endian); bad: one read went past the end */
    const unsigned char *at, *end;
    int bad;
};
unsigned get_u8(struct reader *r);
unsigned get_u16(struct reader *r);
uint32_t get_u32(struct reader *r);
char *get_str(struct reader *r); /* <H length> and the bytes */
const char *sqlite_load(void);
struct connection *connection_for(const char *path, const char **why);
struct plan *plan_read(const unsigned char *bytes, size_t n);
void plan_free(struct plan *p);
struct plan *plan_find(const char *program, long long number);
void plan_keep(const char *program, long long number, struct plan *plan);
void plans_forget(void);
extern struct cursor *cursors;
struct cursor *cursor_of(const char *program, unsigned slot);
void cursor_close(struct cursor *c);
void cursors_forget(void);

/* worker_pg.c: the same on PostgreSQL, through libpq */
struct connection *pg_connect(const char *url, const char **why);
void pg_statement(struct plan *p, const char *program, unsigned char **data, const size_t *sizes, int count,
                  struct outcome *o);
const char *pg_end(struct connection *c, int open);
void pg_cursor_forget(struct cursor *c);
int store_row(struct plan *p, unsigned char **data, const size_t *sizes, int count, int n, struct outcome *o);
extern struct cell *cells;
extern struct value *values;
extern size_t cells_size;
extern unsigned char *texts;
extern size_t texts_size;
void named(struct outcome *o, int code, const char *state, const char *format, const char *name);
int current_of(struct plan *p, const char *program, struct outcome *o);
void success(struct outcome *o);
void put_sqlca(unsigned char *ca, const struct outcome *o);

/* worker_sql.c */
extern uint32_t sql_call;  /* the call whose statements run here (a call frame of kind 4) */
extern unsigned sql_folder; /* and its folder's token (the plans are that folder's) */
int sql_statement(void);   /* a CALL 'SQLRT' of that call */

/* worker_unit.c: that call's unit of work */
extern struct connection *call_conn; /* the connection of the call conn_call's unit of work */
extern uint32_t conn_call;
struct connection *call_connection(const char *database, const char *what); /* the call's, its unit begun */
void sql_syncpoint(int rollback); /* EXEC CICS SYNCPOINT [ROLLBACK] */
void unit_finish(struct connection *c, int rollback, struct outcome *o); /* COMMIT or ROLLBACK, cursors closed */
void worker_fail(const char *what, const char *why); /* the worker ends: the call fails with why */
const char *sql_end(void); /* the program returned: commit (NULL) or why it could not be */

/* worker_cicsfile.c: EXEC CICS file control of a call whose database work runs here */
int cics_file(int count);
int cics_resource(int count); /* worker_cicsres.c: TS and TD queues, named counters */
void cics_file_syncpoint(void); /* SYNCPOINT [ROLLBACK]: READ UPDATE's holds end */
/* FROM with a LENGTH or FLENGTH beyond its item: that many bytes from its address (widen_from, per command) */
extern int wide_param;      /* the FROM parameter widened (0: none) */
extern size_t wide_item;    /* its item's own size: what an answer writes back */
void widen_from(int count); /* the command's FROM widened, or wide_param 0 */
size_t cics_param_size(int i); /* parameter i's size as the command takes it */

/* worker_services.c: a plan asked of the server (its bytes kept until the next ask) */
const unsigned char *plan_asked(size_t *n);
const char *caller_program(int outermost);

#pragma GCC visibility pop
#endif

/*
 * EXEC SQL run in the worker on PostgreSQL: what worker_pg.c (libpq, the connection, errors, parameters
 * and results) and worker_pgrun.c (a statement run, the call's end) share.
 */
#ifndef COBOL_MCP_WORKER_PG_H
#define COBOL_MCP_WORKER_PG_H
#include "worker_sql.h"

#pragma GCC visibility push(hidden)

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;
enum { CONNECTION_OK = 0, PGRES_COMMAND_OK = 1, PGRES_TUPLES_OK = 2, PGRES_PIPELINE_SYNC = 10 };
enum { PQTRANS_INERROR = 3 };
#define DIAG_SQLSTATE 'C'

struct pq_api {
    PGconn *(*connectdb)(const char *);
    int (*status)(const PGconn *);
    char *(*error_message)(const PGconn *);
    PGresult *(*exec)(PGconn *, const char *);
    PGresult *(*exec_params)(PGconn *, const char *, int, const unsigned *, const char *const *, const int *,
                             const int *, int);
    PGresult *(*prepare)(PGconn *, const char *, const char *, int, const unsigned *);
    PGresult *(*exec_prepared)(PGconn *, const char *, int, const char *const *, const int *, const int *, int);
    int (*result_status)(const PGresult *);
    char *(*result_error_field)(const PGresult *, int);
    char *(*result_error_message)(const PGresult *);
    void (*clear)(PGresult *);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    char *(*getvalue)(const PGresult *, int, int);
    int (*getlength)(const PGresult *, int, int);
    int (*getisnull)(const PGresult *, int, int);
    unsigned (*ftype)(const PGresult *, int);
    char *(*cmd_tuples)(PGresult *);
    int (*enter_pipeline)(PGconn *);
    int (*exit_pipeline)(PGconn *);
    int (*pipeline_sync)(PGconn *);
    int (*send_prepared)(PGconn *, const char *, int, const char *const *, const int *, const int *, int);
    int (*send_params)(PGconn *, const char *, int, const unsigned *, const char *const *, const int *, const int *,
                       int);
    PGresult *(*get_result)(PGconn *);
    void (*finish)(PGconn *);
    int (*transaction_status)(const PGconn *);
};
extern struct pq_api pq;

int command(PGconn *c, const char *sql);
int pq_transaction_aborted(PGconn *c);
void pg_error(struct outcome *o, PGresult *r, PGconn *c, int is_delete);
extern unsigned types_in[MAX_ARGS * 4];
int parameters(struct plan *p, const char **values_out, struct value *values);
int pg_row(PGresult *r, int row, int first);
int pg_reopen(struct connection *conn);

#pragma GCC visibility pop
#endif

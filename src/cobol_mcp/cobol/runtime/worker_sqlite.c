/*
 * SQLite in the worker: loading the library, the connections (one per database file, kept for the
 * worker's life), a statement's plan read from the server's bytes (sqlbridge.inworker), and the plan
 * cache. worker_sql.c runs the statements; this file owns everything that is not per statement.
 *
 * The library is opened with dlopen (libsqlite3.so.0, the one Python's sqlite3 module uses), so the
 * worker is built without SQLite's headers and runs without SQLite where no call needs it.
 */
#include "worker_sql.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sqlite_api lite;
static int lite_state; /* 0 not tried, 1 loaded, -1 failed */
static char lite_error[256];

const char *sqlite_load(void) {
    if (lite_state == 1)
        return NULL;
    if (lite_state == -1)
        return lite_error;
    void *h = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        h = dlopen("libsqlite3.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(lite_error, sizeof lite_error, "SQLite cannot be loaded: %s", dlerror());
        lite_state = -1;
        return lite_error;
    }
#define LOAD(field, symbol)                                                                                      \
    do {                                                                                                          \
        *(void **)(&lite.field) = dlsym(h, symbol);                                                               \
        if (!lite.field) {                                                                                        \
            snprintf(lite_error, sizeof lite_error, "SQLite has no %s", symbol);                                 \
            lite_state = -1;                                                                                      \
            return lite_error;                                                                                    \
        }                                                                                                         \
    } while (0)
    LOAD(open_v2, "sqlite3_open_v2");
    LOAD(close, "sqlite3_close_v2");
    LOAD(busy_timeout, "sqlite3_busy_timeout");
    LOAD(exec, "sqlite3_exec");
    LOAD(prepare_v2, "sqlite3_prepare_v2");
    LOAD(step, "sqlite3_step");
    LOAD(reset, "sqlite3_reset");
    LOAD(finalize, "sqlite3_finalize");
    LOAD(bind_int64, "sqlite3_bind_int64");
    LOAD(bind_text, "sqlite3_bind_text");
    LOAD(bind_null, "sqlite3_bind_null");
    LOAD(bind_blob, "sqlite3_bind_blob");
    LOAD(column_count, "sqlite3_column_count");
    LOAD(column_type, "sqlite3_column_type");
    LOAD(column_int64, "sqlite3_column_int64");
    LOAD(column_double, "sqlite3_column_double");
    LOAD(column_text, "sqlite3_column_text");
    LOAD(column_bytes, "sqlite3_column_bytes");
    LOAD(column_blob, "sqlite3_column_blob");
    LOAD(changes, "sqlite3_changes");
    LOAD(get_autocommit, "sqlite3_get_autocommit");
    LOAD(errmsg, "sqlite3_errmsg");
    LOAD(extended_errcode, "sqlite3_extended_errcode");
    LOAD(create_function, "sqlite3_create_function");
    LOAD(value_type, "sqlite3_value_type");
    LOAD(value_int64, "sqlite3_value_int64");
    LOAD(value_double, "sqlite3_value_double");
    LOAD(value_text, "sqlite3_value_text");
    LOAD(value_bytes, "sqlite3_value_bytes");
    LOAD(result_text, "sqlite3_result_text");
    LOAD(result_int64, "sqlite3_result_int64");
    LOAD(result_null, "sqlite3_result_null");
    LOAD(result_error, "sqlite3_result_error");
    LOAD(aggregate_context, "sqlite3_aggregate_context");
#undef LOAD
    lite_state = 1;
    return NULL;
}

/* ---------------------------------------------------------------------------------- connections */
static struct connection *connections;

/* The connection to `path`, opened as the server opens a unit's (db.connection): foreign keys on,
 * the busy timeout, WAL. NULL with the reason in *why. */
struct connection *connection_for(const char *path, const char **why) {
    for (struct connection *c = connections; c; c = c->next)
        if (strcmp(c->path, path) == 0)
            return c;
    if (strncmp(path, "postgresql://", 13) == 0 || strncmp(path, "postgres://", 11) == 0) {
        struct connection *c = pg_connect(path, why);
        if (c)
            c->next = connections, connections = c;
        return c;
    }
    if ((*why = sqlite_load()) != NULL)
        return NULL;
    sqlite3 *db = NULL;
    if (lite.open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        static char text[512];
        snprintf(text, sizeof text, "the folder's database %s cannot be opened: %s", path,
                 db ? lite.errmsg(db) : "out of memory");
        if (db)
            lite.close(db);
        *why = text;
        return NULL;
    }
    lite.busy_timeout(db, BUSY_TIMEOUT_MS);
    lite.exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    arith_register(db); /* DECIMAL arithmetic and labelled durations, exact (db.exact) */
    lite.exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL); /* busy: the file keeps its mode */
    struct connection *c = calloc(1, sizeof *c);
    c->path = strdup(path);
    c->db = db;
    c->next = connections;
    connections = c;
    return c;
}

/* ---------------------------------------------------------------------------------- cursors */
struct cursor *cursors;

struct cursor *cursor_of(const char *program, unsigned slot) {
    for (struct cursor *c = cursors; c; c = c->next)
        if (c->slot == slot && strcmp(c->program, program) == 0)
            return c;
    struct cursor *c = calloc(1, sizeof *c);
    snprintf(c->program, sizeof c->program, "%s", program);
    c->slot = slot;
    c->next = cursors;
    cursors = c;
    return c;
}

void cursor_close(struct cursor *c) {
    pg_cursor_forget(c);
    if (c->open && c->stmt)
        lite.reset(c->stmt);
    c->open = c->has_row = c->on_row = c->failed = 0;
    c->stmt = NULL;
    free(c->fail_text);
    c->fail_text = NULL;
}

void cursors_forget(void) {
    while (cursors) {
        struct cursor *c = cursors;
        cursors = c->next;
        cursor_close(c);
        free(c);
    }
}


/* ---------------------------------------------------------------------------------- plans */
unsigned get_u8(struct reader *r) {
    if (r->at + 1 > r->end) {
        r->bad = 1;
        return 0;
    }
    return *r->at++;
}

unsigned get_u16(struct reader *r) {
    if (r->at + 2 > r->end) {
        r->bad = 1;
        return 0;
    }
    unsigned v = get16(r->at);
    r->at += 2;
    return v;
}

uint32_t get_u32(struct reader *r) {
    if (r->at + 4 > r->end) {
        r->bad = 1;
        return 0;
    }
    uint32_t v = get32(r->at);
    r->at += 4;
    return v;
}

static char *get_text(struct reader *r, size_t n) {
    if ((size_t)(r->end - r->at) < n) {
        r->bad = 1;
        return strdup("");
    }
    char *s = malloc(n + 1);
    memcpy(s, r->at, n);
    s[n] = 0;
    r->at += n;
    return s;
}

char *get_str(struct reader *r) { return get_text(r, get_u16(r)); }

static void get_piece(struct reader *r, struct piece *p) {
    p->cls = get_u8(r);
    p->is_signed = get_u8(r);
    p->leading = get_u8(r);
    p->separate = get_u8(r);
    p->digits = get_u8(r);
    p->scale = (int8_t)get_u8(r);
    p->truncated = get_u8(r);
    p->len_size = get_u8(r);
    p->len_native = get_u8(r);
    p->len_signed = get_u8(r);
    p->param = get_u16(r);
    p->offset = get_u32(r);
    p->size = get_u32(r);
    p->text_offset = get_u32(r);
    p->name = get_str(r);
    p->pic = get_str(r);
}

static void get_column(struct reader *r, struct column *c) {
    c->kind = get_u8(r);
    c->n = get_u16(r);
}

/* A plan from the server's bytes (sqlbridge.inworker's layout); NULL when they do not read as one. */
struct plan *plan_read(const unsigned char *bytes, size_t n) {
    struct reader r = {bytes, bytes + n, 0};
    struct plan *p = calloc(1, sizeof *p);
    p->op = get_u8(&r);
    p->flags = get_u8(&r);
    p->slot = get_u16(&r);
    p->current = get_u16(&r);
    p->nparams = get_u16(&r);
    p->sizes = calloc(p->nparams + 1, sizeof *p->sizes);
    for (unsigned i = 0; i < p->nparams; i++)
        p->sizes[i] = get_u32(&r);
    p->database = get_str(&r);
    p->cursor_name = get_str(&r);
    p->current_name = get_str(&r);
    uint32_t sql = get_u32(&r);
    p->sql = get_text(&r, sql);
    p->nreads = get_u16(&r);
    p->reads = calloc(p->nreads + 1, sizeof *p->reads);
    for (unsigned i = 0; i < p->nreads && !r.bad; i++)
        get_piece(&r, &p->reads[i]);
    p->nbinds = get_u16(&r);
    p->binds = calloc(p->nbinds + 1, sizeof *p->binds);
    for (unsigned i = 0; i < p->nbinds && !r.bad; i++) {
        p->binds[i].value = (int16_t)get_u16(&r);
        p->binds[i].indicator = (int16_t)get_u16(&r);
        get_column(&r, &p->binds[i].column);
        if (p->binds[i].value >= (int)p->nreads || p->binds[i].indicator >= (int)p->nreads)
            r.bad = 1;
    }
    p->nouts = get_u16(&r);
    p->outs = calloc(p->nouts + 1, sizeof *p->outs);
    for (unsigned i = 0; i < p->nouts && !r.bad; i++) {
        get_piece(&r, &p->outs[i].target);
        p->outs[i].has_indicator = get_u8(&r);
        if (p->outs[i].has_indicator)
            get_piece(&r, &p->outs[i].indicator);
        get_column(&r, &p->outs[i].column);
    }
    if (r.bad || r.at != r.end || p->op > OP_ROLLBACK) {
        plan_free(p);
        return NULL;
    }
    return p;
}

void plan_free(struct plan *p) {
    if (!p)
        return;
    if (p->stmt)
        lite.finalize(p->stmt);
    for (unsigned i = 0; i < p->nreads; i++)
        free(p->reads[i].name), free(p->reads[i].pic);
    for (unsigned i = 0; i < p->nouts; i++) {
        free(p->outs[i].target.name), free(p->outs[i].target.pic);
        if (p->outs[i].has_indicator)
            free(p->outs[i].indicator.name), free(p->outs[i].indicator.pic);
    }
    free(p->sizes), free(p->database), free(p->cursor_name), free(p->current_name), free(p->sql);
    free(p->reads), free(p->binds), free(p->outs);
    free(p);
}

/* ---------------------------------------------------------------------------------- the plan cache */
#define BUCKETS 1024
struct cached { /* kept per folder too: two folders may each have a program of one name */
    struct cached *next;
    unsigned folder;
    char program[NAME_LENGTH];
    long long number;
    struct plan *plan;
};
static struct cached *buckets[BUCKETS];

static unsigned bucket(const char *program, long long number) {
    unsigned h = 2166136261u ^ sql_folder;
    for (const char *s = program; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return (h ^ (unsigned)number) % BUCKETS;
}

struct plan *plan_find(const char *program, long long number) {
    for (struct cached *c = buckets[bucket(program, number)]; c; c = c->next)
        if (c->number == number && c->folder == sql_folder && strcmp(c->program, program) == 0)
            return c->plan;
    return NULL;
}

void plan_keep(const char *program, long long number, struct plan *plan) {
    struct cached *c = calloc(1, sizeof *c);
    snprintf(c->program, sizeof c->program, "%s", program);
    c->number = number, c->folder = sql_folder;
    c->plan = plan;
    unsigned b = bucket(program, number);
    c->next = buckets[b];
    buckets[b] = c;
}

/* Programs were (re)loaded: plans are asked again (between calls: no cursor is open). */
void plans_forget(void) {
    for (unsigned b = 0; b < BUCKETS; b++) {
        while (buckets[b]) {
            struct cached *c = buckets[b];
            buckets[b] = c->next;
            plan_free(c->plan);
            free(c);
        }
    }
    cursors_forget();
}

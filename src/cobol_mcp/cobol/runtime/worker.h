/*
 * What the files of the C worker share (worker.c says what the worker is and which file owns what):
 * the frames' layout and limits, a loaded program, the request and reply buffers, and the functions
 * one file calls in another. All of it is hidden: the executable exports only main and the service
 * entries SQLRT and CICSRT (it is linked with -rdynamic so that COBOL's CALL finds those by name).
 *
 * Request frame:  <B kind><I call id><I body length> body
 *     kind 1 (load): <H program index><H record count><I size>... then five NUL-terminated strings:
 *         module path, entry symbol, caller module ("": call the entry itself), program name (the
 *         caller CANCELs it by that name), caller symbol ("": COBOL__MCP__CALLER)
 *     kind 2 (call): <H program index> + the LINKAGE records, concatenated
 *     kind 4 (call whose EXEC SQL statements run in this worker, worker_sql.c): <H program index>
 *         <H its folder's token: plans are kept per folder> + the LINKAGE records
 *     kind 3 (answer): the bytes of the parameters of the running call's service request, concatenated
 * Reply frame:    <I call id><B status><i return code><I records length><I text length> records text
 *     status 0: the program returned; 1: it could not be run (text says why);
 *     2: a service request, mid-call: the program CALLed SQLRT (service 1) or CICSRT (service 2),
 *        or the worker asks for what runs EXEC SQL here (service 3, SQLPLAN: sqlbridge.inworker)
 *        USING n, p1 ... pk: return code n; records <B service><H k><I size>... then p1 ... pk.
 *        The program waits (inside the CALL) for the answer frame with its call id; the frames that
 *        arrive before it are kept for after the call. Its bytes go into p1 ... pk, and the CALL
 *        returns (worker_services.c).
 * Integers are little-endian.
 */
#ifndef COBOL_MCP_WORKER_H
#define COBOL_MCP_WORKER_H
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>

extern void cob_init(const int argc, char **argv); /* libcob: the runtime, started once */
extern int cob_get_num_params(void);                /* of the CALL being run (libcob's C API) */
extern int cob_get_param_size(int num_param);
extern void *cob_get_param_data(int num_param);
extern long long cob_get_s64_param(int num_param);

#pragma GCC visibility push(hidden)

enum {
    REQUEST_FD = 3,
    REPLY_FD = 4,
    REQUEST_HEAD = 9,            /* <B kind><I call id><I length> */
    REPLY_HEAD = 17,             /* <I call id><B status><i code><I records><I text> */
    READ_SIZE = 1 << 16,
    DISPLAY_KEPT = 1 << 16,      /* DISPLAY bytes returned per call; the rest is counted, not kept */
    NAME_LENGTH = 64,            /* the caller's LK-NAME */
    MAX_ARGS = 196,              /* cobc takes at most 192 USING items; the caller adds three */
    LOAD_LIMIT = 1 << 20,
    ALIGN = 16,
};

typedef void (*function)(void);

struct program {
    char *error;             /* why it could not be loaded (the reply to each of its calls), or NULL */
    function call;           /* the caller's entry, or the program's own */
    uint32_t count;          /* records */
    uint32_t *sizes;
    uint64_t total;          /* bytes of all records */
    unsigned char *records;  /* one buffer per record, each ALIGN-aligned */
    int32_t call_count;      /* the caller's LK-COUNT */
    void *entry;             /* the caller's LK-ENTRY: the program's entry */
    char label[NAME_LENGTH]; /* the caller's LK-NAME, blank padded */
    int nargs;
    void *args[MAX_ARGS];    /* unused ones stay NULL, as libcob's own cob_call passes them */
};

/* worker_load.c: the programs loaded, by the index the server gave them */
extern struct program *programs[1 << 16];
void load(uint32_t call_id, const unsigned char *body, uint32_t length);

/* worker_frames.c: the pipes' buffers, and writing replies */
extern unsigned char *in; /* request bytes read and not yet handled: in[pos, have) */
extern size_t in_size, pos, have;
extern unsigned char *out; /* the reply being written */
extern size_t out_size;
void *grow(void *buffer, size_t *size, size_t needed);
void send_all(const unsigned char *data, size_t length);
void reply(uint32_t call_id, int status, int32_t code, uint32_t records, uint32_t text);
void failure(uint32_t call_id, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* worker_services.c: the call running, whose service requests wait for answers */
extern uint32_t running;      /* its call id */
extern size_t after_running;  /* where the frames after its own start in `in` */
int ask_with(unsigned service, long long number, int count, void **data, const size_t *sizes);

/* worker_storage.c: EXEC CICS GETMAIN and FREEMAIN, and the areas freed at each call's end */
int storage_command(int freemain, int count, void **data, size_t *sizes);
void release_storage(void);
/* and the areas of commands with SET (READ, READQ TS, GET CONTAINER …): the data the server's answer brings */
int set_command(int count);
void given_area(const unsigned char *bytes, size_t n);
void set_pointer(void **data);

#pragma GCC visibility pop

static inline uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint16_t get16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

static inline void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* A record's room in a program's buffer: its size rounded up to ALIGN, and ALIGN for an empty one */
static inline size_t aligned(uint32_t size) {
    return ((size_t)size + ALIGN - 1) / ALIGN * ALIGN + (size ? 0 : ALIGN);
}

#endif

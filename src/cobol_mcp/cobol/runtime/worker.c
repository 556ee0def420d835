/*
 * The COBOL worker in C: the process that loads libcob and runs COBOL code, as worker.py does, on
 * the same pipes and frames (see worker.py's docstring and frames.py), at a fraction of the memory
 * and start time of a Python interpreter. Built once into the build cache (prepare/native_worker.py);
 * where it cannot be built, the runtime runs worker.py instead.
 *
 *   fd 3 requests in, fd 4 replies out, fd 0 /dev/null, fd 1 the DISPLAY memory file (collected and
 *   cleared after each call), fd 2 libcob's messages (read by the server if this process dies).
 *   argv[1]: seconds to poll for the next request after a reply before sleeping (0: sleep at once).
 *
 * Request frame:  <B kind><I call id><I body length> body
 *     kind 1 (load): <H program index><H record count><I size>... then five NUL-terminated strings:
 *         module path, entry symbol, caller module ("": call the entry itself), program name (the
 *         caller CANCELs it by that name), caller symbol ("": COBOL__MCP__CALLER)
 *     kind 2 (call): <H program index> + the LINKAGE records, concatenated
 *     kind 3 (answer): the bytes of the parameters of the running call's service request, concatenated
 * Reply frame:    <I call id><B status><i return code><I records length><I text length> records text
 *     status 0: the program returned; 1: it could not be run (text says why);
 *     2: a service request, mid-call: the program CALLed SQLRT (service 1) or CICSRT (service 2)
 *        USING n, p1 ... pk: return code n; records <B service><H k><I size>... then p1 ... pk.
 *        The program waits (inside the CALL) for the answer frame with its call id; the frames that
 *        arrive before it are kept for after the call. Its bytes go into p1 ... pk, and the CALL
 *        returns. These entries are exported (the worker is linked with -rdynamic), so libcob's
 *        CALL finds them by name in the executable, as it finds a program in a loaded module.
 *
 * No input can make it write out of bounds: a frame is only taken in whole when its length is the
 * one its program's records need (a load frame: at most LOAD_LIMIT bytes); any other frame gets an
 * error reply and its body is read past without being kept.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

extern void cob_init(const int argc, char **argv); /* libcob: the runtime, started once */
extern int cob_get_num_params(void);                /* of the CALL being run (libcob's C API) */
extern int cob_get_param_size(int num_param);
extern void *cob_get_param_data(int num_param);
extern long long cob_get_s64_param(int num_param);

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
#define FILE_SIZE_LIMIT ((rlim_t)64 << 20) /* a DISPLAY flood is stopped here (SIGXFSZ) */
#define CALLER_SYMBOL "COBOL__MCP__CALLER"  /* cobol.prepare.driver.DRIVER_SYMBOL */

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

static struct program *programs[1 << 16];

static unsigned char *in;    /* request bytes read and not yet handled: in[pos, have) */
static size_t in_size, pos, have;
static uint64_t skipping;    /* body bytes of a refused frame still to be read past */
static unsigned char *out;   /* the reply being written */
static size_t out_size;
static uint32_t running;     /* the call id of the program running, and where the frames after its own start */
static size_t after_running;
static unsigned char *asked; /* a service request being written */
static size_t asked_size;

static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t get16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static void *grow(void *buffer, size_t *size, size_t needed) {
    if (needed <= *size)
        return buffer;
    size_t wanted = *size ? *size : READ_SIZE;
    while (wanted < needed)
        wanted *= 2;
    void *bigger = realloc(buffer, wanted);
    if (!bigger) {
        fputs("cobol-mcp worker: out of memory\n", stderr);
        _exit(70);
    }
    *size = wanted;
    return bigger;
}

static void send_all(const unsigned char *data, size_t length) {
    while (length) {
        ssize_t n = write(REPLY_FD, data, length);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            _exit(0); /* the server is gone */
        }
        data += n;
        length -= (size_t)n;
    }
}

static void reply(uint32_t call_id, int status, int32_t code, uint32_t records, uint32_t text) {
    put32(out, call_id);
    out[4] = (unsigned char)status;
    put32(out + 5, (uint32_t)code);
    put32(out + 9, records);
    put32(out + 13, text);
    send_all(out, REPLY_HEAD + (size_t)records + text);
}

static void failure(uint32_t call_id, const char *format, ...) {
    char text[4096];
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    size_t length = n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
    memcpy(out + REPLY_HEAD, text, length);
    reply(call_id, 1, 0, 0, (uint32_t)length);
}

/* ---------------------------------------------------------------------------------- calling */
#define T4 void *, void *, void *, void *
#define T16 T4, T4, T4, T4
#define T64 T16, T16, T16, T16
#define A4(i) a[i], a[i + 1], a[i + 2], a[i + 3]
#define A16(i) A4(i), A4(i + 4), A4(i + 8), A4(i + 12)
#define A64(i) A16(i), A16(i + 16), A16(i + 32), A16(i + 48)

/* Call with the program's arguments and NULL after them up to a fixed count, as libcob's cob_call
 * does: a COBOL entry (and the caller) reads only the parameters it has. */
static int call_with(function f, void **a, int n) {
    if (n <= 16)
        return ((int (*)(T16))f)(A16(0));
    if (n <= 68)
        return ((int (*)(T64, T4))f)(A64(0), A4(64));
    return ((int (*)(T64, T64, T64, T4))f)(A64(0), A64(64), A64(128), A4(192));
}

static size_t aligned(uint32_t size) { return ((size_t)size + ALIGN - 1) / ALIGN * ALIGN + (size ? 0 : ALIGN); }

static void run(uint32_t call_id, struct program *p, const unsigned char *body) {
    unsigned char *record = p->records;
    for (uint32_t i = 0; i < p->count; i++) {
        memcpy(record, body, p->sizes[i]);
        body += p->sizes[i];
        record += aligned(p->sizes[i]);
    }
    int code = call_with(p->call, p->args, p->nargs);
    out = grow(out, &out_size, REPLY_HEAD + p->total + DISPLAY_KEPT + 64);
    unsigned char *o = out + REPLY_HEAD;
    record = p->records;
    for (uint32_t i = 0; i < p->count; i++) {
        memcpy(o, record, p->sizes[i]);
        o += p->sizes[i];
        record += aligned(p->sizes[i]);
    }
    fflush(NULL);
    off_t shown = lseek(1, 0, SEEK_CUR);
    size_t text = 0;
    if (shown > 0) {
        ssize_t got = pread(1, o, DISPLAY_KEPT, 0);
        text = got > 0 ? (size_t)got : 0;
        if (shown > DISPLAY_KEPT)
            text += (size_t)sprintf((char *)o + text, "\n[%lld more bytes of DISPLAY output not kept]",
                                    (long long)shown - DISPLAY_KEPT);
        if (ftruncate(1, 0) == 0)
            lseek(1, 0, SEEK_SET);
    }
    reply(call_id, 0, code, (uint32_t)p->total, (uint32_t)text);
}

/* ---------------------------------------------------------------------------------- loading */
static const char *field(const unsigned char **at, const unsigned char *end) {
    const unsigned char *nul = *at < end ? memchr(*at, 0, (size_t)(end - *at)) : NULL;
    if (!nul)
        return NULL;
    const char *text = (const char *)*at;
    *at = nul + 1;
    return text;
}

static void drop(struct program *p) {
    if (p) {
        free(p->error);
        free(p->records);
        free(p->sizes);
        free(p);
    }
}

static void set_error(uint16_t index, const char *text) {
    struct program *p = calloc(1, sizeof *p);
    if (p)
        p->error = strdup(text);
    if (!p || !p->error)
        _exit(70);
    programs[index] = p;
}

static void load(uint32_t call_id, const unsigned char *body, uint32_t length) {
    char message[4096];
    if (length < 4) {
        snprintf(message, sizeof message, "cannot load the COBOL module: a load frame of %u bytes", length);
        if (length >= 2) {
            drop(programs[get16(body)]);
            set_error(get16(body), message);
        }
        failure(call_id, "%s", message);
        return;
    }
    uint16_t index = get16(body);
    uint32_t count = get16(body + 2);
    const unsigned char *at = body + 4, *end = body + length;
    const char *path = NULL, *symbol = NULL, *driver = NULL, *name = NULL, *caller = NULL;
    if ((uint64_t)4 + 4 * (uint64_t)count <= length) {
        at += 4 * (size_t)count;
        path = field(&at, end), symbol = path ? field(&at, end) : NULL, driver = symbol ? field(&at, end) : NULL;
        name = driver ? field(&at, end) : NULL, caller = name ? field(&at, end) : NULL;
    }
    struct program *p = calloc(1, sizeof *p);
    if (!p)
        _exit(70);
    int nargs = (int)count + (caller && *driver ? 3 : 0);
    if (!caller) {
        snprintf(message, sizeof message, "cannot load the COBOL module: a malformed load frame");
    } else if (nargs > MAX_ARGS) {
        snprintf(message, sizeof message, "cannot load the COBOL module: %d parameters (at most %d)", nargs, MAX_ARGS);
    } else if (strlen(name) > NAME_LENGTH) {
        snprintf(message, sizeof message, "cannot load the COBOL module: program name longer than %d", NAME_LENGTH);
    } else {
        message[0] = 0;
        p->count = count;
        p->sizes = malloc(4 * (size_t)(count ? count : 1));
        size_t room = 0;
        for (uint32_t i = 0; p->sizes && i < count; i++) {
            p->sizes[i] = get32(body + 4 + 4 * (size_t)i);
            p->total += p->sizes[i];
            room += aligned(p->sizes[i]);
        }
        /* zeroed as ctypes' buffers are, by pages the kernel gives only when touched; malloc's
         * alignment (16 bytes) and each record's ALIGN-rounded size keep every record aligned */
        p->records = p->sizes && p->total < UINT32_MAX - REPLY_HEAD ? calloc(1, room ? room : ALIGN) : NULL;
        if (!p->records)
            snprintf(message, sizeof message, "cannot load the COBOL module: no memory for its records");
    }
    void *library = message[0] ? NULL : dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    void *entry = library ? dlsym(library, symbol) : NULL;
    void *call = entry;
    if (entry && *driver) {
        void *caller_library = dlopen(driver, RTLD_NOW | RTLD_GLOBAL);
        call = caller_library ? dlsym(caller_library, *caller ? caller : CALLER_SYMBOL) : NULL;
    }
    if (!message[0] && !call) {
        const char *why = dlerror();
        snprintf(message, sizeof message, "cannot load the COBOL module: %s", why ? why : "symbol not found");
    }
    if (message[0]) {
        free(p->records);
        free(p->sizes);
        free(p);
        drop(programs[index]);
        set_error(index, message); /* each call of it gets this reply */
        failure(call_id, "%s", message);
        return;
    }
    unsigned char *record = p->records;
    int arg = 0;
    memcpy(&p->call, &call, sizeof call);
    if (*driver) {
        p->call_count = (int32_t)count;
        p->entry = entry;
        memset(p->label, ' ', NAME_LENGTH);
        memcpy(p->label, name, strlen(name));
        p->args[arg++] = &p->call_count;
        p->args[arg++] = &p->entry;
        p->args[arg++] = p->label;
    }
    for (uint32_t i = 0; i < count; i++) {
        p->args[arg++] = record;
        record += aligned(p->sizes[i]);
    }
    p->nargs = arg;
    drop(programs[index]);
    programs[index] = p; /* a reload gets a new index: an older program of this index is not in use */
    reply(call_id, 0, 0, 0, 0);
}

/* ---------------------------------------------------------------------------------- services */
/* Read more request bytes into in[have, ...), waiting for them; the server gone: exit. */
static void read_more(void) {
    in = grow(in, &in_size, have + READ_SIZE);
    struct pollfd wait = {REQUEST_FD, POLLIN, 0};
    for (;;) {
        ssize_t n = read(REQUEST_FD, in + have, in_size - have);
        if (n > 0) {
            have += (size_t)n;
            return;
        }
        if (n == 0)
            _exit(0);
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            poll(&wait, 1, -1);
        else if (errno != EINTR)
            _exit(0);
    }
}

/* The running call asks the server (status 2), then waits for the answer and puts its bytes in
 * the parameters. The frames before it (calls pipelined behind this one) stay in `in` for later. */
static int ask(unsigned service) {
    int count = cob_get_num_params();
    if (count < 1 || count > MAX_ARGS) {
        fprintf(stderr, "cobol-mcp worker: CALL of a service with %d parameters\n", count);
        _exit(70);
    }
    long long number = cob_get_s64_param(1);
    size_t total = 0, head = REPLY_HEAD + 3 + 4 * (size_t)(count - 1);
    for (int i = 2; i <= count; i++)
        total += (size_t)cob_get_param_size(i);
    asked = grow(asked, &asked_size, head + total);
    asked[REPLY_HEAD] = (unsigned char)service;
    asked[REPLY_HEAD + 1] = (unsigned char)(count - 1);
    asked[REPLY_HEAD + 2] = (unsigned char)((count - 1) >> 8);
    unsigned char *o = asked + head;
    for (int i = 2; i <= count; i++) {
        size_t size = (size_t)cob_get_param_size(i);
        put32(asked + REPLY_HEAD + 3 + 4 * (size_t)(i - 2), (uint32_t)size);
        memcpy(o, cob_get_param_data(i), size);
        o += size;
    }
    put32(asked, running);
    asked[4] = 2;
    put32(asked + 5, (uint32_t)(int32_t)number);
    put32(asked + 9, (uint32_t)(head - REPLY_HEAD + total));
    put32(asked + 13, 0);
    send_all(asked, head + total);
    size_t at = after_running; /* frames from here on are looked through, kept, until the answer */
    for (;;) {
        while (have - at >= REQUEST_HEAD) {
            const unsigned char *frame = in + at;
            size_t length = get32(frame + 5), whole = REQUEST_HEAD + length;
            if (frame[0] != 3 || get32(frame + 1) != running) {
                if (have - at < whole)
                    break;
                at += whole;
                continue;
            }
            if (length != total) {
                fprintf(stderr, "cobol-mcp worker: an answer of %zu bytes to a request of %zu\n", (size_t)length, total);
                _exit(70);
            }
            if (have - at < whole)
                break;
            const unsigned char *body = frame + REQUEST_HEAD;
            for (int i = 2; i <= count; i++) {
                size_t size = (size_t)cob_get_param_size(i);
                memcpy(cob_get_param_data(i), body, size);
                body += size;
            }
            memmove(in + at, in + at + whole, have - at - whole); /* the frames after it stay in order */
            have -= whole;
            return 0;
        }
        read_more();
    }
}

/* The entries COBOL programs CALL: EXEC SQL statements (SQLRT) and EXEC CICS commands (CICSRT). */
int SQLRT(void) { return ask(1); }
int CICSRT(void) { return ask(2); }

/* ---------------------------------------------------------------------------------- requests */
/* Handle the whole frames in in[pos, have); returns when the next one is not all here. */
static void handle(void) {
    for (;;) {
        if (skipping) {
            size_t n = have - pos < skipping ? have - pos : (size_t)skipping;
            pos += n;
            skipping -= n;
            if (skipping)
                return;
        }
        if (have - pos < REQUEST_HEAD)
            return;
        const unsigned char *head = in + pos;
        unsigned kind = head[0];
        uint32_t call_id = get32(head + 1), length = get32(head + 5);
        if (kind == 2) {
            if (length < 2) {
                failure(call_id, "a call frame of %u bytes names no program", length);
            } else if (have - pos < REQUEST_HEAD + 2) {
                return;
            } else {
                uint16_t index = get16(head + REQUEST_HEAD);
                struct program *p = programs[index];
                if (p && p->error) {
                    failure(call_id, "%s", p->error);
                } else if (!p || length - 2 != p->total) {
                    failure(call_id, "no program %u with records of %u bytes", index, length - 2);
                } else {
                    if (have - pos < REQUEST_HEAD + (size_t)length) {
                        if (REQUEST_HEAD + (size_t)length > in_size) { /* keep room for the whole frame */
                            memmove(in, in + pos, have - pos);
                            have -= pos;
                            pos = 0;
                            in = grow(in, &in_size, REQUEST_HEAD + (size_t)length + READ_SIZE);
                        }
                        return;
                    }
                    running = call_id;
                    after_running = pos + REQUEST_HEAD + (size_t)length;
                    run(call_id, p, head + REQUEST_HEAD + 2); /* `in` may have moved: head is not used after */
                    pos += REQUEST_HEAD + (size_t)length;
                    continue;
                }
            }
        } else if (kind == 1 && length <= LOAD_LIMIT) {
            if (have - pos < REQUEST_HEAD + (size_t)length) {
                if (REQUEST_HEAD + (size_t)length > in_size) {
                    memmove(in, in + pos, have - pos);
                    have -= pos;
                    pos = 0;
                    in = grow(in, &in_size, REQUEST_HEAD + (size_t)length + READ_SIZE);
                }
                return;
            }
            load(call_id, head + REQUEST_HEAD, length);
            pos += REQUEST_HEAD + (size_t)length;
            continue;
        } else if (kind == 1) {
            failure(call_id, "cannot load the COBOL module: a load frame of %u bytes", length);
        } else if (kind == 3) {
            /* an answer to no request of a running call (none can be: its call waited for it) */
        } else {
            failure(call_id, "unknown request kind %u", kind);
        }
        pos += REQUEST_HEAD; /* refused: its body is read past, never kept */
        skipping = length;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the server, even inside an endless COBOL loop */
    if (getppid() == 1)
        return 0;
    struct rlimit limit = {FILE_SIZE_LIMIT, FILE_SIZE_LIMIT};
    setrlimit(RLIMIT_FSIZE, &limit);
    signal(SIGPIPE, SIG_IGN); /* a write to a server that is gone ends the worker quietly */
    double spin = argc > 1 ? strtod(argv[1], NULL) : 0.0;
    if (!(spin > 0.0 && spin < 3600.0))
        spin = 0.0;
    cob_init(0, NULL);
    in = grow(NULL, &in_size, 2 * READ_SIZE);
    out = grow(NULL, &out_size, REPLY_HEAD + DISPLAY_KEPT + 4096);
    fcntl(REQUEST_FD, F_SETFL, fcntl(REQUEST_FD, F_GETFL) | O_NONBLOCK);
    struct pollfd wait = {REQUEST_FD, POLLIN, 0};
    for (;;) {
        if (pos) {
            memmove(in, in + pos, have - pos);
            have -= pos;
            pos = 0;
        }
        in = grow(in, &in_size, have + READ_SIZE);
        double spin_until = -1.0;
        ssize_t n;
        while ((n = read(REQUEST_FD, in + have, in_size - have)) < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                return 0;
            if (spin_until < 0.0)
                spin_until = now() + spin;
            if (spin == 0.0 || now() > spin_until)
                poll(&wait, 1, -1);
            else
                sched_yield(); /* a waiting client must not queue behind a poller */
        }
        if (n == 0)
            return 0;
        have += (size_t)n;
        handle();
    }
}

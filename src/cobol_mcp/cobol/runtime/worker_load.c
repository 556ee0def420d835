/*
 * The C worker's loading of programs: a load frame (kind 1, layout in worker.h) becomes a `struct
 * program` in `programs`, at the index the server gave it: its module and caller opened with dlopen,
 * its entry found, one aligned buffer per LINKAGE record, the arguments its CALL passes. A program
 * that cannot be loaded keeps the reason, which each of its calls gets as its reply.
 */
#include "worker.h"
#include "worker_sql.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CALLER_SYMBOL "COBOL__MCP__CALLER" /* cobol.prepare.driver.DRIVER_SYMBOL */

struct program *programs[1 << 16];

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

void load(uint32_t call_id, const unsigned char *body, uint32_t length) {
    char message[4096];
    plans_forget(); /* programs (re)loaded: their statements' plans are asked again */
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

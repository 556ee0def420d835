/*
 * Linked into every console program's executable: before the program's main runs, the run unit asks
 * the kernel for SIGKILL when the server thread that started it ends (PR_SET_PDEATHSIG), and ends at
 * once when the server is already gone (its parent is no longer the process named in
 * COBOL_MCP_PARENT). So a run unit never outlives the server, even a SIGKILLed one, and the server
 * starts it without running code between fork and exec (which would cost a full fork per call).
 * Without COBOL_MCP_PARENT (the executable run by hand) it does nothing.
 *
 * With COBOL_MCP_FILES, the run unit, and every process it starts, reaches only the files it names
 * (Landlock): one line per place, "w/dir" (read, write, create and remove beneath it: the data
 * directory, the call's own folders), "r/dir" (read and execute: the system's programs and libraries,
 * the build cache) or "f/file" (read and write that file: /dev/null). So a file name that a program
 * builds at run time, or one the environment maps, opens nothing outside them. A kernel without
 * Landlock (before Linux 5.13, or with it disabled) runs the program uncontained; a rule that a kernel
 * with Landlock refuses ends the run unit with a message.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_PATH */
#endif
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CONTAIN_CREATE 444 /* landlock_create_ruleset, landlock_add_rule, landlock_restrict_self: */
#define CONTAIN_ADD 445    /* the same numbers on every architecture */
#define CONTAIN_RESTRICT 446
#define CONTAIN_VERSION 1u
#define CONTAIN_PATH_BENEATH 1
#define FS_EXECUTE (1ull << 0)
#define FS_WRITE_FILE (1ull << 1)
#define FS_READ_FILE (1ull << 2)
#define FS_READ_DIR (1ull << 3)
#define FS_REFER (1ull << 13)    /* ABI 2 */
#define FS_TRUNCATE (1ull << 14) /* ABI 3 */
#define FS_IOCTL_DEV (1ull << 15) /* ABI 5 */

struct contain_ruleset {
    uint64_t handled_access_fs;
};

struct contain_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

static void cobol_mcp_refuse(const char *what) {
    fprintf(stderr, "cobol-mcp: the run unit's files cannot be contained: %s\n", what);
    _exit(70);
}

static void cobol_mcp_contain(const char *spec) {
    long abi = syscall(CONTAIN_CREATE, NULL, 0, CONTAIN_VERSION);
    if (abi < 1)
        return; /* no Landlock here */
    uint64_t handled = (1ull << 13) - 1;
    if (abi >= 2)
        handled |= FS_REFER;
    if (abi >= 3)
        handled |= FS_TRUNCATE;
    if (abi >= 5)
        handled |= FS_IOCTL_DEV;
    uint64_t file_rights = (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV) & handled;
    struct contain_ruleset ruleset = {handled};
    int ruleset_fd = (int)syscall(CONTAIN_CREATE, &ruleset, sizeof ruleset, 0);
    if (ruleset_fd < 0)
        cobol_mcp_refuse("landlock_create_ruleset failed");
    char *copy = strdup(spec);
    if (copy == NULL)
        cobol_mcp_refuse("out of memory");
    for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        uint64_t allowed;
        switch (line[0]) {
        case 'w': allowed = handled; break;
        case 'r': allowed = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR; break;
        case 'f': allowed = (FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE | FS_IOCTL_DEV) & handled; break;
        default: continue;
        }
        int fd = open(line + 1, O_PATH | O_CLOEXEC);
        if (fd < 0)
            continue; /* a place this machine does not have */
        struct stat st;
        if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
            allowed &= file_rights;
        struct contain_beneath rule = {allowed, fd};
        if (syscall(CONTAIN_ADD, ruleset_fd, CONTAIN_PATH_BENEATH, &rule, 0) != 0)
            cobol_mcp_refuse(line + 1);
        close(fd);
    }
    free(copy);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(CONTAIN_RESTRICT, ruleset_fd, 0) != 0)
        cobol_mcp_refuse("landlock_restrict_self failed");
    close(ruleset_fd);
}

__attribute__((constructor)) static void cobol_mcp_die_with_server(void) {
    const char *parent = getenv("COBOL_MCP_PARENT");
    if (parent == NULL || *parent == '\0')
        return;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)strtol(parent, NULL, 10))
        _exit(1); /* the server died before the request took effect */
    const char *files = getenv("COBOL_MCP_FILES");
    if (files != NULL && *files != '\0')
        cobol_mcp_contain(files);
}

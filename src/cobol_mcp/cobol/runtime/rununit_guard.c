/*
 * Linked into every console program's executable: before the program's main runs, the run unit asks
 * the kernel for SIGKILL when the server thread that started it ends (PR_SET_PDEATHSIG), and ends at
 * once when the server is already gone (its parent is no longer the process named in
 * COBOL_MCP_PARENT). So a run unit never outlives the server, even a SIGKILLed one, and the server
 * starts it without running code between fork and exec (which would cost a full fork per call).
 * Without COBOL_MCP_PARENT (the executable run by hand) it does nothing.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

__attribute__((constructor)) static void cobol_mcp_die_with_server(void) {
    const char *parent = getenv("COBOL_MCP_PARENT");
    if (parent == NULL || *parent == '\0')
        return;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)strtol(parent, NULL, 10))
        _exit(1); /* the server died before the request took effect */
}

"""Preparing programs to be served: building with cobc, the cache folder, compiled modules, specs kept
beside them, layout checks, and the manifest entries a warm start builds its tools from.

Owns: :mod:`.cache` (where things are kept; on the start-up path, standard library only),
:mod:`.cobc` (running the compiler for CALLable modules), :mod:`.sql` (programs with EXEC SQL
precompiled first), :mod:`.executable` (console programs as executables), :mod:`.programs` (a
folder's programs: parse, compile, cache), :mod:`.linked` (the folder's programs a LINK reaches, for the
direction analysis), :mod:`.discover` (which files of a folder, or of an
application folder's subfolders, are its programs, and which are not served), :mod:`.refusal` (EXEC
blocks nothing translates, and a refusal naming the user's file:line and the program), :mod:`.specfile`
(a cached spec read back
without the parser),
:mod:`.overrides` (the folder's ``cobol-mcp.toml``: checked, applied to specs and manifest entries),
:mod:`.cobc_check` (the compiler's own record layout, to compare with the parser's), :mod:`.driver`
(the COBOL caller every call goes through), :mod:`.value_caller` (the caller of a program with BY VALUE
or ANY LENGTH parameters, one per signature), :mod:`.links` (PROGRAM-ID links for CALLs between
programs), :mod:`.calls` (literal CALL targets that are nowhere, and modules of programs that are
only CALLed), :mod:`.native_worker` (the C worker, ``runtime/worker.c``, compiled once),
:mod:`.le_library` (the Language Environment services, :mod:`..le`, compiled once),
:mod:`.entries` (the typed shape of a manifest entry and of a folder's settings) and :mod:`.tool_entry`
(a compiled program's entry: its caller or executable, its tool definition, its overrides),
:mod:`.channel` (a channel-style CICS program's tool: its containers' records and schemas).
May import: :mod:`cobol_mcp.cobol.records` (to check override values, to derive tool schemas),
:mod:`cobol_mcp.cobol.le` (the services' names and C files),
:mod:`cobol_mcp.cobol.linkage`, :mod:`cobol_mcp.cobol.precompile`, :mod:`cobol_mcp.cobol.source`,
:mod:`cobol_mcp.log` and the shared vocabulary.
"""

"""Building with cobc: the cache folder, compiled modules, specs kept beside them, layout checks.

Owns: :mod:`.cache` (where things are kept; on the start-up path, standard library only),
:mod:`.cobc` (running the compiler for CALLable modules), :mod:`.sql` (programs with EXEC SQL
precompiled first), :mod:`.executable` (console programs as executables), :mod:`.programs` (a
folder's programs: discover, parse, compile, cache), :mod:`.specfile` (a cached spec read back
without the parser),
:mod:`.overrides` (the folder's ``cobol-mcp.toml``: checked, applied to specs and manifest entries),
:mod:`.cobc_check` (the compiler's own record layout, to compare with the parser's), :mod:`.driver`
(the COBOL caller every call goes through), :mod:`.value_caller` (the caller of a program with BY VALUE
or ANY LENGTH parameters, one per signature), :mod:`.links` (PROGRAM-ID links for CALLs between
programs), :mod:`.calls` (literal CALL targets that are nowhere, and modules of programs that are
only CALLed) and :mod:`.native_worker` (the C worker, ``runtime/worker.c``, compiled once).
May import: :mod:`cobol_mcp.cobol.records` (to check override values), :mod:`cobol_mcp.cobol.linkage`,
:mod:`cobol_mcp.cobol.precompile`, :mod:`cobol_mcp.cobol.source` and the shared vocabulary.
"""

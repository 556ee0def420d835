"""Building with cobc: the cache folder, compiled modules, specs kept beside them, layout checks.

Owns: :mod:`.cache` (where things are kept; on the start-up path, standard library only),
:mod:`.cobc` (running the compiler), :mod:`.programs` (a folder's programs: discover, parse, compile,
cache) and :mod:`.cobc_check` (the compiler's own record layout, to compare with the parser's).
May import: :mod:`cobol_mcp.cobol.linkage`, :mod:`cobol_mcp.cobol.source` and the shared vocabulary.
"""

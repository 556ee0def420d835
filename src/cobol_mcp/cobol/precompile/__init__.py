"""The SQL precompiler: ``EXEC SQL … END-EXEC`` in a COBOL program, found, understood and replaced.

Owns: :mod:`.scan` (every EXEC SQL block, fixed or free format, its statement kind, host variables
and line; what cannot be translated, as file:line and a reason; which data names each block reads and
sets) and :mod:`.generate` (the text cobc compiles: each block a CALL of the runtime entry SQLRT on the
block's own lines, the SQLCA and INCLUDE members as copybooks, WHENEVER as IF … GO TO). The runtime's
side is :mod:`cobol_mcp.db.unit`. May import: the standard library, :mod:`..source` and
:mod:`cobol_mcp.cobol` only (the SQL itself is translated by :mod:`cobol_mcp.db`, which is wired in
above the COBOL layers).
"""

"""The SQL precompiler: ``EXEC SQL … END-EXEC`` in a COBOL program, found and understood.

Owns: :mod:`.scan` (every EXEC SQL block, fixed or free format, its statement kind, host variables
and line; what cannot be translated, as file:line and a reason). Code generation and the runtime
come later. May import: the standard library, :mod:`..source` and :mod:`cobol_mcp.cobol` only (the
SQL itself is translated by :mod:`cobol_mcp.db`, which is wired in above the COBOL layers).
"""

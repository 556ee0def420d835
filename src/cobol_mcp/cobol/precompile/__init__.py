"""The SQL precompiler and the CICS translator: ``EXEC SQL`` and ``EXEC CICS`` blocks of a COBOL
program, found, understood and replaced.

Owns: :mod:`.scan` (every EXEC SQL block, fixed or free format, its statement kind, host variables
and line; what cannot be translated, as file:line and a reason; which data names each block reads and
sets) and :mod:`.generate` (the text cobc compiles: each block a CALL of the runtime entry SQLRT on the
block's own lines, the SQLCA and INCLUDE members as copybooks, WHENEVER as IF … GO TO). The runtime's
side is :mod:`cobol_mcp.db.unit`. May import: the standard library, :mod:`..source` and
:mod:`cobol_mcp.cobol` only (the SQL itself is translated by :mod:`cobol_mcp.db`, which is wired in
above the COBOL layers).

The CICS translator: :mod:`.cics_table` (the commands and options carried, from IBM's command
reference; DFHRESP and DFHVALUE names), :mod:`.cics` (every EXEC CICS block read into a command with
its options and arguments, and what is refused, as file:line and a reason), :mod:`.cics_books` (the
EIB, DFHAID and DFHBMSCA copybooks, written here) and :mod:`.cics_generate` (each command a CALL of
the runtime entry CICSRT on its own lines, HANDLE CONDITION as GO TO … DEPENDING ON, the EIB and
COMMAREA as the program's parameters; the calling convention is in its docstring).
"""

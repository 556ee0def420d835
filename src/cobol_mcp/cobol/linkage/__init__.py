"""The LINKAGE record model: what a program offers as a tool, and how its records are laid out.

Owns: :mod:`.model` (ProgramSpec, Record, Field: plain data, what cached spec files hold), :mod:`.frozen`
(their immutable value-object base and ``replace``), :mod:`.pic` (PICTURE strings and numeric storage),
:mod:`.clauses` (data description entries), :mod:`.layout` (offsets, sizes, alignment), :mod:`.odo`
(DEPENDING ON counters), :mod:`.dialect` (cobc -std layout options), :mod:`.program` (reading one
program's interface) and the direction analysis (:mod:`.procedure`, :mod:`.operands`, :mod:`.loops`,
:mod:`.handlers`, :mod:`.logcopy`, :mod:`.linked`, :mod:`.direction`).
May import: :mod:`cobol_mcp.cobol.source`, :mod:`cobol_mcp.cobol.precompile` (what EXEC SQL and the CICS
translator's statements read and set) and the shared vocabulary in :mod:`cobol_mcp.cobol`.
"""

"""JSON arguments <-> LINKAGE record bytes, exactly, and the JSON Schemas that describe them.

Owns: :mod:`.codec` (the entry points and its rules), :mod:`.items` (one item's bytes <-> one value),
:mod:`.errors` (the errors and how messages name values), :mod:`.shape` (which records and properties
make up the arguments and the result),
:mod:`.encoders` (with :mod:`.number_encoders` and :mod:`.text_encoders`) / :mod:`.decoders` / :mod:`.plan`
(per-program compiled converters), :mod:`.odo` (tables with DEPENDING ON and their counters),
:mod:`.schema`.
May import: :mod:`cobol_mcp.cobol.linkage` and the shared vocabulary in :mod:`cobol_mcp.cobol`.
"""

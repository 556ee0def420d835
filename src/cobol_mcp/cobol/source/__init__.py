"""Reading COBOL source text: fixed or free format, comments, continuation lines, COPY books, tokens.

Owns: :mod:`.lines` (physical lines to code and comments, COPY ... REPLACING and EXEC SQL INCLUDE,
the format), :mod:`.entries` (the IDENTIFICATION DIVISION's comment-entries, which are no code),
:mod:`.copybooks` (where a COPY book is, in any case, never the program itself or our translation of it),
:mod:`.layout` (an application folder's program and copybook folders, found by what their files hold),
:mod:`.directives` (CBL/PROCESS option lines),
:mod:`.cobc_text` (the copy of a source cobc is given when it would refuse the original),
:mod:`.console` (what a main program ACCEPTs) and :mod:`.tokens`.
May import: the standard library and :mod:`cobol_mcp.cobol` (its shared vocabulary) only.
"""

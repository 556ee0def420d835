"""Reading COBOL source text: fixed or free format, comments, continuation lines, COPY books, tokens.

Owns: :mod:`.lines` (physical lines to code and comments, COPY ... REPLACING) and :mod:`.tokens`.
May import: the standard library and :mod:`cobol_mcp.cobol` (its shared vocabulary) only.
"""

"""COBOL behind one boundary: reading source, the LINKAGE record model, the JSON<->record codec,
building with cobc, and the worker runtime.

Owns: top to bottom, :mod:`.tool` (a COBOL program as a catalog tool), :mod:`.build` and
:mod:`.runtime`, :mod:`.records`, :mod:`.linkage`, :mod:`.source`; this module holds only the shared
vocabulary (file endings, plain decimal text, the error for a program whose interface cannot be read).
May import: :mod:`cobol_mcp.catalog`, :mod:`cobol_mcp.protocol`, :mod:`cobol_mcp.selectloop`,
:mod:`cobol_mcp.log`. Nothing outside :mod:`.runtime` loads libcob.
"""

# File name endings, compared in lower case (PAYROLL.CBL and payroll.cbl alike). Defined here, the
# lightest module of the package, because the start-up path needs them without the parser.
SOURCE_SUFFIXES = (".cob", ".cbl", ".cobol")
COPYBOOK_SUFFIXES = (".cpy", *SOURCE_SUFFIXES)


def is_plain_decimal(text: str) -> bool:
    """`123`, `-123.45`, `.5`, `5.`: ASCII digits with at most one point and a leading minus.
    The usual way numbers arrive; such text is its own exact value, read without a Decimal."""
    body = text[1:] if text[:1] == "-" else text
    return body.isascii() and body.replace(".", "", 1).isdigit()


class LinkageError(Exception):
    """A program's interface cannot be derived; the message reads "file:line: what is wrong"."""

"""COBOL behind one boundary: parsing, the JSON<->record codec, the build cache, the worker runtime."""

# File name endings, compared in lower case (PAYROLL.CBL and payroll.cbl alike). Defined here, the
# lightest module of the package, because the start-up path needs them without the parser.
SOURCE_SUFFIXES = (".cob", ".cbl", ".cobol")
COPYBOOK_SUFFIXES = (".cpy", *SOURCE_SUFFIXES)


def is_plain_decimal(text: str) -> bool:
    """`123`, `-123.45`, `.5`, `5.`: ASCII digits with at most one point and a leading minus.
    The usual way numbers arrive; such text is its own exact value, read without a Decimal."""
    body = text[1:] if text[:1] == "-" else text
    return body.isascii() and body.replace(".", "", 1).isdigit()

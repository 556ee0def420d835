"""COBOL behind one boundary: parsing, the JSON<->record codec, the build cache, the worker runtime."""

# File name endings, compared in lower case (PAYROLL.CBL and payroll.cbl alike). Defined here, the
# lightest module of the package, because the start-up path needs them without the parser.
SOURCE_SUFFIXES = (".cob", ".cbl", ".cobol")
COPYBOOK_SUFFIXES = (".cpy", *SOURCE_SUFFIXES)

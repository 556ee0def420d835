"""The copybooks of a translated CICS program: IBM's standard ones, written here, and the program's own.

* ``DFHEIBLK``: the EXEC interface block, 85 bytes, each field at the offset and in the format IBM
  documents (EIBCALEN at X'18', EIBFN at X'1B', EIBRESP at X'4C' …). The halfword at X'14', which IBM
  leaves unnamed, is ``DFHEIGDI``: the handler index the runtime answers (see :mod:`.cics_generate`).
  Its binary fields are ``COMP``: big-endian under cobc's default ``binary-byteorder``.
* ``DFHAID`` (the attention identifiers) and ``DFHBMSCA`` (BMS attribute, colour and highlight
  constants): programs COPY them even when they never touch a screen.
* The program's own working storage (:func:`working_storage`): each command's descriptor and the
  items its arguments pass through.

All are written so that they read the same in fixed and free format (code from column 8, lines
within column 72, ``*>`` comments).
"""

from __future__ import annotations

__all__ = ["EIB_SIZE", "STANDARD_BOOKS", "book", "literal_items"]

EIB_SIZE = 85


def book(*lines: str) -> str:
    return "".join("       " + line + "\n" for line in lines)


_EIB_FIELDS = [
    ("EIBTIME", "S9(7) COMP-3"), ("EIBDATE", "S9(7) COMP-3"), ("EIBTRNID", "X(4)"),
    ("EIBTASKN", "S9(7) COMP-3"), ("EIBTRMID", "X(4)"), ("DFHEIGDI", "S9(4) COMP"),
    ("EIBCPOSN", "S9(4) COMP"), ("EIBCALEN", "S9(4) COMP"), ("EIBAID", "X(1)"), ("EIBFN", "X(2)"),
    ("EIBRCODE", "X(6)"), ("EIBDS", "X(8)"), ("EIBREQID", "X(8)"), ("EIBRSRCE", "X(8)"),
    ("EIBSYNC", "X(1)"), ("EIBFREE", "X(1)"), ("EIBRECV", "X(1)"), ("FILLER", "X(1)"),
    ("EIBATT", "X(1)"), ("EIBEOC", "X(1)"), ("EIBFMH", "X(1)"), ("EIBCOMPL", "X(1)"), ("EIBSIG", "X(1)"),
    ("EIBCONF", "X(1)"), ("EIBERR", "X(1)"), ("EIBERRCD", "X(4)"), ("EIBSYNRB", "X(1)"),
    ("EIBNODAT", "X(1)"), ("EIBRESP", "S9(8) COMP"), ("EIBRESP2", "S9(8) COMP"), ("EIBRLDBK", "X(1)"),
]  # fmt: skip

DFHEIBLK = book(
    "*> THE EXEC INTERFACE BLOCK, AS CICS LAYS IT OUT (85 BYTES)",
    "01  DFHEIBLK.",
    *(f"    02  {name:<10} PIC {pic}." for name, pic in _EIB_FIELDS),
)

# The attention identifiers: the character each key's AID byte shows (IBM: DFHAID).
_AIDS = [
    ("DFHNULL", "X'00'"), ("DFHENTER", "QUOTE"), ("DFHCLEAR", "'_'"), ("DFHCLRP", "X'6A'"), ("DFHPEN", "'='"),
    ("DFHOPID", "'W'"), ("DFHMSRE", "'X'"), ("DFHSTRF", "'h'"), ("DFHTRIG", "'\"'"), ("DFHPA1", "'%'"),
    ("DFHPA2", "'>'"), ("DFHPA3", "','"), *((f"DFHPF{n}", f"'{n}'") for n in range(1, 10)), ("DFHPF10", "':'"),
    ("DFHPF11", "'#'"), ("DFHPF12", "'@'"), *((f"DFHPF{n}", f"'{chr(ord('A') + n - 13)}'") for n in range(13, 22)),
    ("DFHPF22", "'['"), ("DFHPF23", "'.'"), ("DFHPF24", "'<'"),
]  # fmt: skip
DFHAID = book(
    "*> THE ATTENTION IDENTIFIERS (EIBAID VALUES)",
    "01  DFHAID.",
    *(f"    02  {name:<9} PIC X VALUE {value}." for name, value in _AIDS),
)

# Field attributes, colours and highlighting of BMS maps (IBM: DFHBMSCA), as the characters they show.
_ATTRIBUTES = [
    ("DFHBMPEM", "X'19'"), ("DFHBMPNL", "X'15'"), ("DFHBMPFF", "X'0C'"), ("DFHBMPCR", "X'0D'"),
    ("DFHBMASK", "'0'"), ("DFHBMUNP", "' '"), ("DFHBMUNN", "'&'"), ("DFHBMPRO", "'-'"), ("DFHBMBRY", "'H'"),
    ("DFHBMDAR", "'<'"), ("DFHBMFSE", "'A'"), ("DFHBMPRF", "'/'"), ("DFHBMASF", "'1'"), ("DFHBMASB", "'8'"),
    ("DFHBMEOF", "X'80'"), ("DFHBMCUR", "X'02'"), ("DFHBMEC", "X'82'"), ("DFHBMFLG", "X'00'"),
    ("DFHBMDET", "X'FF'"), ("DFHDFCOL", "X'00'"), ("DFHBLUE", "'1'"), ("DFHRED", "'2'"), ("DFHPINK", "'3'"),
    ("DFHGREEN", "'4'"), ("DFHTURQ", "'5'"), ("DFHYELLO", "'6'"), ("DFHNEUTR", "'7'"), ("DFHBASE", "X'00'"),
    ("DFHDFHI", "X'00'"), ("DFHBLINK", "'1'"), ("DFHREVRS", "'2'"), ("DFHUNDLN", "'4'"),
]  # fmt: skip
DFHBMSCA = book(
    "*> BMS FIELD ATTRIBUTES, COLOURS AND HIGHLIGHTING",
    "01  DFHBMSCA.",
    *(f"    02  {name:<9} PIC X VALUE {value}." for name, value in _ATTRIBUTES),
)

STANDARD_BOOKS = {"DFHEIBLK": DFHEIBLK, "DFHAID": DFHAID, "DFHBMSCA": DFHBMSCA}


def literal_items(level: str, text: str, width: int = 30) -> list[str]:
    """``text`` (a literal's characters, quotes undone) as FILLER items of at most ``width`` characters
    each as written (a quote doubled counts twice), so that no line of the book passes column 72: the
    lines of a group's subordinate items."""
    pieces: list[str] = []
    for ch in text:
        if not pieces or len(pieces[-1].replace("'", "''")) + len(ch.replace("'", "''")) > width:
            pieces.append("")
        pieces[-1] += ch
    return [f"    {level}  FILLER PIC X({len(p)}) VALUE '{p.replace(chr(39), chr(39) * 2)}'." for p in pieces or [" "]]

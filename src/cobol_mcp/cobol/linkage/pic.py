"""COBOL PICTURE strings and USAGE storage rules.

The rules follow what GnuCOBOL 3.1.2 does, verified with ``cobc -fdump``: BINARY sizes are 1-2-4-8 bytes
by digit count (2-4-8 or 1--8 under dialects that say so, see :mod:`.dialect`), COMP is big-endian,
COMP-5 and BINARY-CHAR/SHORT/LONG/DOUBLE are native-endian and not truncated, COMP-1/COMP-2 are IEEE
float/double, PIC N takes 2 bytes a position.
"""

from __future__ import annotations

import struct
from decimal import Decimal

from .frozen import Frozen

__all__ = [
    "NATIVE",
    "POINTERS",
    "POINTER_SIZE",
    "UNMAPPABLE",
    "USAGES",
    "Picture",
    "PictureError",
    "binary_size",
    "comp_x_picture",
    "describe",
    "from_stored",
    "native_picture",
    "native_range",
    "numeric_range",
    "parse_picture",
    "storage_size",
    "to_stored",
]


class PictureError(ValueError):
    """A PICTURE string or USAGE combination this package cannot lay out."""


# Every spelling of a supported USAGE -> canonical name used in Field.usage.
USAGES: dict[str, str] = {
    "DISPLAY": "display",
    "COMP": "binary",
    "COMPUTATIONAL": "binary",
    "BINARY": "binary",
    "COMP-4": "binary",
    "COMPUTATIONAL-4": "binary",
    "COMP-3": "comp-3",
    "COMPUTATIONAL-3": "comp-3",
    "PACKED-DECIMAL": "comp-3",
    "COMP-6": "comp-6",
    "COMPUTATIONAL-6": "comp-6",
    "COMP-X": "comp-x",
    "COMPUTATIONAL-X": "comp-x",
    "COMP-5": "comp-5",
    "COMPUTATIONAL-5": "comp-5",
    "COMP-1": "comp-1",
    "COMPUTATIONAL-1": "comp-1",
    "FLOAT-SHORT": "comp-1",
    "COMP-2": "comp-2",
    "COMPUTATIONAL-2": "comp-2",
    "FLOAT-LONG": "comp-2",
}

# USAGEs that are machine integers without a PICTURE -> (bytes, digits as cobc records them). They are
# stored in the machine's byte order and never truncated (cobc flags them "native binary"), so every
# value of the integer is valid. INDEX is cobc's COMP-5 type, always signed; the others take SIGNED
# (the default) or UNSIGNED.
NATIVE: dict[str, tuple[int, int]] = {
    "BINARY-CHAR": (1, 2),
    "BINARY-SHORT": (2, 4),
    "BINARY-LONG": (4, 9),
    "BINARY-DOUBLE": (8, 18),
    "BINARY-C-LONG": (struct.calcsize("l"), 18 if struct.calcsize("l") == 8 else 9),
    "INDEX": (4, 9),
}

# USAGEs that hold a machine address (of data or of code): there is no JSON value for one. Such an item
# takes the size of an address and is never part of a tool's JSON (see Field.exposed): a caller's record
# gives it binary zeros (NULL) and it is not returned.
POINTERS = frozenset(["POINTER", "PROCEDURE-POINTER", "PROGRAM-POINTER", "FUNCTION-POINTER"])
POINTER_SIZE = struct.calcsize("P")

# USAGEs that hold object handles: a program that declares one is not served.
UNMAPPABLE: dict[str, str] = {
    "OBJECT": "USAGE OBJECT REFERENCE holds an object handle",
}

_SWAP = str.maketrans(",.", ".,")
_REPEAT = r"(CR|DB|.)\((\d+)\)"  # a symbol and its repetition count (compiled when a PICTURE is parsed)
_NUMERIC_SYMBOLS = set("9SVP")
_EDIT_SYMBOLS = set("9ZV*+-$,.B0/P") | {"CR", "DB"}


class Picture(Frozen):
    """A parsed PICTURE: enough to size the item and to range-check its values."""

    stored = ("text", "category", "length", "digits", "nines", "scale", "signed")
    text: str  # upper-cased, as written: "S9(3)V99"
    category: str  # numeric | alphanumeric | alphabetic | numeric-edited | alphanumeric-edited
    length: int  # character positions in DISPLAY form (a SEPARATE sign is extra)
    digits: int  # digit positions including P scaling positions (what cobc calls digits)
    nines: int  # digit positions actually stored (9s)
    scale: int  # value = stored integer * 10**-scale (negative with trailing P)
    signed: bool

    def __init__(
        self, text: str, category: str, length: int, digits: int, nines: int, scale: int, signed: bool
    ) -> None:
        self.fill(text, category, length, digits, nines, scale, signed)

    @property
    def integer_digits(self) -> int:
        """Digits allowed left of the decimal point (P positions count)."""
        return max(self.digits - self.scale, 0) if self.scale >= 0 else self.nines - self.scale


def _symbols(text: str) -> list[str]:
    """Expand repetition counts: "S9(3)V99" -> ["S", "9", "9", "9", "V", "9", "9"]."""
    import re  # here, not at the top: loading a spec for a call parses no PICTURE

    expanded = re.sub(_REPEAT, lambda m: m.group(1) * int(m.group(2)), text)
    if "(" in expanded or ")" in expanded:
        raise PictureError(f"PIC {text}: malformed repetition count")
    out: list[str] = []
    i = 0
    while i < len(expanded):
        pair = expanded[i : i + 2]
        if pair in ("CR", "DB"):
            out.append(pair)
            i += 2
        else:
            out.append(expanded[i])
            i += 1
    return out


def parse_picture(text: str, decimal_comma: bool = False) -> Picture:
    """Parse a PICTURE character-string; raise PictureError for anything malformed or unsupported.
    With ``decimal_comma`` (DECIMAL-POINT IS COMMA) "," is the decimal point and "." an insertion."""
    pic = text.strip().upper()
    if not pic:
        raise PictureError("empty PICTURE")
    syms = _symbols(pic.translate(_SWAP) if decimal_comma else pic)
    if set(syms) <= _NUMERIC_SYMBOLS:
        return _numeric(pic, syms)
    if set(syms) == {"N"}:
        # GnuCOBOL 3.1.2 keeps 2 bytes per N position and moves text into them byte for byte
        # (MOVE "ab" TO a PIC N(2) stores 61 62 20 20): the item is text of twice as many bytes.
        return Picture(pic, "national", 2 * len(syms), 0, 0, 0, False)
    if set(syms) <= set("XA9"):
        category = "alphabetic" if set(syms) == {"A"} else "alphanumeric"
        return Picture(pic, category, len(syms), 0, 0, 0, False)
    if set(syms) <= set("XA9B0/") and set(syms) & set("XA"):
        return Picture(pic, "alphanumeric-edited", len(syms), 0, 0, 0, False)
    if set(syms) <= _EDIT_SYMBOLS:
        return _edited(pic, syms)
    bad = "".join(sorted({s for s in syms if s not in _EDIT_SYMBOLS | set("XAS")}))
    raise PictureError(f"PIC {pic}: unsupported symbol(s) {bad or 'S'!r}")


def _numeric(pic: str, syms: list[str]) -> Picture:
    import re  # here, not at the top: loading a spec for a call parses no PICTURE

    signed = syms[0] == "S"
    body = syms[1:] if signed else syms
    if "S" in body:
        raise PictureError(f"PIC {pic}: S must be the first symbol")
    if body.count("V") > 1:
        raise PictureError(f"PIC {pic}: more than one V")
    digits = [s for s in body if s != "V"]
    if not digits or "9" not in digits:
        raise PictureError(f"PIC {pic}: no digit positions")
    text = "".join(digits)
    if not re.fullmatch(r"P*9+P*", text) or (text.startswith("P") and text.endswith("P")):
        raise PictureError(f"PIC {pic}: P must be at one end of the digits")
    nines = text.count("9")
    if "V" in body:
        point = body.index("V")
    elif text.startswith("P"):
        point = 0
    else:
        point = len(body)
    after = sum(1 for s in body[point:] if s in "9P")
    trailing_p = sum(1 for s in body[:point] if s == "P")
    scale = after - trailing_p
    if nines > 38:
        raise PictureError(f"PIC {pic}: more than 38 digits")
    return Picture(pic, "numeric", nines, len(digits), nines, scale, signed)


def _edited(pic: str, syms: list[str]) -> Picture:
    length = sum(2 if s in ("CR", "DB") else 1 for s in syms if s not in ("V", "P"))
    digit_syms = [s for s in syms if s in "9Z*+-$P"]
    point = next((i for i, s in enumerate(syms) if s in (".", "V")), len(syms))
    scale = sum(1 for s in syms[point:] if s in "9Z*P")  # a trailing + or - is the sign, as cobc counts
    signed = any(s in ("+", "-", "CR", "DB") for s in syms)
    return Picture(pic, "numeric-edited", length, len(digit_syms), 0, scale, signed)


def native_picture(usage: str, signed: bool) -> tuple[Picture, int]:
    """The Picture and size of a NATIVE usage: digits as cobc records them, nines wide enough for the
    whole integer (its range is checked with :func:`native_range`, not by digits)."""
    size, digits = NATIVE[usage]
    widest = len(str(1 << (8 * size)))
    return Picture("", "numeric", digits, digits, widest, 0, signed), size


# binary-size 1--8 (the mf dialect): the fewest bytes that hold the digits, signed or not (index: digits)
_SIGNED_1_8 = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6, 6, 7, 7, 8, 8)
_UNSIGNED_1_8 = (0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5, 6, 6, 7, 7, 8, 8)


def comp_x_picture(picture: Picture) -> tuple[Picture, int]:
    """USAGE COMP-X (big-endian unsigned binary, whatever the dialect): PIC X(n) is an n-byte integer with
    the digits cobc counts for it; PIC 9(n) takes the fewest bytes that hold n digits."""
    if picture.category == "alphanumeric" and set(_symbols(picture.text)) == {"X"} and picture.length <= 8:
        top = str(1 << (8 * picture.length))  # every value of the bytes is valid: like a NATIVE item
        return Picture("", "numeric", len(top) - 1, len(top) - 1, len(top), 0, False), picture.length
    if picture.category == "numeric" and not picture.signed and picture.nines <= 18:
        return picture, _UNSIGNED_1_8[picture.nines]
    raise PictureError(f"USAGE COMP-X needs PIC X(1) to X(8) or an unsigned PIC 9, not PIC {picture.text}")


def binary_size(nines: int, scheme: str = "1-2-4-8", signed: bool = True, native: bool = False) -> int:
    """Bytes of a COMP/BINARY/COMP-5 item under the dialect's binary-size (GnuCOBOL's default: 1-2-4-8).
    Under 2-4-8 a COMP-5 item of 1 or 2 digits still takes 1 byte, as cobc lays it out."""
    if nines > 18:
        raise PictureError(f"binary items cannot have more than 18 digits (got {nines})")
    if scheme == "1--8":
        return (_SIGNED_1_8 if signed else _UNSIGNED_1_8)[nines]
    if nines <= 2:
        return 2 if scheme == "2-4-8" and not native else 1
    if nines <= 4:
        return 2
    if nines <= 9:
        return 4
    return 8


def storage_size(picture: Picture | None, usage: str, sign_separate: bool = False, scheme: str = "1-2-4-8") -> int:
    """Bytes one occurrence of an elementary item occupies."""
    if usage == "comp-1":
        return 4
    if usage == "comp-2":
        return 8
    if picture is None:
        raise PictureError(f"USAGE {usage.upper()} needs a PICTURE")
    if usage == "display":
        extra = 1 if sign_separate and picture.signed and picture.category == "numeric" else 0
        return picture.length + extra
    if picture.category != "numeric":
        raise PictureError(f"USAGE {usage.upper()} needs a numeric PICTURE, not PIC {picture.text}")
    if usage == "comp-3":
        return picture.nines // 2 + 1
    if usage == "comp-6":  # packed decimal without a sign nibble
        if picture.signed:
            raise PictureError(f"USAGE COMP-6 is unsigned, not PIC {picture.text}")
        return (picture.nines + 1) // 2
    if usage in ("binary", "comp-5"):
        return binary_size(picture.nines, scheme, picture.signed, usage == "comp-5")
    raise PictureError(f"unsupported USAGE {usage!r}")


def from_stored(n: int, scale: int) -> Decimal:
    """The exact value of stored integer ``n`` (no rounding context involved, whatever the digits)."""
    if scale <= 0:
        return Decimal(n * 10**-scale)
    return Decimal((int(n < 0), tuple(map(int, str(abs(n)))), -scale))


def numeric_range(picture: Picture) -> tuple[Decimal, Decimal]:
    """Smallest and largest value the PIC digits can hold."""
    top = from_stored(10**picture.nines - 1, picture.scale)
    return (top.copy_negate() if picture.signed else Decimal(0)), top


def native_range(picture: Picture, size: int) -> tuple[Decimal, Decimal]:
    """Range of an untruncated binary item (COMP-5): the whole machine integer, scaled."""
    if picture.signed:
        low, high = -(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1
    else:
        low, high = 0, (1 << (8 * size)) - 1
    return from_stored(low, picture.scale), from_stored(high, picture.scale)


def describe(picture: Picture | None, usage: str = "display") -> str:
    """One human sentence about what values fit, e.g. for a JSON Schema description."""
    if usage == "comp-1":
        return "USAGE COMP-1: single-precision binary floating point"
    if usage == "comp-2":
        return "USAGE COMP-2: double-precision binary floating point"
    assert picture is not None
    head = f"PIC {picture.text}"
    if picture.category == "national":
        return f"{head}: up to {picture.length} characters ({picture.length // 2} national positions of 2 bytes)"
    if picture.category in ("alphanumeric", "alphabetic"):
        letters = " letters and spaces" if picture.category == "alphabetic" else " characters"
        return f"{head}: up to {picture.length}{letters}"
    if picture.category.endswith("edited"):
        return f"{head}: edited text of at most {picture.length} characters"
    sign = "signed" if picture.signed else "not negative"
    places = f"{picture.scale} decimal place{'s' * (picture.scale != 1)}"
    if picture.scale < 0:
        return f"{head}: {sign}, a multiple of {10**-picture.scale} with up to {picture.integer_digits} digits"
    whole = picture.digits - picture.scale
    if picture.scale == 0:
        return f"{head}: {sign}, whole number of up to {whole} digits"
    parts = f"up to {whole} integer digit{'s' * (whole != 1)} and {places}"
    if picture.digits > picture.nines:
        parts = f"up to {places}, the first {picture.digits - picture.nines} always 0"
    return f"{head}: {sign}, {parts}"


def to_stored(value: Decimal, picture: Picture) -> int:
    """The exact integer stored for ``value`` (value * 10**scale); PictureError says why it won't fit.

    Works on the decimal digits directly, so no rounding context or binary float is involved and absurd
    exponents ("1E+999999999") are rejected without building huge integers.
    """
    if not value.is_finite():
        raise PictureError("not a finite number")
    sign, digit_tuple, exp = value.as_tuple()
    text = "".join(map(str, digit_tuple)).lstrip("0")
    if not text:
        return 0
    if sign and not picture.signed:
        raise PictureError("the PIC is unsigned, so negative values do not fit")
    assert isinstance(exp, int)
    shift = exp + picture.scale
    if shift < 0:
        if -shift > len(text) - len(text.rstrip("0")):
            if picture.scale > 0:
                raise PictureError(f"at most {picture.scale} decimal places")
            if picture.scale == 0:
                raise PictureError("must be a whole number")
            raise PictureError(f"must be a multiple of {10**-picture.scale}")
        coefficient = int(text[:shift]) if len(text) + shift <= picture.nines else -1  # bounded int()
    elif len(text) + shift > picture.nines:
        coefficient = -1
    else:
        coefficient = int(text) * 10**shift
    if coefficient < 0 or coefficient >= 10**picture.nines:
        if picture.integer_digits and picture.scale >= 0:
            raise PictureError(f"at most {picture.integer_digits} integer digits")
        raise PictureError(f"largest allowed magnitude is {numeric_range(picture)[1]}")
    return -coefficient if sign else coefficient

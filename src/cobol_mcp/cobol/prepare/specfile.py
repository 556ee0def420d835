"""A program's spec as the build cache keeps it: a small file beside its module, read on first use.

Apart from :mod:`.programs` (which writes them) so that a tool reading its spec on its first call
imports the record model only: not the parser, cobc, the direction analysis, nor even ``pickle``. The
file is a header line and then ``marshal`` data (the interpreter's own format, always loaded): a model
object is a list ``[class number, [its values in constructor order], (where those are not plain)]``, a
Decimal its text as bytes, tuples and plain values stay as they are. A file of another format or a damaged one raises
:class:`SpecFileError`, never anything else: the writer parses the program again, a tool reports it.
"""

from __future__ import annotations

import marshal
from decimal import Decimal

from ..linkage.frozen import make
from ..linkage.model import Condition, Field, ProgramSpec, Record
from ..linkage.pic import Picture

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["FORMAT", "SpecFileError", "dumps", "load_spec", "loads"]

FORMAT = b"cobol-mcp spec 3\n"  # the header: a new layout of the file (or of the model) gets a new one
_CLASSES = (Condition, Field, Picture, Record, ProgramSpec)  # new classes go at the end
_NUMBERS = {cls: number for number, cls in enumerate(_CLASSES)}
_PLAIN = (str, int, bool, type(None))
_NESTED = {list, tuple, bytes}


class SpecFileError(ValueError):
    """The file is not a spec file of this version, or it is damaged."""


def dumps(value: ProgramSpec | tuple[tuple[ProgramSpec | str, ...], tuple[str, ...]]) -> bytes:
    """The file's bytes for a spec, or for a source file's units (each a spec or why it is not one) with
    the warnings reading it gave."""
    return FORMAT + marshal.dumps(_pack(value))


def loads(data: bytes, where: object = "spec file") -> Any:
    """What :func:`dumps` was given (SpecFileError, naming ``where``, for anything else)."""
    if not data.startswith(FORMAT):
        raise SpecFileError(f"{where}: not a spec file of this version (the build cache makes it again)")
    try:
        return _unpack(marshal.loads(memoryview(data)[len(FORMAT) :]))
    except (ValueError, TypeError, EOFError, IndexError, ArithmeticError) as exc:
        raise SpecFileError(f"{where}: damaged spec file ({exc})") from None


def load_spec(path: str) -> ProgramSpec:
    with open(path, "rb") as handle:
        spec = loads(handle.read(), path)
    if not isinstance(spec, ProgramSpec):
        raise SpecFileError(f"{path} does not hold a program spec")
    return spec


def _pack(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple:
        return tuple(map(_pack, value))
    number = _NUMBERS.get(kind)
    if number is not None:
        values = list(map(_pack, value.astuple()))
        nested = tuple(index for index, item in enumerate(values) if type(item) in _NESTED and item)
        return [number, values, nested]
    if kind is Decimal:
        return str(value).encode("ascii")
    raise TypeError(f"a spec file cannot hold {kind.__name__} values")


def _unpack(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return _object(value)
    if kind is tuple:
        return tuple([_unpack(item) for item in value]) if value else value
    if kind is bytes:
        return Decimal(value.decode("ascii"))
    return value


def _object(packed: list[Any]) -> Any:
    """A model object from its list: only the values the list names as nested are looked at."""
    number, values, nested = packed
    for index in nested:
        values[index] = _unpack(values[index])
    return make(_CLASSES[number], values)

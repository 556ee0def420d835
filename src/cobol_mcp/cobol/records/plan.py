"""Compiled codec plans: what :func:`~.codec.encode_inputs` and :func:`~.codec.decode_outputs` do for one
ProgramSpec, worked out once.

A plan holds each record's initial bytes, the flattened argument and result shapes, and per JSON property
a closure with the item's offset, size, PIC limits and messages bound in (:mod:`.encoders`,
:mod:`.decoders`), so a call only checks types, converts values and copies bytes. Items that are only
results are not encoded (they keep their initial bytes) and items that are only arguments are not
decoded: the record views of :meth:`~..linkage.model.Record.view` are taken once, here. Errors, messages and
notes are the codec's own: whatever is not the usual case goes to the scalar functions of :mod:`.codec`.
"""

from __future__ import annotations

from ..linkage.model import Field, ProgramSpec, Record
from ..linkage.odo import tables
from .decoders import decoder
from .encoders import MISSING, encoder, item_bytes
from .errors import DecodeError, FieldError, check_keys, json_type, pic_text
from .items import initial_bytes
from .shape import flat, has_default, properties

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Plan"]


class Plan:
    """Encoding and decoding of one ProgramSpec's records."""

    __slots__ = (
        "allowed",
        "count",
        "counters",
        "encoders",
        "joined",
        "outputs",
        "owner",
        "pieces",
        "program_id",
        "readers",
        "sizes",
        "templates",
        "top",
    )

    def __init__(self, spec: ProgramSpec) -> None:
        self.program_id = spec.program_id
        self.count = len(spec.records)
        self.templates = [initial_bytes(r.field) for r in spec.records]
        ins = [r.view("in") for r in spec.records]
        inputs, self.top = _shape(tuple(v for v in ins if v is not None))
        self.allowed = frozenset(self.top)
        self.encoders = tuple(
            (index, tuple(_top_encoder(key, f) for key, f in inputs[v.key].items()))
            for index, v in enumerate(ins)
            if v is not None
        )
        self.counters = _counters(spec)  # OCCURS DEPENDING ON tables -> their counters
        self.pieces = tuple(
            None if self.counters else _pieces(self.templates[index], inputs[v.key])
            for index, v in enumerate(ins)
            if v is not None
        )
        # Every argument record made of pieces (the usual case): (record index, its pieces) of each
        joined = [(index, pieces) for (index, _), pieces in zip(self.encoders, self.pieces, strict=True) if pieces]
        self.joined = tuple(joined) if len(joined) == len(self.pieces) else None
        outs = [r.view("out") for r in spec.records]
        outputs, _ = _shape(tuple(v for v in outs if v is not None))
        self.readers = tuple(
            (r.size, r.name, tuple((key, decoder(f, key, trim=f.trim)) for key, f in outputs[v.key].items()))
            if v is not None else (r.size, r.name, None)
            for r, v in zip(spec.records, outs, strict=True)
        )  # fmt: skip
        self.sizes = tuple(r.size for r in spec.records)
        self.outputs = tuple((index, props) for index, (_, _, props) in enumerate(self.readers) if props is not None)
        self.owner: object = None  # set by the codec's cache: drops this plan together with its spec

    def encode(self, arguments: Any) -> list[bytes]:
        """codec.encode_inputs for this spec."""
        if not self.counters:
            return self._encode(arguments)
        from . import odo

        state = odo.CallState(self.counters)
        token = odo.STATE.set(state)
        try:
            buffers = self._encode(arguments)
            odo.set_counters(state, buffers)
        finally:
            odo.STATE.reset(token)
        return buffers

    def _encode(self, arguments: Any) -> list[bytes]:
        if type(arguments) is not dict:
            if arguments is None:
                arguments = {}
            elif not isinstance(arguments, dict):
                raise FieldError("", f"arguments must be an object, not {json_type(arguments)}")
        if not self.allowed.issuperset(arguments):
            check_keys(arguments, self.top, "")
        buffers = self.templates.copy()
        if self.joined is not None:  # every record joined from its pieces: the usual values, nothing else
            for index, parts in self.joined:
                data = _joined(parts, arguments)
                if data is None:
                    break  # an unusual value: the general path below writes every record again
                buffers[index] = data
            else:
                return buffers
        for (index, props), pieces in zip(self.encoders, self.pieces, strict=True):
            if pieces is not None:  # every item written on its own: joined with the bytes between them
                data = _joined(pieces, arguments)
                if data is not None:
                    buffers[index] = data
                    continue
            buf = bytearray(buffers[index])
            for key, encode, missing in props:
                value = arguments.get(key, MISSING)
                if value is not MISSING:
                    encode(buf, value, key, 0)
                elif missing:
                    raise FieldError(key, missing)
            buffers[index] = bytes(buf)
        return buffers

    def decode(self, buffers: Any, notes: list[str] | None) -> dict[str, Any]:
        """codec.decode_outputs for this spec."""
        if not self.counters:
            return self._decode(buffers, notes)
        from . import odo

        token = odo.STATE.set(odo.CallState(self.counters, list(buffers)))
        try:
            return self._decode(buffers, notes)
        finally:
            odo.STATE.reset(token)

    def _decode(self, buffers: Any, notes: list[str] | None) -> dict[str, Any]:
        if tuple(map(len, buffers)) != self.sizes:
            raise self._size_error(buffers)
        result: dict[str, Any] = {}
        for index, props in self.outputs:  # the records with results; the sizes of all are checked above
            data = buffers[index]
            if type(data) is not bytes:
                data = bytes(data)
            for key, decode in props:
                result[key] = decode(data, 0, notes, key)
        return result

    def _size_error(self, buffers: Any) -> DecodeError:
        if len(buffers) != self.count:
            return DecodeError(f"{self.program_id}: {len(buffers)} buffers for {self.count} records")
        for (size, name, _), buf in zip(self.readers, buffers, strict=True):
            if len(buf) != size:
                return DecodeError(f"{self.program_id}: record {name} is {len(buf)} bytes, expected {size}")
        return DecodeError(f"{self.program_id}: records of unexpected sizes")  # pragma: no cover - one differs


def _counters(spec: ProgramSpec) -> dict[int, Any]:
    """odo.find_counters, with records.odo (and contextvars) loaded only for a spec that has a table."""
    if not any(True for r in spec.records for _ in tables(r.field)):
        return {}
    from . import odo

    return odo.find_counters(spec)


def _shape(records: tuple[Record, ...]) -> tuple[dict[str, dict[str, Field]], dict[str, Field]]:
    """Each record's top-level properties, and all of them in one object (codec's flattening rule)."""
    if flat(records):
        mine = {r.key: properties(r) for r in records}
        return mine, {key: f for r in records for key, f in mine[r.key].items()}
    return {r.key: {r.key: r.field} for r in records}, {r.key: r.field for r in records}


def _pieces(template: bytes, props: dict[str, Field]) -> tuple[tuple[tuple[str, Any, bytes], ...], bytes] | None:
    """A record whose argument items each have a bytes form (encoders.item_bytes) and do not overlap:
    ((name, bytes form, the template's bytes before it), ...) in the record's order, and the bytes after
    the last. None for any other record (its items are written into a copy of the template)."""
    items_in_order = sorted(props.items(), key=lambda item: item[1].offset)
    out, at = [], 0
    for key, f in items_in_order:
        data_of = item_bytes(f)
        if data_of is None or f.offset < at:
            return None
        out.append((key, data_of, template[at : f.offset]))
        at = f.offset + f.size
    return tuple(out), template[at:]


def _joined(pieces: tuple[tuple[tuple[str, Any, bytes], ...], bytes], arguments: dict[str, Any]) -> bytes | None:
    """The record from its pieces when every item has a value in its usual form; else None, and the
    record is written item by item (which raises the errors, fills in defaults, and so on)."""
    items, tail = pieces
    get = arguments.get
    parts: list[bytes] = []
    for key, data_of, before in items:
        data = data_of(get(key))
        if data is None:
            return None
        parts.append(before)
        parts.append(data)
    parts.append(tail)
    return b"".join(parts)


def _top_encoder(key: str, f: Field) -> tuple[str, Any, str | None]:
    """(argument name, encoder, message when it is missing or None when it may be left out)."""
    if has_default(f):
        return key, encoder(f, key), None
    return key, encoder(f, key), f"missing required argument '{key}' ({'an object' if f.is_group else pic_text(f)})"

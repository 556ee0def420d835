"""JSON arguments <-> LINKAGE record bytes, exactly.

Numbers never pass through binary floating point (except COMP-1/COMP-2 items, which *are* binary floats):
inputs may be ``int``, finite ``Decimal`` or plain decimal strings ("12.50", "-3", "1E+3"; no blanks,
no hex) - a Python ``float`` is taken by its shortest repr; outputs are ``int`` (no decimal places) or
``Decimal`` carrying the PIC's scale. COMP (BINARY) inputs and outputs stay within the PIC digits, as
GnuCOBOL truncates them; COMP-5 inputs do too, but COMP-5 outputs may use the whole binary integer.

Argument shape. Each item has a direction (:mod:`..linkage.direction`): the arguments are the items
that are "in" or "inout", the results those that are "out" or "inout"; a record or group keeps only
those (:meth:`~..linkage.model.Record.view`). The properties of the records with arguments are placed
at the top level when no two records contribute the same property name; a group record contributes its
named children, an elementary 01/77 record contributes itself. When names collide, each record becomes
one top-level property (its key) holding an object of its fields. Results follow the same rule, decided
separately. Items that are not arguments keep their initial bytes (VALUE, else spaces/zeros).

Decisions. Every input item is required unless it (or a group around it) has a VALUE, which is then
used. OCCURS arrays must have exactly their OCCURS count of items; an OCCURS min TO max DEPENDING ON
table takes min to max items, sets its counter from their number, and comes back cut to the counter
(null, with a note, when the counter is out of bounds: see :mod:`.odo`). An item with level-88 conditions
takes every value its item can hold, and on input also a condition name that stands for exactly one
value (stored as that value); it is reported as its value, never as a name (a name over a range would
lose which value it was).
PIC X/A text is Latin-1; anything else is rejected. Numeric-edited input text is right-aligned,
other text left-aligned unless JUSTIFIED RIGHT. Output text is right-trimmed of spaces (edited and
JUSTIFIED items are trimmed on both sides) unless the item holds a control byte; ``Field.trim`` set
by the overrides file says otherwise, and an item with ``Field.encoding`` is its bytes in hex or base64,
exactly its size on input, never trimmed. A numeric output whose bytes are not a valid value of its
PIC (spaces, bad digits or sign, a value outside the PIC digits; NaN for floats) becomes ``None``,
with a note appended to ``notes`` when the caller passes a list.
"""

from __future__ import annotations

import _weakref as weakref  # its ref type without the weakref module, a cost on the first call

from ..linkage.model import ProgramSpec
from .errors import DecodeError, FieldError
from .items import decode_scalar, encode_scalar, initial_bytes
from .plan import Plan
from .shape import flat, has_default, input_records, output_records, properties

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "DecodeError",
    "FieldError",
    "decode_outputs",
    "decode_scalar",
    "encode_inputs",
    "encode_scalar",
    "flat",
    "has_default",
    "initial_bytes",
    "input_records",
    "output_records",
    "plan",
    "properties",
]


def plan(spec: ProgramSpec) -> Plan:
    """The spec's compiled plan: what encode_inputs and decode_outputs use, for callers that keep it."""
    return _plans.get(id(spec)) or _compile(spec)


def encode_inputs(spec: ProgramSpec, arguments: dict[str, Any] | None) -> list[bytes]:
    """One buffer per USING record, exact size; items that are not arguments are initialized (see
    initial_bytes)."""
    return (_plans.get(id(spec)) or _compile(spec)).encode(arguments)


def decode_outputs(spec: ProgramSpec, buffers: list[bytes], notes: list[str] | None = None) -> dict[str, Any]:
    """JSON-ready values of the "out" and "inout" items (shape: see the module docstring)."""
    return (_plans.get(id(spec)) or _compile(spec)).decode(buffers, notes)


# ------------------------------------------------------------------------------------------------ plans

_plans: dict[int, Plan] = {}  # id(spec) -> its plan, dropped together with the spec


def _compile(spec: ProgramSpec) -> Plan:
    """The spec's plan (see :mod:`.plan`), built on first use; the spec itself is left as it is."""
    plan = Plan(spec)
    key = id(spec)
    try:
        plan.owner = weakref.ref(spec, lambda _: _plans.pop(key, None))
    except TypeError:  # not a ProgramSpec but something shaped like one: use the plan once
        return plan
    _plans[key] = plan
    return plan

"""Field overrides of ``cobol-mcp.toml`` that change an item's shape (see :mod:`.overrides`): ``bytes``
(a PIC X item, or a group taken whole, whose value is its bytes in hex or base64) and ``view`` (which
REDEFINES definition of some bytes is shown; "all": the first carries the others as its
``alternatives``, given one at a time on input and all reported on output).

A chosen view takes its directions from the definition the direction analysis saw (the first: the
analysis follows bytes, and only shown items are its units): each item of the view gets the combined
direction of the items of the first definition whose bytes it overlaps.
May import: :mod:`..linkage`, :mod:`..records`, :mod:`..`.
"""

from __future__ import annotations

from .. import LinkageError
from ..linkage.frozen import replace
from ..linkage.model import Field

__all__ = ["as_bytes", "choose_view", "kind"]


def kind(f: Field) -> str:
    """What an item is, for messages: a group, PIC ..., or USAGE ..."""
    return "a group" if f.is_group else f"PIC {f.pic}" if f.pic else f"USAGE {f.native or f.usage.upper()}"


def as_bytes(f: Field, encoding: str, where: str) -> Field:
    """A PIC X item, or a group taken whole as one PIC X item, whose value is its bytes in ``encoding``."""
    if f.conditions:
        raise LinkageError(f"{where}: bytes: {f.name} has 88-level condition names, which name text values")
    if not f.is_group:
        if f.category != "alphanumeric":
            raise LinkageError(f"{where}: bytes needs a PIC X item or a group; {f.name} is {kind(f)}")
        return replace(f, encoding=encoding)
    from ..records.items import initial_bytes
    from ..records.shape import has_default

    def tables(g: Field) -> list[str]:
        return [g.name] * bool(g.depending_on or g.counts) + [n for c in g.children for n in tables(c)]

    inner = tables(f)
    if inner:
        raise LinkageError(f"{where}: bytes: {f.name} holds {inner[0]}, an OCCURS DEPENDING ON table or its "
                           "counter, whose size is not fixed")  # fmt: skip
    value = initial_bytes(f).decode("latin-1") if has_default(f) else None
    return replace(
        f, usage="display", category="alphanumeric", pic=f"X({f.size})", picture=None, children=(),
        encoding=encoding, value=value, justified=False,
    )  # fmt: skip


def choose_view(parent: Field, name: str, view: str, where: str) -> Field:
    """``parent`` with the REDEFINES view ``view`` of its child ``name`` shown instead of the first."""
    first = next(c for c in parent.children if c.name.upper() == name)
    views = [first, *(c for c in parent.children if c.redefines and c.redefines.upper() == name)]
    if len(views) == 1:
        raise LinkageError(f"{where}: view: no item REDEFINES {first.name}, so it has no other view")
    if view.strip().lower() == "all":
        return _all_views(parent, first, views, where)
    chosen = next((c for c in views if c.name.upper() == view.strip().upper()), None)
    if chosen is None:
        raise LinkageError(f"{where}: view: {view!r} is not a view of {first.name} "
                           f"(views: {', '.join(c.name for c in views)})")  # fmt: skip
    if chosen.key is None:
        raise LinkageError(f"{where}: view: {chosen.name} has no name to show (FILLER)")
    ids = {id(c) for c in views}
    shown = chosen if chosen is first else _inherit(chosen, _spans(first), first.name)

    def pick(c: Field) -> Field:
        if id(c) not in ids:
            return c
        return replace(shown if c is chosen else c, chosen=c is chosen)

    children = tuple(pick(c) for c in parent.children)
    return replace(parent, children=children)


def _all_views(parent: Field, first: Field, views: list[Field], where: str) -> Field:
    """``view = "all"``: the first definition carries the others (named ones) as its alternatives."""
    if first.key is None:
        raise LinkageError(f"{where}: view: {first.name} has no name to show (FILLER)")
    tables = [c.name for c in views if c.occurs]
    if tables:
        raise LinkageError(f'{where}: view = "all": {tables[0]} is a table (OCCURS); name one view instead')
    others = tuple(_inherit(c, _spans(first), first.name) for c in views[1:] if c.key is not None)
    children = tuple(replace(c, alternatives=others) if c is first else c for c in parent.children)
    return replace(parent, children=children)


def _spans(f: Field, span: tuple[int, int] | None = None) -> list[tuple[int, int, str, str, bool]]:
    """(first byte, end, direction, reason, optional) of each elementary item of ``f``; an item inside a
    table spans the whole table (which occurrence it is depends on the subscript)."""
    if f.occurs and span is None:
        span = (f.offset, f.offset + f.size * f.occurs)
    if not f.children:
        lo, hi = span or (f.offset, f.offset + f.size)
        return [(lo, hi, f.direction, f.reason, f.optional)]
    return [s for c in f.children if c.redefines is None for s in _spans(c, span)]


def _inherit(
    view: Field, spans: list[tuple[int, int, str, str, bool]], source: str, span: tuple[int, int] | None = None
) -> Field:
    """``view`` with the directions of the items whose bytes it shares; optional when each of them is."""
    if view.occurs and span is None:
        span = (view.offset, view.offset + view.size * view.occurs)
    if view.children:
        kids = tuple(_inherit(c, spans, source, span) for c in view.children)
        return replace(view, children=kids)
    lo, hi = span or (view.offset, view.offset + view.size)
    hits = [(d, why, o) for a, b, d, why, o in spans if a < hi and lo < b and d != "none"]
    found = {d for d, _, _ in hits}
    direction = "none" if not found else found.pop() if len(found) == 1 else "inout"
    reason = f"as {source}, whose bytes it redefines: {hits[0][1]}" if hits else "its bytes are not used"
    optional = bool(hits) and all(o for _, _, o in hits)
    return replace(view, direction=direction, reason=reason, optional=optional)

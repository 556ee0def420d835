"""One resource command as the CICSRT runtime decodes it: options in, the options to set and the RESP out.

:func:`run` takes the command's name as the translator's table spells it (``READ``, ``WRITEQ TS``,
``GET DCOUNTER`` …) and its options by name, as the runtime read them from the CALL's parameters:

* a name (FILE, QUEUE, QNAME, COUNTER, POOL) as bytes or str, trailing blanks ignored;
* a data area the command reads (FROM, RIDFLD) as its bytes; one it fills (INTO) as its size in bytes;
* a number (LENGTH, KEYLENGTH, REQID, ITEM, VALUE, INCREMENT, MINIMUM …) as an int;
* a flag (GENERIC, GTEQ, EQUAL, UPDATE, NOSUSPEND, REWRITE, NEXT, WRAP, REDUCE …) as True.

It answers the :class:`.result.Result` (RESP, RESP2) and what to store into which option: INTO as bytes
(cut to its length), SET as the whole data's bytes (for the runtime to put in storage of its own; LENGTH
is then no limit), LENGTH, RIDFLD (READNEXT/READPREV, and WRITE to an ESDS: as bytes of the RIDFLD
area's size), NUMREC, ITEM, NUMITEMS, VALUE, MINIMUM, MAXIMUM. An ESDS's RBA and an RRDS's record number
are RIDFLD's bytes as a fullword, big-endian (8 bytes with XRBA), as on the mainframe. READ sets no
RIDFLD (IBM documents RIDFLD as given back by READNEXT and READPREV). STARTBR and RESETBR search GTEQ
unless EQUAL is given, READ EQUAL unless GTEQ, as CICS's defaults are. A DCOUNTER value, which the
translator passes as a signed doubleword, is read as unsigned.
"""

from __future__ import annotations

from collections.abc import Mapping

from .files import Rid
from .resources import Resources
from .result import Result

__all__ = ["COMMANDS", "run"]

Options = Mapping[str, object]


def _text(value: object) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value or "")


def _int(opts: Options, name: str) -> int | None:
    value = opts.get(name)
    if value is None:
        return None
    if not isinstance(value, int):
        raise TypeError(f"{name} is a number here, not {value!r}")
    return value


def _data(opts: Options) -> bytes:
    data = opts.get("FROM", b"")
    assert isinstance(data, bytes)
    length = _int(opts, "LENGTH")
    return data if length is None else data[:length]


def _into(opts: Options) -> int | None:
    """The most a read may give: LENGTH if given, else the INTO area's size (None: SET, where LENGTH is
    only set, to the data's length)."""
    if "SET" in opts:
        return None
    length = _int(opts, "LENGTH")
    return length if length is not None else _int(opts, "INTO")


def _rid(res: Resources, opts: Options) -> Rid | None:
    raw = opts.get("RIDFLD")
    if raw is None:
        return None
    assert isinstance(raw, bytes)
    defn = res.files.fct.get(_text(opts.get("FILE")).rstrip().upper())
    if defn is not None and defn.organization != "ksds":
        return int.from_bytes(raw[: 8 if opts.get("XRBA") else 4], "big")
    return raw


def _read_sets(out: Result, opts: Options, rid_back: bool) -> dict[str, object]:
    sets: dict[str, object] = {}
    if out.data is not None:
        sets["INTO" if "INTO" in opts else "SET"] = out.data
    if out.length is not None and "LENGTH" in opts:
        sets["LENGTH"] = out.length
    if rid_back and out.ridfld is not None and isinstance(opts.get("RIDFLD"), bytes):
        sets["RIDFLD"] = _rid_bytes(out.ridfld, opts)
    return sets


def _rid_bytes(rid: Rid, opts: Options) -> bytes:
    area = opts["RIDFLD"]
    assert isinstance(area, bytes)
    if isinstance(rid, int):
        return rid.to_bytes(8 if opts.get("XRBA") else 4, "big")
    return rid[: len(area)].ljust(len(area), b" ")


def _file(res: Resources, cmd: str, o: Options) -> tuple[Result, dict[str, object]]:
    f, file = res.files, _text(o.get("FILE"))
    rid, keylength, generic, reqid = _rid(res, o), _int(o, "KEYLENGTH"), bool(o.get("GENERIC")), _int(o, "REQID") or 0
    if cmd == "READ":
        assert rid is not None
        out = f.read(file, rid, into=_into(o), keylength=keylength, generic=generic, gteq=bool(o.get("GTEQ")),
                     update=bool(o.get("UPDATE")), nosuspend=bool(o.get("NOSUSPEND")))  # fmt: skip
        return out, _read_sets(out, o, rid_back=False)
    if cmd in ("READNEXT", "READPREV"):
        read = f.readnext if cmd == "READNEXT" else f.readprev
        out = read(file, rid, reqid=reqid, into=_into(o))
        return out, _read_sets(out, o, rid_back=True)
    if cmd == "WRITE":
        out = f.write(file, rid if rid is not None else b"", _data(o), keylength=keylength)
        defn = f.fct.get(file.rstrip().upper())
        esds = defn is not None and defn.organization == "esds"
        return out, ({"RIDFLD": _rid_bytes(out.ridfld, o)} if esds and out.ridfld is not None else {})
    if cmd == "REWRITE":
        return f.rewrite(file, _data(o)), {}
    if cmd == "DELETE":
        out = f.delete(file, rid, keylength=keylength, generic=generic)
        return out, ({"NUMREC": out.number} if out.ok and "NUMREC" in o else {})
    if cmd == "UNLOCK":
        return f.unlock(file), {}
    if cmd in ("STARTBR", "RESETBR"):
        assert rid is not None
        start = f.startbr if cmd == "STARTBR" else f.resetbr
        return start(file, rid, reqid=reqid, keylength=keylength, generic=generic, gteq=not o.get("EQUAL")), {}
    assert cmd == "ENDBR"
    return f.endbr(file, reqid=reqid), {}


def _queue(res: Resources, cmd: str, o: Options) -> tuple[Result, dict[str, object]]:
    name = o.get("QNAME", o.get("QUEUE", b""))
    assert isinstance(name, bytes | str)
    if cmd == "WRITEQ TS":
        item = _int(o, "ITEM")
        out = res.ts.writeq(name, _data(o), item=item, rewrite=bool(o.get("REWRITE")))
        sets: dict[str, object] = {}
        if out.ok and "ITEM" in o and not o.get("REWRITE"):
            sets["ITEM"] = out.number
        if out.items is not None and "NUMITEMS" in o:
            sets["NUMITEMS"] = out.items
        return out, sets
    if cmd == "READQ TS":
        out = res.ts.readq(name, item=None if o.get("NEXT") else _int(o, "ITEM"), into=_into(o))
        sets = _read_sets(out, o, rid_back=False)
        if out.items is not None and "NUMITEMS" in o:
            sets["NUMITEMS"] = out.items
        return out, sets
    if cmd == "DELETEQ TS":
        return res.ts.deleteq(name), {}
    if cmd == "WRITEQ TD":
        return res.td.writeq(name, _data(o)), {}
    if cmd == "READQ TD":
        out = res.td.readq(name, into=_into(o))
        return out, _read_sets(out, o, rid_back=False)
    assert cmd == "DELETEQ TD"
    return res.td.deleteq(name), {}


def _counter(res: Resources, cmd: str, o: Options) -> tuple[Result, dict[str, object]]:
    verb, word = cmd.split()
    wide = word == "DCOUNTER"
    name = o.get(word, b"")
    pool = o.get("POOL", b"")
    assert isinstance(name, bytes | str) and isinstance(pool, bytes | str)

    def num(option: str) -> int | None:
        value = _int(o, option)
        return value + 2**64 if wide and value is not None and value < 0 else value

    c = res.counters
    if verb == "DEFINE":
        return c.define(
            name, pool=pool, wide=wide, value=num("VALUE"), minimum=num("MINIMUM"), maximum=num("MAXIMUM")
        ), {}
    if verb == "GET":
        out = c.get(name, pool=pool, wide=wide, increment=num("INCREMENT") or 1, wrap=bool(o.get("WRAP")),
                    reduce=bool(o.get("REDUCE")), comparemin=num("COMPAREMIN"),
                    comparemax=num("COMPAREMAX"))  # fmt: skip
        return out, ({"VALUE": out.number} if out.ok else {})
    if verb == "PUT":
        return c.put(name, pool=pool, wide=wide, increment=num("INCREMENT") or 1, reduce=bool(o.get("REDUCE"))), {}
    if verb == "UPDATE":
        value = num("VALUE")
        assert value is not None
        return c.update(name, value, pool=pool, wide=wide, comparemin=num("COMPAREMIN"),
                        comparemax=num("COMPAREMAX")), {}  # fmt: skip
    if verb == "QUERY":
        out = c.query(name, pool=pool, wide=wide)
        found = {"VALUE": out.number, "MINIMUM": out.minimum, "MAXIMUM": out.maximum}
        return out, ({k: v for k, v in found.items() if k in o} if out.ok else {})
    if verb == "REWIND":
        return c.rewind(name, pool=pool, wide=wide, increment=num("INCREMENT") or 1), {}
    assert verb == "DELETE"
    return c.delete(name, pool=pool, wide=wide), {}


_FILES = ("READ", "READNEXT", "READPREV", "WRITE", "REWRITE", "DELETE", "UNLOCK", "STARTBR", "RESETBR", "ENDBR")
_QUEUES = ("WRITEQ TS", "READQ TS", "DELETEQ TS", "WRITEQ TD", "READQ TD", "DELETEQ TD")
_COUNTERS = tuple(f"{v} {w}" for w in ("COUNTER", "DCOUNTER") for v in ("DEFINE", "GET", "PUT", "UPDATE", "QUERY",
                                                                          "REWIND", "DELETE"))  # fmt: skip
COMMANDS = frozenset(_FILES + _QUEUES + _COUNTERS)


def run(res: Resources, command: str, options: Options) -> tuple[Result, dict[str, object]]:
    """Command ``command`` with its decoded ``options``: its RESP/RESP2 and the options to set."""
    if command in _FILES:
        return _file(res, command, options)
    if command in _QUEUES:
        return _queue(res, command, options)
    if command in _COUNTERS:
        return _counter(res, command, options)
    raise ValueError(f"{command} is not a resource command (those are: {', '.join(sorted(COMMANDS))})")

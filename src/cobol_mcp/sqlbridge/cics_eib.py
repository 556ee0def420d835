"""What the CICSRT runtime reads and writes besides the resources: the command's descriptor, the EIB,
the HANDLE table and the abend codes of unhandled conditions.

A translated command's ``CALL 'CICSRT'`` passes the EIB, then its descriptor (text such as
``43;READ;FILE();INTO();RIDFLD();GTEQ;RESP()``, see :mod:`..cobol.precompile.cics_generate`), then one
parameter per ``OPT()``. :func:`parse_descriptor` reads the descriptor; :func:`decode` turns the
parameters into the options :func:`..db.cics.dispatch.run` takes (names and areas it reads as bytes,
an area it fills as its size, numbers, ``S9(18) COMP-5``, as ints, flags as True); :func:`encode_number`
writes a number back. :class:`Eib` sets the fields of ``DFHEIBLK`` at the offsets of the translator's
copybook (:data:`..cobol.precompile.cics_books.EIB_SIZE` bytes): EIBDATE and EIBTIME in CICS's packed
``0CYYDDD`` and ``0HHMMSS`` (the task's start, until ASKTIME), EIBCALEN, EIBFN, EIBRESP/EIBRESP2,
EIBTRNID, EIBTASKN, EIBTRMID, DFHEIGDI.
:class:`Handles` is HANDLE CONDITION / IGNORE CONDITION / PUSH / POP HANDLE for one program level, and
:data:`ABCODES` the abend code CICS gives a task whose condition nothing handles.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from ..cobol.precompile.cics_table import COMMANDS, CONDITIONS, OptionKind, option_kind

__all__ = [
    "ABCODES",
    "COMMANDS_EIBFN",
    "DEFAULT_IGNORED",
    "EIB_SIZE",
    "Descriptor",
    "Eib",
    "Handles",
    "decode",
    "encode_number",
    "option_kinds",
    "parse_descriptor",
    "store",
]

# The abend code of a condition raised with no RESP, NOHANDLE or active HANDLE label (IBM: the AEIx and
# AEYx transaction abend codes of the EXEC interface).
ABCODES = {
    "ERROR": "AEIA", "RDATT": "AEIB", "WRBRK": "AEIC", "EOF": "AEID", "EODS": "AEIE", "EOC": "AEIF",
    "INBFMH": "AEIG", "ENDINPT": "AEIH", "NONVAL": "AEII", "NOSTART": "AEIJ", "TERMIDERR": "AEIK",
    "FILENOTFOUND": "AEIL", "DSIDERR": "AEIL", "NOTFND": "AEIM", "DUPREC": "AEIN", "DUPKEY": "AEIO",
    "INVREQ": "AEIP", "IOERR": "AEIQ", "NOSPACE": "AEIR", "NOTOPEN": "AEIS", "ENDFILE": "AEIT",
    "ILLOGIC": "AEIU", "LENGERR": "AEIV", "QZERO": "AEIW", "ITEMERR": "AEIZ", "PGMIDERR": "AEI0",
    "TRANSIDERR": "AEI1", "ENDDATA": "AEI2", "INVTSREQ": "AEI3", "EXPIRED": "AEI4", "TSIOERR": "AEI8",
    "MAPFAIL": "AEI9", "QIDERR": "AEYH", "NOTAUTH": "AEY7", "SYSIDERR": "AEYQ", "ENVDEFERR": "AEYT",
    "NOTALLOC": "AEYY",
    "END": "AEXK", "CONTAINERERR": "AEZJ", "TOKENERR": "AEZL", "CHANNELERR": "AEZV", "CCSIDERR": "AEZW",
    "CODEPAGEERR": "AEZY",
}  # fmt: skip
# Conditions whose default action is to carry on, not to abend (ENQBUSY: the task would have waited)
DEFAULT_IGNORED = frozenset({"ENQBUSY", "EXPIRED"})
_NAMES = {value: name for name, value in reversed(CONDITIONS.items())}  # RESP -> its first name
_ALL_NAMES: dict[int, list[str]] = {}
for _name, _value in CONDITIONS.items():
    _ALL_NAMES.setdefault(_value, []).append(_name)
_COMMON = {"RESP": option_kind("f<"), "RESP2": option_kind("f<"), "NOHANDLE": option_kind("")}
EIB_SIZE = 85
COMMANDS_EIBFN = {name: command.eibfn for name, command in COMMANDS.items()}  # EIBFN, by command


@dataclass
class Descriptor:
    line: int
    command: str
    options: list[tuple[str, int | None, bool]] = field(default_factory=list)  # (name, label, has a parameter)
    # how :func:`decode` reads the parameters, worked out at its first use: (name, how, index) per option,
    # each parameter's index by option, their count
    plan: tuple[tuple[tuple[str, int, int], ...], dict[str, int], int] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def given(self) -> set[str]:
        return {name for name, _, _ in self.options}


_PARSED: dict[bytes, Descriptor] = {}  # a command's descriptor is a constant of its program: parsed once
_PARSED_MOST = 4096


def parse_descriptor(raw: bytes) -> Descriptor:
    """The descriptor's text (blanks after it ignored); ValueError when it is not one. Parsed once: the same
    text gives the same :class:`Descriptor`, which nobody changes."""
    found = _PARSED.get(raw)
    if found is None:
        found = _parse(raw)
        if len(_PARSED) >= _PARSED_MOST:
            _PARSED.clear()
        _PARSED[raw] = found
    return found


def _parse(raw: bytes) -> Descriptor:
    parts = raw.decode("latin-1").rstrip(" \0").split(";")
    if len(parts) < 2 or not parts[0].isdigit() or parts[1] not in COMMANDS:
        raise ValueError(f"not a CICS command descriptor: {raw[:60]!r}")
    found = Descriptor(int(parts[0]), parts[1])
    for part in parts[2:]:
        if part.endswith("()"):
            found.options.append((part[:-2], None, True))
        elif part.endswith(")") and "(" in part:
            name, _, label = part[:-1].partition("(")
            found.options.append((name, int(label), False))
        else:
            found.options.append((part, None, False))
    return found


def option_kinds(command: str) -> dict[str, OptionKind]:
    return {**COMMANDS[command].options, **_COMMON}


_FLAG, _SKIP, _NUMBER, _SIZE, _BYTES = range(5)  # how an option is decoded (Descriptor.steps)


def _plan(desc: Descriptor) -> tuple[tuple[tuple[str, int, int], ...], dict[str, int], int]:
    """Each option's way of being decoded, worked out once per descriptor."""
    kinds = option_kinds(desc.command)
    steps: list[tuple[str, int, int]] = []
    where: dict[str, int] = {}
    index = 0
    for name, _, has_param in desc.options:
        if not has_param:
            steps.append((name, _FLAG, -1))
            continue
        where[name] = index
        kind = kinds.get(name)
        if kind is None:
            how = _SKIP
        elif kind.numeric:
            how = _NUMBER
        elif kind.code == "a" and not kind.reads:
            how = _SIZE
        else:
            how = _BYTES  # a name or an area read (n, x, a), or a pointer: passed as its bytes
        steps.append((name, how, index))
        index += 1
    return tuple(steps), where, index


def decode(desc: Descriptor, params: list[bytes]) -> tuple[dict[str, object], dict[str, int]]:
    """The options as :func:`..db.cics.dispatch.run` takes them, and each parameter option's index in ``params``
    (the descriptor's own: read it, do not change it)."""
    plan = desc.plan
    if plan is None:
        plan = desc.plan = _plan(desc)
    steps, where, count = plan
    if count != len(params):
        raise ValueError(f"{desc.command}: {len(params)} parameters for {count} options")
    options: dict[str, object] = {}
    for name, how, index in steps:
        if how == _FLAG:
            options[name] = True
        elif how == _NUMBER:
            options[name] = int.from_bytes(params[index][:8], "little", signed=True)
        elif how == _BYTES:
            options[name] = params[index]
        elif how == _SIZE:
            options[name] = len(params[index])
    return options, where


def encode_number(value: int) -> bytes:
    """A number as the translator's ``S9(18) COMP-5`` parameter (8 bytes, this machine's order)."""
    return (value & (2**64 - 1)).to_bytes(8, "little")


def store(bufs: list[bytes | bytearray], where: dict[str, int], name: str, value: object) -> None:
    """A value the command sets into its option's parameter in ``bufs`` (the EIB and descriptor first; ``where``:
    :func:`decode`'s indexes): a number as :func:`encode_number`, a name blank-padded, data as far as it goes."""
    index = where.get(name)
    if index is None:
        return
    buf = bufs[index + 2]
    if not isinstance(buf, bytearray):
        buf = bufs[index + 2] = bytearray(buf)
    if isinstance(value, int):
        buf[:8] = encode_number(value)
    elif isinstance(value, str):  # a name CICS gives: blank-padded to its field
        buf[:] = value.encode("latin-1")[: len(buf)].ljust(len(buf))
    elif isinstance(value, bytes | bytearray):  # data read: as far as it goes
        buf[: min(len(buf), len(value))] = bytes(value)[: len(buf)]


def _packed(value: int) -> bytes:
    """S9(7) COMP-3: 7 digits and the sign nibble (C)."""
    digits = f"{value:07d}"
    nibbles = [int(d) for d in digits] + [0xC]
    return bytes((nibbles[i] << 4) | nibbles[i + 1] for i in range(0, 8, 2))


class Eib:
    """The fields of a DFHEIBLK the runtime sets (offsets of :mod:`..cobol.precompile.cics_books`).

    EIBTIME and EIBDATE are the task's start (IBM: they "initially contain the date and time when the task
    started"), until :meth:`stamp` gives them another moment (ASKTIME updates them); they, EIBTRNID,
    EIBTASKN and EIBTRMID are packed once, not at every command."""

    def __init__(self, calen: int, task: int, trnid: str = "CMCP", trmid: str = "    ") -> None:
        self.calen, self.task, self.trnid, self.trmid = calen, task, trnid, trmid
        self.now = datetime.datetime.now()
        self._head: tuple[datetime.datetime, int, str, str, bytes] | None = None

    def stamp(self, now: datetime.datetime) -> None:
        """EIBTIME and EIBDATE from now on: ``now`` (ASKTIME's moment)."""
        self.now = now

    def head(self) -> bytes:
        """EIBTIME, EIBDATE, EIBTRNID, EIBTASKN and EIBTRMID (bytes 0-19), packed when one of them changed."""
        head = self._head
        if head is not None and head[0] is self.now and head[1] == self.task and head[2] == self.trnid \
                and head[3] == self.trmid:  # fmt: skip
            return head[4]
        now = self.now
        century = now.year // 100 - 19
        packed = b"".join((
            _packed(now.hour * 10000 + now.minute * 100 + now.second),
            _packed(century * 100000 + (now.year % 100) * 1000 + now.timetuple().tm_yday),
            self.trnid.encode("latin-1")[:4].ljust(4),
            _packed(self.task % 10_000_000),
            self.trmid.encode("latin-1")[:4].ljust(4),
        ))  # fmt: skip
        self._head = (now, self.task, self.trnid, self.trmid, packed)
        return packed

    def fill(self, eib: bytes, *, fn: int = 0, resp: int = 0, resp2: int = 0, answer: int = 0) -> bytes:
        buf = bytearray(eib[:EIB_SIZE].ljust(EIB_SIZE, b"\0"))
        self.put(buf, fn=fn, resp=resp, resp2=resp2, answer=answer)
        return bytes(buf) + eib[EIB_SIZE:]

    def put(self, buf: bytearray, *, fn: int = 0, resp: int = 0, resp2: int = 0, answer: int = 0) -> None:
        """:meth:`fill` in place, on an EIB of at least :data:`EIB_SIZE` bytes."""
        buf[0:20] = self.head()
        buf[20:22] = answer.to_bytes(2, "big", signed=True)
        buf[24:26] = min(self.calen, 32767).to_bytes(2, "big", signed=True)
        buf[27:29] = fn.to_bytes(2, "big")
        buf[76:80] = resp.to_bytes(4, "big", signed=True)
        buf[80:84] = resp2.to_bytes(4, "big", signed=True)


IGNORED = 0  # a condition IGNOREd: carry on


@dataclass
class Handles:
    """HANDLE CONDITION labels (index > 0), IGNORE CONDITION (0), PUSH/POP HANDLE: one program level's."""

    active: dict[str, int] = field(default_factory=dict)
    pushed: list[dict[str, int]] = field(default_factory=list)

    def handle(self, desc: Descriptor) -> None:
        for name, label, _ in desc.options:
            if name in _COMMON:
                continue
            if label is None:
                self.active.pop(name, None)  # a condition alone: back to CICS's default action
            else:
                self.active[name] = label

    def ignore(self, desc: Descriptor) -> None:
        for name, _, _ in desc.options:
            if name not in _COMMON:
                self.active[name] = IGNORED

    def push(self) -> None:
        self.pushed.append(dict(self.active))
        self.active = {}

    def pop(self) -> bool:
        if not self.pushed:
            return False
        self.active = self.pushed.pop()
        return True

    def route(self, resp: int) -> int | str:
        """The label index a raised condition goes to, 0 to carry on, or the abend code (str)."""
        for name in _ALL_NAMES.get(resp, []):
            if name in self.active:
                return self.active[name]
        name = _NAMES.get(resp, "ERROR")
        if "ERROR" in self.active:  # HANDLE CONDITION ERROR: every condition without its own label
            return self.active["ERROR"]
        if name in DEFAULT_IGNORED:
            return IGNORED
        return ABCODES.get(name, "AEIP")

    @staticmethod
    def name(resp: int) -> str:
        return _NAMES.get(resp, str(resp))

"""Channels and containers of one CICS task: PUT, GET, MOVE and DELETE CONTAINER, the container browse,
the current channel a LINK or XCTL passes, and ASSIGN CHANNEL.

Written from IBM's CICS command reference and its description of channel scope. A channel is a set of
named containers (1-16 characters, blank-padded, case kept), each holding bytes and whether they are
BIT or CHAR data (kept, never converted). Every program level (the tool's program, then each LINKed
or XCTLed one) has a :class:`Scope`: its current channel (the one it was given: for the tool's program
the tool's channel, if it is a channel-style tool; for a LINKed one the channel named on the LINK, or
none) and the channels it created by naming them on PUT CONTAINER, MOVE CONTAINER TOCHANNEL or LINK
CHANNEL. A level sees those channels only; the channels it created go when it returns, and a channel
passed on a LINK is the caller's own object, so what the callee PUTs is there when it returns.

Containers are not recoverable resources on CICS: they are not part of the unit of work (SYNCPOINT
ROLLBACK does not take a PUT back) and simply vanish when the task ends.

The conditions, with CICS's RESP2 values: CHANNELERR 1 (a name CICS would not take), 2 (no such
channel in the program's scope); CONTAINERERR 10 (no such container), 18 (a container name CICS
would not take); INVREQ 4 (no CHANNEL given and the program has no current channel); LENGERR 11 (GET
INTO: the container holds more than FLENGTH or the INTO area; the data is cut, FLENGTH says the
container's length), 1 (PUT with a negative FLENGTH); END 2 and TOKENERR 3 for the browse.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from ..db.cics.result import Result

__all__ = ["COMMANDS", "Channel", "ChannelNotServed", "Channels", "Container", "Scope", "valid_name"]

COMMANDS = frozenset({
    "PUT CONTAINER", "GET CONTAINER", "MOVE CONTAINER", "DELETE CONTAINER", "STARTBROWSE CONTAINER",
    "GETNEXT CONTAINER", "ENDBROWSE CONTAINER",
})  # fmt: skip

# The characters IBM allows in a channel or container name (no leading or embedded blanks).
_NAME = re.compile(r"[A-Za-z0-9$@#/%&?!:|\"=¬,;<>.\-_]{1,16}")
_CHANNELERR, _CONTAINERERR, _INVREQ, _LENGERR, _END, _TOKENERR = 122, 110, 16, 22, 83, 112


class ChannelNotServed(Exception):
    """An option this runtime does not carry: the call fails saying so."""


def valid_name(name: str) -> bool:
    """Whether CICS takes ``name`` (trailing blanks dropped) as a channel or container name."""
    return _NAME.fullmatch(name) is not None


@dataclass
class Container:
    data: bytes
    char: bool = False  # PUT … CHAR (DATATYPE CHAR): kept as given, never converted


@dataclass
class Channel:
    name: str
    containers: dict[str, Container] = field(default_factory=dict)


@dataclass
class Scope:
    """One program level's channels: its current channel and those it created."""

    current: Channel | None = None
    created: dict[str, Channel] = field(default_factory=dict)

    def find(self, name: str) -> Channel | None:
        if self.current is not None and self.current.name == name:
            return self.current
        return self.created.get(name)

    def make(self, name: str) -> Channel:
        found = self.find(name)
        if found is None:
            found = self.created[name] = Channel(name)
        return found


def _name(raw: object) -> str:
    text = raw.decode("latin-1") if isinstance(raw, bytes) else str(raw or "")
    return text.rstrip(" \0")


_TOKENS = itertools.count(1)


class Channels:
    """The channels of one task, a :class:`Scope` per program level (see the module)."""

    def __init__(self, current: Channel | None = None) -> None:
        top = Scope(current, {})
        self.scopes = [top]
        self.passed: Channel | None = None  # the channel the LINK or XCTL being started passes
        self.browses: dict[int, tuple[Channel, list[str]]] = {}

    @property
    def scope(self) -> Scope:
        return self.scopes[-1]

    def current_name(self) -> str:
        """ASSIGN CHANNEL: the current channel's name (blanks: none)."""
        current = self.scope.current
        return current.name if current is not None else ""

    def link(self, options: dict[str, object]) -> Result:
        """LINK or XCTL, before the program is called: the channel it passes (made, empty, when the
        program has none of that name), or CHANNELERR 1 for a name CICS would not take."""
        self.passed = None
        if "CHANNEL" not in options:
            return Result()
        name = _name(options["CHANNEL"])
        if not valid_name(name):
            return Result(_CHANNELERR, 1)
        self.passed = self.scope.make(name)
        return Result()

    def enter(self) -> None:
        """A LINKed or XCTLed program starts: its current channel the one passed, none created yet."""
        self.scopes.append(Scope(self.passed, {}))
        self.passed = None

    def leave(self) -> None:
        """It returned: the channels it created are gone (the one it was passed stays with its owner)."""
        if len(self.scopes) > 1:
            self.scopes.pop()

    def run(self, command: str, options: dict[str, object]) -> tuple[Result, dict[str, object]]:
        if command == "PUT CONTAINER":
            return self._put(options), {}
        if command == "GET CONTAINER":
            return self._get(options)
        if command == "DELETE CONTAINER":
            return self._delete(options), {}
        if command == "MOVE CONTAINER":
            return self._move(options), {}
        if command == "STARTBROWSE CONTAINER":
            return self._startbrowse(options)
        if command == "GETNEXT CONTAINER":
            return self._getnext(options)
        if command == "ENDBROWSE CONTAINER":
            token = options.get("BROWSETOKEN")
            found = self.browses.pop(token, None) if isinstance(token, int) else None
            return (Result() if found else Result(_TOKENERR, 3)), {}
        raise ValueError(f"not a container command: {command}")

    def _channel(self, options: dict[str, object], option: str = "CHANNEL") -> Channel | Result:
        """The channel an option names (it must be in scope), or the current one when it is not given."""
        if option in options:
            found = self.scope.find(_name(options[option]))
            return found if found is not None else Result(_CHANNELERR, 2)
        if self.scope.current is None:
            return Result(_INVREQ, 4)
        return self.scope.current

    def _put(self, options: dict[str, object]) -> Result:
        if "CHANNEL" in options:
            name = _name(options["CHANNEL"])
            if not valid_name(name):
                return Result(_CHANNELERR, 1)
            channel: Channel | Result = self.scope.make(name)
        else:
            channel = self._channel(options)
        if isinstance(channel, Result):
            return channel
        container = _name(options.get("CONTAINER"))
        if not valid_name(container):
            return Result(_CONTAINERERR, 18)
        data = options.get("FROM", b"")
        assert isinstance(data, bytes)
        length = options.get("FLENGTH")
        if isinstance(length, int):
            if length < 0:
                return Result(_LENGERR, 1)
            data = data[:length]
        old = channel.containers.get(container)
        if "APPEND" in options and old is not None:
            old.data += data
        else:
            channel.containers[container] = Container(data, "CHAR" in options)
        return Result()

    def _get(self, options: dict[str, object]) -> tuple[Result, dict[str, object]]:
        channel = self._channel(options)
        if isinstance(channel, Result):
            return channel, {}
        container = channel.containers.get(_name(options.get("CONTAINER")))
        if container is None:
            return Result(_CONTAINERERR, 10), {}
        data = container.data
        if "SET" in options:  # the data in storage of the runtime's (CicsSession gives it to the worker)
            return Result(), {"SET": data, "FLENGTH": len(data)}
        if "NODATA" in options:
            return Result(), {"FLENGTH": len(data)}
        given = options.get("FLENGTH")
        area = options.get("INTO")
        most = max(0, given) if isinstance(given, int) else area if isinstance(area, int) else len(data)
        sets: dict[str, object] = {"INTO": data[:most], "FLENGTH": len(data)}
        return (Result(_LENGERR, 11) if len(data) > most else Result()), sets

    def _delete(self, options: dict[str, object]) -> Result:
        channel = self._channel(options)
        if isinstance(channel, Result):
            return channel
        if channel.containers.pop(_name(options.get("CONTAINER")), None) is None:
            return Result(_CONTAINERERR, 10)
        return Result()

    def _move(self, options: dict[str, object]) -> Result:
        source = self._channel(options)
        if isinstance(source, Result):
            return source
        if "TOCHANNEL" in options:
            name = _name(options["TOCHANNEL"])
            if not valid_name(name):
                return Result(_CHANNELERR, 1)
            target: Channel | Result = self.scope.make(name)
        else:
            target = self._channel(options, "TOCHANNEL")
        if isinstance(target, Result):
            return target
        new = _name(options.get("AS"))
        if not valid_name(new):
            return Result(_CONTAINERERR, 18)
        moved = source.containers.pop(_name(options.get("CONTAINER")), None)
        if moved is None:
            return Result(_CONTAINERERR, 10)
        target.containers[new] = moved
        return Result()

    def _startbrowse(self, options: dict[str, object]) -> tuple[Result, dict[str, object]]:
        channel = self._channel(options)
        if isinstance(channel, Result):
            return channel, {}
        token = next(_TOKENS)
        self.browses[token] = (channel, list(channel.containers))
        return Result(), {"BROWSETOKEN": token}

    def _getnext(self, options: dict[str, object]) -> tuple[Result, dict[str, object]]:
        token = options.get("BROWSETOKEN")
        browse = self.browses.get(token) if isinstance(token, int) else None
        if browse is None:
            return Result(_TOKENERR, 3), {}
        channel, names = browse
        while names:
            name = names.pop(0)
            if name in channel.containers:  # deleted since the STARTBROWSE: not returned
                return Result(), {"CONTAINER": name}
        return Result(_END, 2), {}

"""The asynchronous API: RUN TRANSID starts a child task at once, FETCH CHILD|ANY waits for its end and its
channel, FREE CHILD lets it go.

Written from IBM's command reference. ``RUN TRANSID(t) [CHANNEL(ch)] CHILD(token)``: ``t`` is looked up as
START looks it up (TRANSIDERR when the folder has no such transaction); the child is a new call of its
program, run by the server at once in a worker and a unit of work of its own (it commits or rolls back alone,
whatever its parent does), with a copy of ``ch`` (CHANNELERR 2 when the parent has none of that name) as its
current channel and EIBCALEN 0; ``token`` is 16 bytes that name it. ``FETCH CHILD(token)`` waits for its end
(``NOSUSPEND``: NOTFINISHED 52 at once; ``TIMEOUT(ms)``: NOTFINISHED 53 when it has not ended by then; INVREQ
241 for a TIMEOUT out of IBM's range) and gives COMPSTATUS (``DFHVALUE(NORMAL)`` or ``DFHVALUE(ABEND)``),
ABCODE (blanks unless it abended) and CHANNEL: the name of its reply channel (the channel current when it
ended), now in the parent's scope; INVREQ 50 for a token that is not a child's (or was FREEd), 51 for one
fetched already. ``FETCH ANY(token)`` does the same for the first child to end that is not fetched (INVREQ 52:
the task has no children; NOTFND 1: all are fetched). ``FREE CHILD(token)``: INVREQ 50 for no such child.
A child still running when its parent ends runs on to its end.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..cobol.precompile.cics_table import DFHVALUES
from ..db.cics.result import Result
from .cics_channels import Channel, Channels, Container, valid_name

__all__ = ["ChildTask", "Children"]

TRANSIDERR, INVREQ, NOTFND, NOTFINISHED, CHANNELERR = 28, 16, 13, 113, 122
MOST_WAIT_MS = {"CHILD": 4_080_000, "ANY": 40_800_000}  # TIMEOUT's largest value (IBM)
_TOKENS = itertools.count(1)


class ChildTask:
    """A child task: what it is given, and once it has ended, how, and its reply channel."""

    def __init__(self, token: bytes, transid: str, program: str, channel: Channel | None) -> None:
        self.token, self.transid, self.program, self.channel = token, transid, program, channel
        self.ended = threading.Event()
        self.ok = True
        self.abcode = ""
        self.reply: Channel | None = None
        self.fetched = False
        self.session: Any = None  # the child's session, once it has started
        self.notify: threading.Condition | None = None  # the parent's: told when the child ends

    @property
    def startcode(self) -> str:
        return "U"

    def finish(self, ok: bool, abcode: str) -> None:
        """The child's call has ended (its unit of work too)."""
        self.ok, self.abcode = ok, abcode if not ok else ""
        channels = getattr(self.session, "channels", None)
        self.reply = channels.scopes[0].current if isinstance(channels, Channels) else None
        self.ended.set()
        if self.notify is not None:
            with self.notify:
                self.notify.notify_all()


def _name(raw: object) -> str:
    return raw.decode("latin-1").rstrip(" \0") if isinstance(raw, bytes) else ""


class Children:
    """One task's children (see the module)."""

    def __init__(self, task_number: int) -> None:
        self.task_number = task_number
        self.by_token: dict[bytes, ChildTask] = {}
        self.changed = threading.Condition()

    def run(
        self, options: Mapping[str, object], transactions: Mapping[str, str], channels: Channels, launch: Any
    ) -> tuple[Result, dict[str, object]]:
        """RUN TRANSID: the child launched (``launch(child)``), its token to set in CHILD."""
        transid = _name(options.get("TRANSID")).upper()
        program = transactions.get(transid)
        if program is None:
            return Result(TRANSIDERR, 0), {}
        given = None
        if "CHANNEL" in options:
            name = _name(options["CHANNEL"])
            found = channels.scope.find(name) if valid_name(name) else None
            if found is None:
                return Result(CHANNELERR, 2), {}
            given = Channel(found.name, {k: Container(c.data, c.char) for k, c in found.containers.items()})
        token = self.task_number.to_bytes(8, "big") + next(_TOKENS).to_bytes(8, "big")
        child = self.by_token[token] = ChildTask(token, transid, program, given)
        child.notify = self.changed
        launch(child)
        return Result(), {"CHILD": token}

    def fetch(
        self, options: Mapping[str, object], channels: Channels, stop: threading.Event
    ) -> tuple[Result, dict[str, object]]:
        """FETCH CHILD or FETCH ANY: waits as the options say (``stop``: the call is ending)."""
        which = "CHILD" if "CHILD" in options else "ANY"
        timeout = options.get("TIMEOUT")
        if isinstance(timeout, int) and not 0 <= timeout <= MOST_WAIT_MS[which]:
            return Result(INVREQ, 241), {}
        wait = None if not isinstance(timeout, int) or timeout == 0 else timeout / 1000
        if which == "CHILD":
            raw = options.get("CHILD")
            child = self.by_token.get(raw[:16] if isinstance(raw, bytes) else b"")
            if child is None:
                return Result(INVREQ, 50), {}
            if child.fetched:
                return Result(INVREQ, 51), {}
            found = self._wait(lambda: child if child.ended.is_set() else None, options, wait, stop)
        else:
            if not self.by_token:
                return Result(INVREQ, 52), {}
            if all(c.fetched for c in self.by_token.values()):
                return Result(NOTFND, 1), {}
            found = self._wait(self._any_ended, options, wait, stop)
        if isinstance(found, Result):
            return found, {}
        found.fetched = True
        sets: dict[str, object] = {
            "COMPSTATUS": DFHVALUES["NORMAL"] if found.ok else DFHVALUES["ABEND"],
            "ABCODE": found.abcode,
            "CHANNEL": "",
        }
        if found.reply is not None:  # in the parent's scope, under a name of its own
            name = f"DFHCHILD{int.from_bytes(found.token[8:], 'big'):08d}"[:16]
            channels.scope.created[name] = Channel(name, found.reply.containers)
            sets["CHANNEL"] = name
        if which == "ANY":
            sets["ANY"] = found.token
        return Result(), sets

    def _any_ended(self) -> ChildTask | None:
        return next((c for c in self.by_token.values() if not c.fetched and c.ended.is_set()), None)

    def _wait(
        self, ready: Callable[[], ChildTask | None], options: Mapping[str, object], wait: float | None,
        stop: threading.Event,
    ) -> ChildTask | Result:  # fmt: skip
        deadline = None if wait is None else time.monotonic() + wait
        with self.changed:
            found = ready()
            if found is None and "NOSUSPEND" in options:
                return Result(NOTFINISHED, 52)
            while found is None:
                if stop.is_set():
                    raise InterruptedError("the call ended while FETCH waited for a child")
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return Result(NOTFINISHED, 53)
                self.changed.wait(0.5 if left is None else min(0.5, left))  # a child's end wakes it at once
                found = ready()
            return found

    def free(self, options: Mapping[str, object]) -> Result:
        raw = options.get("CHILD")
        token = raw[:16] if isinstance(raw, bytes) else b""
        if self.by_token.pop(token, None) is None:
            return Result(INVREQ, 50)
        return Result()

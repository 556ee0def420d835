"""A minimal reader loop over `select.poll`, shaped like asyncio's add_reader/remove_reader.

The COBOL runtime registers its worker pipes through this two-method interface, so the same
runtime runs under the stdio loop (this class) and under asyncio (the HTTP transport). It calls
poll directly rather than through `selectors`: the stdio server polls between every message, and
the selectors layer cost more than the system call itself. poll, not epoll: epoll refuses regular
files and /dev/null, which stdin may well be.
"""

from __future__ import annotations

import math
import select
from collections.abc import Callable

READABLE = select.POLLIN | select.POLLPRI
LONGEST_WAIT_MS = 2**31 - 1


class SelectLoop:
    def __init__(self) -> None:
        self._poll = select.poll()
        self._callbacks: dict[int, Callable[[], object]] = {}

    def add_reader(self, fd: int, callback: Callable[[], object]) -> None:
        if fd in self._callbacks:
            raise KeyError(f"fd {fd} is already registered")
        self._poll.register(fd, READABLE)
        self._callbacks[fd] = callback

    def remove_reader(self, fd: int) -> bool:
        if self._callbacks.pop(fd, None) is None:
            return False
        self._poll.unregister(fd)
        return True

    def run_once(self, timeout: float | None) -> None:
        """Wait up to `timeout` seconds (None: forever) and run the callbacks of ready fds."""
        if timeout is None:
            ready = self._poll.poll()
        else:
            ready = self._poll.poll(min(max(0, math.ceil(timeout * 1000)), LONGEST_WAIT_MS))
        callbacks = self._callbacks
        for fd, _ in ready:
            callback = callbacks.get(fd)  # an earlier callback may have removed it
            if callback is not None:
                callback()

    def close(self) -> None:
        for fd in list(self._callbacks):
            self.remove_reader(fd)

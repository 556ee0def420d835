"""A minimal reader/writer loop over `select.poll`, shaped like asyncio's add_reader/add_writer.

The COBOL runtime registers its worker pipes through the reader half of this interface, so the same
runtime runs under the stdio loop (this class) and under asyncio (the HTTP transport). It calls
poll directly rather than through `selectors`: the stdio server polls between every message, and
the selectors layer cost more than the system call itself. poll, not epoll: epoll refuses regular
files and /dev/null, which stdin may well be.
"""

from __future__ import annotations

import select
from collections.abc import Callable

READ_EVENTS = select.POLLIN | select.POLLPRI
WRITE_EVENTS = select.POLLOUT
LONGEST_WAIT_MS = 2**31 - 1


class SelectLoop:
    def __init__(self) -> None:
        self._poll = select.poll()
        self._readers: dict[int, Callable[[], object]] = {}
        self._writers: dict[int, Callable[[], object]] = {}

    def add_reader(self, fd: int, callback: Callable[[], object]) -> None:
        if fd in self._readers:
            raise KeyError(f"fd {fd} already has a reader")
        self._readers[fd] = callback
        self._register(fd)

    def remove_reader(self, fd: int) -> bool:
        if self._readers.pop(fd, None) is None:
            return False
        self._register(fd)
        return True

    def add_writer(self, fd: int, callback: Callable[[], object]) -> None:
        """Call `callback` while `fd` can take a write (POLLOUT: a pipe takes PIPE_BUF bytes at once)."""
        self._writers[fd] = callback
        self._register(fd)

    def remove_writer(self, fd: int) -> bool:
        if self._writers.pop(fd, None) is None:
            return False
        self._register(fd)
        return True

    def _register(self, fd: int) -> None:
        events = (READ_EVENTS if fd in self._readers else 0) | (WRITE_EVENTS if fd in self._writers else 0)
        if events:
            self._poll.register(fd, events)  # registering again replaces the mask
        else:
            self._poll.unregister(fd)

    def run_once(self, timeout: float | None) -> None:
        """Wait up to `timeout` seconds (None: forever) and run the callbacks of ready fds."""
        if timeout is None:
            ready = self._poll.poll()
        else:
            ready = self._poll.poll(min(max(0, -int(-timeout * 1000 // 1)), LONGEST_WAIT_MS))  # ms, rounded up
        readers, writers = self._readers, self._writers
        for fd, events in ready:
            if events & ~WRITE_EVENTS:  # readable, or hung up / in error: reading tells which
                callback = readers.get(fd)  # an earlier callback may have removed it
                if callback is not None:
                    callback()
            if events & (WRITE_EVENTS | select.POLLERR | select.POLLHUP):
                callback = writers.get(fd)
                if callback is not None:
                    callback()

    def close(self) -> None:
        for fd in list(self._readers):
            self.remove_reader(fd)
        for fd in list(self._writers):
            self.remove_writer(fd)

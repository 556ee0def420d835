"""A minimal reader loop over `selectors`, shaped like asyncio's add_reader/remove_reader.

The COBOL runtime registers its worker pipes through this two-method interface, so the same
runtime runs under the stdio loop (this class) and under asyncio (the HTTP transport).
"""

from __future__ import annotations

import selectors
from collections.abc import Callable


class SelectLoop:
    def __init__(self) -> None:
        # poll, not epoll: epoll refuses regular files and /dev/null, which stdin may well be
        self._selector = selectors.PollSelector() if hasattr(selectors, "PollSelector") else selectors.SelectSelector()

    def add_reader(self, fd: int, callback: Callable[[], object]) -> None:
        self._selector.register(fd, selectors.EVENT_READ, callback)

    def remove_reader(self, fd: int) -> bool:
        try:
            self._selector.unregister(fd)
        except (KeyError, ValueError):
            return False
        return True

    def run_once(self, timeout: float | None) -> None:
        """Wait up to `timeout` seconds (None: forever) and run the callbacks of ready fds."""
        for key, _ in self._selector.select(timeout):
            key.data()

    def close(self) -> None:
        self._selector.close()

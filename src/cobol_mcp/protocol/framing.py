"""Newline-delimited framing with a hard bound on memory.

A line longer than the limit is never held whole: once the buffered part of a line passes the
limit, the buffer is dropped and the rest of that line is skipped as it streams in. The caller
gets an :class:`Oversize` marker in the line's place (carrying the line's first bytes, so an id can
still be recovered for the error reply).
"""

from __future__ import annotations

HEAD_KEPT = 256  # bytes of an oversize line kept for recovering its id


class Oversize:
    """Stands in for a line over the limit: its first bytes and how long it was."""

    __slots__ = ("head", "size")

    def __init__(self, head: bytes, size: int) -> None:
        self.head = head
        self.size = size


class LineBuffer:
    """Feed bytes in, get complete lines (without the newline, a trailing CR removed) out."""

    def __init__(self, max_line_bytes: int) -> None:
        self.max_line_bytes = max_line_bytes
        self._partial = bytearray()
        self._skipping: int | None = None  # bytes of the oversize line seen so far
        self._head = b""

    def feed(self, data: bytes) -> list[bytes | Oversize]:
        first = data.find(b"\n")
        if first < 0:
            self._keep(data, 0)
            return []
        out: list[bytes | Oversize] = []
        start = 0
        if self._skipping is not None:
            out.append(Oversize(self._head, self._skipping + first))
            self._skipping = None
            self._head = b""
            start = first + 1
        elif self._partial:
            self._partial += data[:first]
            line = bytes(self._partial)
            self._partial.clear()
            out.append(self._complete(line))
            start = first + 1
        last = data.rfind(b"\n")
        if start <= last:  # the complete lines after the first: split at once, checked only if they may need it
            body = data[start:last]
            lines = body.split(b"\n")
            if len(body) > self.max_line_bytes or b"\r" in body:
                out += [self._complete(line) for line in lines]
            else:
                out += lines
        self._keep(data, last + 1)
        return out

    def _keep(self, data: bytes, start: int) -> None:
        rest = len(data) - start
        if not rest:
            return
        if self._skipping is not None:
            self._skipping += rest
            return
        if len(self._partial) + rest > self.max_line_bytes + 1:  # +1: a CR may still be stripped
            self._head = (bytes(self._partial) + data[start : start + HEAD_KEPT])[:HEAD_KEPT]
            self._skipping = len(self._partial) + rest
            self._partial.clear()
            return
        self._partial += data[start:] if start else data

    @property
    def buffered(self) -> int:
        """Bytes held for an unfinished line (bounded by the limit)."""
        return len(self._partial)

    def finish(self) -> list[bytes | Oversize]:
        """At EOF: an unterminated last line still counts as a message."""
        if self._skipping is not None:
            out: list[bytes | Oversize] = [Oversize(self._head, self._skipping)]
            self._skipping = None
            return out
        if self._partial:
            line = bytes(self._partial)
            self._partial.clear()
            return [self._complete(line)]
        return []

    def _complete(self, line: bytes) -> bytes | Oversize:
        if line.endswith(b"\r"):
            line = line[:-1]
        return line if len(line) <= self.max_line_bytes else Oversize(line[:HEAD_KEPT], len(line))

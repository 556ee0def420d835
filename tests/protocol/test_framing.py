from hypothesis import given, settings
from hypothesis import strategies as st

from cobol_mcp.protocol.framing import LineBuffer, Oversize


def test_lines_split_across_chunks_and_crlf():
    buf = LineBuffer(100)
    assert buf.feed(b'{"a":1}\n{"b"') == [b'{"a":1}']
    assert buf.feed(b":2}\r\n\n") == [b'{"b":2}', b""]
    assert buf.buffered == 0


def test_many_lines_in_one_chunk():
    buf = LineBuffer(100)
    assert buf.feed(b"1\n2\n3\n") == [b"1", b"2", b"3"]


def test_oversize_line_is_skipped_while_streaming_and_never_held():
    buf = LineBuffer(10)
    assert buf.feed(b'{"id":7,') == []
    assert buf.feed(b"x" * 1000) == []
    assert buf.buffered == 0  # nothing of the oversize line is held
    out = buf.feed(b"yyy\nok\n")
    assert isinstance(out[0], Oversize)
    assert out[0].head.startswith(b'{"id":7,')
    assert out[0].size == 8 + 1000 + 3
    assert out[1] == b"ok"


def test_oversize_line_in_a_single_chunk():
    buf = LineBuffer(4)
    out = buf.feed(b"123456\n1234\n")
    assert isinstance(out[0], Oversize) and out[0].size == 6
    assert out[1] == b"1234"


def test_limit_counts_content_not_the_cr():
    buf = LineBuffer(4)
    assert buf.feed(b"1234\r\n") == [b"1234"]


def test_finish_returns_unterminated_last_line():
    buf = LineBuffer(100)
    assert buf.feed(b'{"x":1}') == []
    assert buf.finish() == [b'{"x":1}']
    assert buf.finish() == []


def test_finish_reports_unterminated_oversize_line():
    buf = LineBuffer(3)
    buf.feed(b"abcdef")
    (out,) = buf.finish()
    assert isinstance(out, Oversize) and out.size == 6


def reference_lines(stream: bytes, limit: int) -> list[object]:
    """What the framer must give for a whole stream, however it is cut: each newline-ended line, CR
    dropped, a line over the limit as an Oversize (its size counted with or without the CR)."""
    out: list[object] = []
    for raw in stream.split(b"\n")[:-1]:
        line = raw[:-1] if raw.endswith(b"\r") else raw
        out.append(("oversize", {len(line), len(raw)}) if len(line) > limit else line)
    return out


def framed(chunks: list[bytes], limit: int) -> list[object]:
    buf = LineBuffer(limit)
    out: list[object] = []
    for chunk in chunks:
        out += buf.feed(chunk)
    return [("oversize", item.size) if isinstance(item, Oversize) else item for item in out]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from([b"", b"x", b"{}", b"\r", b"\n", b"\r\n", b"abcdefghij", b"\n\n"]), max_size=40),
    st.lists(st.integers(0, 60), max_size=8),
    st.integers(1, 12),
)
def test_any_cutting_of_a_stream_gives_the_same_lines(pieces, cuts, limit):
    """Lines split at once within a chunk, or carried across chunks, come out the same."""
    stream = b"".join(pieces)
    points = sorted({min(c, len(stream)) for c in cuts})
    chunks = [stream[a:b] for a, b in zip([0, *points], [*points, len(stream)], strict=True)]
    got, expected = framed(chunks, limit), reference_lines(stream, limit)
    assert len(got) == len(expected)
    for item, want in zip(got, expected, strict=True):
        if isinstance(want, tuple):
            assert isinstance(item, tuple) and item[1] in want[1]
        else:
            assert item == want

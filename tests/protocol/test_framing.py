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

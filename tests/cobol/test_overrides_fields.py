"""cobol-mcp.toml's field keys that change what a value is: ``bytes`` (hex or base64), ``keep-trailing-spaces``
and ``view`` (which REDEFINES definition is shown). TRMMASK masks a card number with CBL_XOR: its answers
are checked against the same masking done in Python, and every mistake in the file is named with its line."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol.linkage.model import Field
from cobol_mcp.cobol.prepare.overrides import read_overrides
from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.cobol.records.decoders import decoder
from cobol_mcp.cobol.records.encoders import encoder
from cobol_mcp.cobol.records.errors import FieldError
from cobol_mcp.cobol.records.items import decode_scalar
from cobol_mcp.options import Options
from cobol_mcp.server import build_server

from .conftest import call_tool as call
from .conftest import needs_cobc

FOLDER = Path(__file__).parent / "realworld" / "overrides"
TOML = FOLDER / "cobol-mcp.toml"


def line_of(text: str, path: Path = TOML) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if line.strip() == text)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    cache = tmp_path_factory.mktemp("cache")
    server = build_server(Options(programs=[("cards", str(FOLDER))], bundled=False, cache_dir=str(cache)))
    yield server
    server.runtime.close()


def masked(key: bytes, pan: str) -> bytes:
    """The oracle: the PAN XORed with the key repeated to 16 bytes, as CBL_XOR does."""
    return bytes(b ^ (key * 2)[i] for i, b in enumerate(pan.encode("ascii")))


@needs_cobc
def test_bytes_and_views_shape_the_schemas(served: Any) -> None:
    assert served.errors == []
    definition = served.catalog.tool("mask_card").definition()
    props = definition["inputSchema"]["properties"]
    assert props["tm_terminal_key"] == {
        "description": "The 8 bytes as base64 (12 characters), every byte as it is.",
        "type": "string",
        "contentEncoding": "base64",
        "minLength": 12,
        "maxLength": 12,
    }
    assert "tm_pan" not in props  # the view chosen instead of the first definition
    assert list(props["tm_pan_parts"]["properties"]) == ["tm_pan_bin", "tm_pan_middle", "tm_pan_last4"]
    out = definition["outputSchema"]["properties"]
    assert out["tm_masked_pan"]["pattern"] == "^[0-9A-Fa-f]{32}$" and out["tm_masked_pan"]["type"] == "string"
    assert "16 bytes as hex (32 hex digits)" in out["tm_masked_pan"]["description"]
    assert out["tm_key_check"]["contentEncoding"] == "base64"  # a group taken whole as its 3 bytes
    assert "3 bytes" in out["tm_key_check"]["description"] and "properties" not in out["tm_key_check"]
    assert "tm_audit" not in out and set(out["tm_audit_parts"]["properties"]) == {"tm_audit_term", "tm_audit_seq"}
    assert "tm_masked_pan" not in props  # direction = "out" in the file: CBL_XOR alone would make it in/out


@needs_cobc
@pytest.mark.parametrize(
    ("key", "pan"),
    [
        (bytes.fromhex("1B2C3D4E5F607168"), "4532015112830366"),
        (bytes.fromhex("00FF20097F80A520"), "5500000000000004"),  # NUL, controls, a trailing X'20'
        (b"        ", "4111111111111111"),  # a key of spaces masks digits into digits' neighbours
    ],
)
def test_a_round_trip_through_the_masking_program_matches_python(served: Any, key: bytes, pan: str) -> None:
    arguments = {
        "tm_terminal_key": base64.b64encode(key).decode(),
        "tm_terminal_id": "T042",
        "tm_sequence": 1234,
        "tm_pan_parts": {"tm_pan_bin": pan[:6], "tm_pan_middle": pan[6:12], "tm_pan_last4": pan[12:]},
    }
    result = call(served, "mask_card", arguments)
    assert not result.get("isError"), result
    out = result["structuredContent"]
    expected = masked(key, pan)
    assert bytes.fromhex(out["tm_masked_pan"]) == expected
    assert base64.b64decode(out["tm_key_check"]) == expected[:3]
    assert out["tm_receipt_line"] == f"CARD ************{pan[12:]}   "  # 24 bytes: the spaces are kept
    assert out["tm_audit_parts"] == {"tm_audit_term": "T042", "tm_audit_seq": 1234}


@needs_cobc
@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("AAAA", "is 3 bytes; TM-TERMINAL-KEY holds exactly 8 bytes as base64"),
        ("not base64!!", "is not base64"),
        (12, "must be a string (8 bytes as base64 (12 characters)), not a number"),
    ],
)
def test_a_wrong_byte_argument_is_refused_naming_the_field(served: Any, key: Any, says: str) -> None:
    pan = {"tm_pan_bin": "453201", "tm_pan_middle": "511283", "tm_pan_last4": "0366"}
    arguments = {"tm_terminal_key": key, "tm_terminal_id": "T042", "tm_sequence": 1, "tm_pan_parts": pan}
    result = call(served, "mask_card", arguments)
    assert result.get("isError")
    text = result["content"][0]["text"]
    assert "tm_terminal_key" in text and says in text, text


def text_field(size: int, **changes: Any) -> Field:
    return Field("WS-ITEM", "ws_item", 5, 0, size, None, f"X({size})", "display", category="alphanumeric", **changes)


@pytest.mark.parametrize(
    ("encoding", "text", "data"),
    [
        ("hex", "00ff2041", b"\x00\xff A"),
        ("hex", "4142434420", b"ABCD "),  # the trailing space is a byte like any other
        ("base64", "AP8gQQ==", b"\x00\xff A"),
    ],
)
def test_bytes_encode_and_decode_exactly_the_items_size(encoding: str, text: str, data: bytes) -> None:
    f = text_field(len(data), encoding=encoding)
    buf = bytearray(len(data))
    encoder(f, "ws_item")(buf, text, "ws_item", 0)
    assert bytes(buf) == data
    decoded = decoder(f, "ws_item")(bytes(buf), 0, [], "ws_item")
    assert decoded == (text.upper() if encoding == "hex" else text)
    assert decode_scalar(f, data)[0] == decoded


@pytest.mark.parametrize(
    ("encoding", "value", "says"),
    [
        ("hex", "00ff20", "is 3 bytes; WS-ITEM holds exactly 4 bytes as hex (8 hex digits)"),
        ("hex", "00ff20zz", "is not hex"),
        ("hex", "00 ff 20 41", "is not hex"),
        ("base64", "AP8gQUI=", "is 5 bytes; WS-ITEM holds exactly 4 bytes as base64 (8 characters)"),
    ],
)
def test_bytes_refuse_a_wrong_length_or_encoding(encoding: str, value: str, says: str) -> None:
    f = text_field(4, encoding=encoding)
    with pytest.raises(FieldError) as caught:
        encoder(f, "ws_item")(bytearray(4), value, "ws_item", 0)
    assert caught.value.path == "ws_item" and says in str(caught.value)


@pytest.mark.parametrize(
    ("trim", "data", "expected"),
    [
        (None, b"AB\x01  ", "AB\x01  "),  # the default rule: control bytes mean data, kept whole
        (None, b"ABC  ", "ABC"),
        (True, b"AB\x01  ", "AB\x01"),  # keep-trailing-spaces = false: trimmed all the same
        (False, b"ABC  ", "ABC  "),  # keep-trailing-spaces = true
    ],
)
def test_keep_trailing_spaces_rides_on_the_field(trim: bool | None, data: bytes, expected: str) -> None:
    f = text_field(len(data), trim=trim)
    assert decoder(f, "ws_item", trim=f.trim)(data, 0, None, "ws_item") == expected
    assert decode_scalar(f, data)[0] == expected


def copy_folder(tmp_path: Path, toml: str) -> Path:
    folder = tmp_path / "cards"
    shutil.copytree(FOLDER, folder)
    (folder / "cobol-mcp.toml").write_text(toml)
    return folder / "cobol-mcp.toml"


FOLDER_TABLE = '[folder]\ncopybooks = ["lib"]\n'


@pytest.mark.parametrize(
    ("toml", "line", "says"),
    [
        ("[programs.TRMMASK.fields.TM-PAN]\nbytes = 'rot13'\n", 2, 'must be "hex" or "base64"'),
        ("[programs.TRMMASK.fields.TM-PAN]\nkeep-trailing-spaces = 'yes'\n", 2, "must be true or false"),
        ("[programs.TRMMASK.fields.TM-PAN]\nview = 3\n", 2, "must be a string"),
        ("[programs.TRMMASK.fields.TM-PAN]\nbytes = 'hex'\nkeep-trailing-spaces = true\n", 3, "keeps every byte"),
    ],
)
def test_a_wrong_value_names_its_line(tmp_path: Path, toml: str, line: int, says: str) -> None:
    path = copy_folder(tmp_path, toml)
    problem = read_overrides(path.parent).programs["TRMMASK"].problem  # that program only is not served
    assert problem is not None and problem.startswith(f"{path}:{line}: ") and says in problem, problem


@needs_cobc
@pytest.mark.parametrize(
    ("table", "says"),
    [
        (
            "[programs.TRMMASK.fields.TM-SEQUENCE]\nkeep-trailing-spaces = true\n",
            "needs a PIC X item; TM-SEQUENCE is PIC 9(8)",
        ),
        (
            "[programs.TRMMASK.fields.TM-SEQUENCE]\nbytes = 'hex'\n",
            "needs a PIC X item or a group; TM-SEQUENCE is PIC 9(8)",
        ),
        ("[programs.TRMMASK.fields.TM-KEY-CHECK]\nkeep-trailing-spaces = false\n", "TM-KEY-CHECK is a group"),
        ("[programs.TRMMASK.fields.TM-TERMINAL-ID]\nview = 'TM-PAN-PARTS'\n", "no item REDEFINES TM-TERMINAL-ID"),
        (
            "[programs.TRMMASK.fields.TM-PAN]\nview = 'TM-AUDIT-PARTS'\n",
            "not a view of TM-PAN (views: TM-PAN, TM-PAN-PARTS)",
        ),
        ("[programs.TRMMASK.fields.TM-REPLY]\nview = 'TM-AUDIT'\n", "a whole USING record"),
        ("[programs.TRMMASK.fields.TM-TERMINAL-KEY]\nbytes = 'hex'\ndefault = '0011'\n", "is 2 bytes"),
    ],
)
def test_a_key_the_item_cannot_take_is_an_error_and_the_program_is_not_served(
    tmp_path: Path, table: str, says: str
) -> None:
    path = copy_folder(tmp_path, FOLDER_TABLE + table)
    scan = scan_folder(path.parent, cache_dir=tmp_path / "cache")
    assert any(e.startswith(f"{path}:3: ") and says in e for e in scan.errors), scan.errors
    assert "TRMMASK" not in [p.spec.program_id for p in scan.programs]


@needs_cobc
def test_a_hex_default_is_the_items_bytes(tmp_path: Path) -> None:
    table = "[programs.TRMMASK.fields.TM-TERMINAL-KEY]\nbytes = 'hex'\ndefault = '1b2c3d4e5f607168'\n"
    masked_out = "[programs.TRMMASK.fields.TM-MASKED-PAN]\ndirection = 'out'\n"
    path = copy_folder(tmp_path, FOLDER_TABLE + table + masked_out)
    server = build_server(Options(programs=[("cards", str(path.parent))], bundled=False, cache_dir=str(tmp_path)))
    try:
        assert server.errors == []
        schema = server.catalog.tool("trmmask").definition()["inputSchema"]
        assert schema["properties"]["tm_terminal_key"]["default"] == "1B2C3D4E5F607168"
        assert "tm_terminal_key" not in schema["required"]
        result = call(
            server, "trmmask", {"tm_terminal_id": "T1", "tm_sequence": 7, "tm_pan": "4532015112830366", "tm_audit": ""}
        )
        assert not result.get("isError"), result
        masked_pan = result["structuredContent"]["tm_masked_pan"]
        assert masked_pan == masked(bytes.fromhex("1B2C3D4E5F607168"), "4532015112830366").decode("latin-1")
    finally:
        server.runtime.close()


def test_the_file_says_where_each_key_is() -> None:
    found = read_overrides(FOLDER)
    program = found.programs["TRMMASK"]
    assert program.fields["TM-PAN"] == {"view": "TM-PAN-PARTS"}
    assert line_of("[programs.TRMMASK.fields.TM-PAN]") == program.locate.table(
        "programs", "TRMMASK", "fields", "TM-PAN"
    )


ALL_VIEWS = (
    "[programs.TRMMASK.fields.TM-PAN]\nview = 'all'\n[programs.TRMMASK.fields.TM-AUDIT]\nview = 'ALL'\n"
    "[programs.TRMMASK.fields.TM-MASKED-PAN]\nbytes = 'hex'\ndirection = 'out'\n"
)


@pytest.fixture(scope="module")
def every_view(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("views")
    path = copy_folder(root, FOLDER_TABLE + ALL_VIEWS)
    server = build_server(Options(programs=[("cards", str(path.parent))], bundled=False, cache_dir=str(root)))
    yield server
    server.runtime.close()


@needs_cobc
def test_every_view_is_one_of_on_input_and_all_on_output(every_view: Any) -> None:
    assert every_view.errors == []
    definition = every_view.catalog.tool("trmmask").definition()
    pan = definition["inputSchema"]["properties"]["tm_pan"]
    assert [list(choice["required"]) for choice in pan["oneOf"]] == [["tm_pan"], ["tm_pan_parts"]]
    assert all(choice["additionalProperties"] is False for choice in pan["oneOf"])
    assert "give exactly one of tm_pan, tm_pan_parts" in pan["description"]
    audit = definition["outputSchema"]["properties"]["tm_audit"]
    assert audit["required"] == ["tm_audit", "tm_audit_parts"] and "oneOf" not in audit


@needs_cobc
@pytest.mark.parametrize(
    "pan",
    [
        {"tm_pan": "4532015112830366"},
        {"tm_pan_parts": {"tm_pan_bin": "453201", "tm_pan_middle": "511283", "tm_pan_last4": "0366"}},
    ],
)
def test_either_view_reaches_the_program_and_every_view_comes_back(every_view: Any, pan: dict[str, Any]) -> None:
    key = bytes.fromhex("1B2C3D4E5F607168")
    arguments = {
        "tm_terminal_key": key.decode("latin-1"),  # plain text here: no bytes key in this file
        "tm_terminal_id": "T7",
        "tm_sequence": 42,
        "tm_pan": pan,
        "tm_audit": {"tm_audit_parts": {"tm_audit_term": "????", "tm_audit_seq": 0}},  # the caller's, overwritten
    }
    result = call(every_view, "trmmask", arguments)
    assert not result.get("isError"), result
    out = result["structuredContent"]
    assert bytes.fromhex(out["tm_masked_pan"]) == masked(key, "4532015112830366")
    assert out["tm_receipt_line"] == "CARD ************0366"  # the default rule: trimmed
    assert out["tm_audit"] == {
        "tm_audit": "T7  00000042",
        "tm_audit_parts": {"tm_audit_term": "T7", "tm_audit_seq": 42},
    }


@needs_cobc
@pytest.mark.parametrize(
    ("pan", "says"),
    [
        ({"tm_pan": "4532015112830366", "tm_pan_parts": {}}, "takes exactly one of its views (tm_pan, tm_pan_parts)"),
        ({}, "takes exactly one of its views"),
        ("4532015112830366", '"tm_pan" must be an object with one of tm_pan, tm_pan_parts'),
    ],
)
def test_two_views_at_once_or_none_is_an_argument_error(every_view: Any, pan: Any, says: str) -> None:
    arguments = {"tm_terminal_key": "K" * 8, "tm_terminal_id": "T7", "tm_sequence": 1, "tm_pan": pan,
                 "tm_audit": {"tm_audit": ""}}  # fmt: skip
    result = call(every_view, "trmmask", arguments)
    assert result.get("isError") and says in result["content"][0]["text"], result


def test_a_view_of_an_area_written_on_some_paths_only_is_not_required(tmp_path: Path) -> None:
    """The items of a chosen view take the directions of the bytes they share, and are optional when each
    of those is: LS-DATA is written only when the account is found, never read first."""
    from cobol_mcp.cobol.linkage.program import parse_program
    from cobol_mcp.cobol.records.schema import input_schema

    (tmp_path / "ACCTINQ.cbl").write_text("""\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ACCTINQ.
       DATA DIVISION.
       LINKAGE SECTION.
       01  LS-AREA.
           05  LS-ACCOUNT              PIC 9(8).
           05  LS-RC                   PIC 9(2).
           05  LS-DATA                 PIC X(40).
           05  LS-BALANCE-VIEW REDEFINES LS-DATA.
               10  LS-NAME             PIC X(30).
               10  LS-BALANCE          PIC 9(8)V99.
       PROCEDURE DIVISION USING LS-AREA.
           MOVE 0 TO LS-RC
           IF LS-ACCOUNT > 0
               MOVE 'SMITH' TO LS-NAME
               MOVE 100 TO LS-BALANCE
           ELSE
               MOVE 4 TO LS-RC
           END-IF
           GOBACK.
""")
    (tmp_path / "cobol-mcp.toml").write_text('[programs.ACCTINQ.fields]\nLS-DATA = { view = "LS-BALANCE-VIEW" }\n')
    spec = read_overrides(tmp_path).programs["ACCTINQ"].apply_to_spec(parse_program(tmp_path / "ACCTINQ.cbl"))
    view = next(c for c in spec.records[0].field.children if c.name == "LS-BALANCE-VIEW")
    assert [(c.direction, c.optional) for c in view.children] == [("inout", True), ("inout", True)]
    assert input_schema(spec)["required"] == ["ls_account"]

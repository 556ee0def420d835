"""PIC X ANY LENGTH: served as a string of up to a limit, passed to the program as exactly that many bytes."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.prepare.cobc_check import verify_with_cobc
from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.cobol.prepare.value_caller import value_caller_source, value_signature
from cobol_mcp.cobol.records.codec import decode_outputs, encode_inputs
from cobol_mcp.cobol.records.schema import input_schema, output_schema
from cobol_mcp.options import Options
from cobol_mcp.server import build_server

from .conftest import call_tool as call
from .conftest import needs_cobc

FOLDER = Path(__file__).parent / "realworld" / "anylen"
BOOKS = (FOLDER / "copybooks",)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def name_key(name: str) -> dict[str, Any]:
    """The oracle of NAMEKEY: the name folded to upper case (ASCII letters only), its length, its letter
    count and the sum of position times character code, modulo 99991."""
    folded = name.translate(str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    checksum = sum(i * b for i, b in enumerate(folded.encode("latin-1"), 1)) % 99991
    return {
        "ls_name": folded,
        "ls_key_length": len(name),
        "ls_key_letters": sum(c in LETTERS for c in name),
        "ls_key_checksum": checksum,
        "ls_key_initial": name[0].rstrip(" "),  # PIC X: a space is trimmed like any trailing space
    }


# ------------------------------------------------------------------------------------------- the model


def test_an_any_length_record_is_a_length_and_the_limit_in_bytes():
    spec = parse_program(FOLDER / "NAMEKEY.cbl", include=BOOKS)
    name, key = spec.records
    assert (name.name, name.size, name.field.any_length, name.direction) == ("LS-NAME", 4 + 256, 256, "inout")
    assert (key.size, key.field.any_length) == (20, 0)
    assert input_schema(spec)["properties"]["ls_name"] | {"description": ""} == {
        "type": "string", "minLength": 1, "maxLength": 256, "description": "",
    }  # fmt: skip
    assert output_schema(spec)["properties"]["ls_name"]["maxLength"] == 256
    buffers = encode_inputs(spec, {"ls_name": "Ann"})
    assert buffers[0] == struct.pack("=i", 3) + b"Ann" + b" " * 253
    # the program may change the bytes, never the length: that many come back, trailing spaces kept
    assert decode_outputs(spec, [struct.pack("=i", 3) + b"AN " + b"Z" * 253, buffers[1]])["ls_name"] == "AN "


@needs_cobc
def test_cobc_agrees_with_the_layout_of_the_other_records():
    assert verify_with_cobc(FOLDER / "NAMEKEY.cbl") == []


def test_the_caller_passes_the_first_length_bytes_by_reference():
    spec = parse_program(FOLDER / "NAMEKEY.cbl", include=BOOKS)
    assert value_signature(spec) == ("ANY LENGTH 256", "REFERENCE")
    source = value_caller_source(value_signature(spec)).splitlines()
    assert source[source.index("       01  LK-R001.") + 1 : source.index("       01  LK-R001.") + 3] == [
        "           05  LK-R001-LEN      USAGE BINARY-LONG.",
        "           05  LK-R001-TXT      PIC X(256).",
    ]
    call_text = " ".join(" ".join(source).split("CALL LK-ENTRY USING")[1].split("END-CALL")[0].split())
    assert call_text == "BY REFERENCE LK-R001-TXT(1:LK-R001-LEN) BY REFERENCE LK-R002"
    assert "           IF LK-R001-LEN < 1" in source  # never (1:0)


@pytest.mark.parametrize(
    ("linkage", "message"),
    [
        ("01 LS-G.\n   05 LS-T PIC X ANY LENGTH.", r":6: LS-T: ANY LENGTH is only served on an 01/77 item"),
        ("01 LS-T PIC 9 ANY LENGTH.", r":5: LS-T: PIC 9 ANY LENGTH is not served: only PIC X ANY LENGTH is"),
        ("01 LS-T PIC X(4) ANY LENGTH.", r":5: LS-T: PIC X\(4\) ANY LENGTH is not served"),
        ("01 LS-T PIC X ANY LENGTH VALUE 'A'.", r":5: LS-T: only PIC X ANY LENGTH is served \(no USAGE"),
    ],
)
def test_other_any_length_forms_are_refused_with_file_line_and_reason(tmp_path: Path, linkage: str, message: str):
    path = tmp_path / "anyl.cob"
    path.write_text(f"IDENTIFICATION DIVISION.\nPROGRAM-ID. anyl.\nDATA DIVISION.\nLINKAGE SECTION.\n{linkage}\n"
                    f"PROCEDURE DIVISION USING {linkage.split()[1].rstrip('.')}.\n    GOBACK.\n")  # fmt: skip
    with pytest.raises(LinkageError, match=r"anyl\.cob" + message):
        parse_program(path)


# ------------------------------------------------------------------------------------ through the server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    made = build_server(
        Options(programs=[("al", str(FOLDER))], bundled=False, cache_dir=tmp_path_factory.mktemp("cache"))
    )
    try:
        yield made
    finally:
        made.runtime.close()


@needs_cobc
@pytest.mark.parametrize(
    "name",
    ["x", "Q", "o'Brien, Mary-Kate", "  van der Berg  ", "Zoë Ångström", "a" * 255, "Mc" + "k" * 254, "é" * 256],
)
def test_the_program_sees_exactly_the_string_and_matches_the_oracle(server: Any, name: str):
    result = call(server, "namekey", {"ls_name": name})
    assert result.get("isError", False) is False, result
    assert result["structuredContent"] == name_key(name)


@needs_cobc
@pytest.mark.parametrize(("name", "length"), [("a" * 257, 257), ("", 0), ("ab" * 200, 400)])
def test_a_string_outside_1_to_the_limit_is_an_argument_error(server: Any, name: str, length: int):
    result = call(server, "namekey", {"ls_name": name})
    assert result["isError"] is True
    assert result["content"][0]["text"].endswith(
        f'"ls_name" must be 1 to 256 characters (PIC X ANY LENGTH, limit 256), not {length}'
    )


@needs_cobc
def test_a_string_that_is_not_latin_1_is_an_argument_error(server: Any):
    result = call(server, "namekey", {"ls_name": "Bjørn 🙂"})
    assert result["isError"] is True
    assert "has a character that is not Latin-1" in result["content"][0]["text"]


# ---------------------------------------------------------------------------------- max-length override


def _folder(tmp_path: Path, toml: str) -> Path:
    folder = tmp_path / "cobol"
    shutil.copytree(FOLDER, folder)
    (folder / "cobol-mcp.toml").write_text(toml)
    return folder


@needs_cobc
def test_max_length_sets_the_limit_the_record_and_the_schema(tmp_path: Path):
    folder = _folder(tmp_path, "[programs.NAMEKEY.fields.LS-NAME]\nmax-length = 1000\n")
    made = build_server(Options(programs=[("al", str(folder))], bundled=False, cache_dir=tmp_path / "cache"))
    try:
        assert made.errors == []
        spec = scan_folder(folder, cache_dir=tmp_path / "cache").programs[0].spec
        assert (spec.records[0].size, spec.records[0].field.any_length) == (1004, 1000)
        assert input_schema(spec)["properties"]["ls_name"]["maxLength"] == 1000
        name = "Smith-" * 166 + "Jone"  # 1000 bytes
        assert call(made, "namekey", {"ls_name": name})["structuredContent"] == name_key(name)
        too_long = call(made, "namekey", {"ls_name": name + "s"})
        assert too_long["isError"] is True
        assert "must be 1 to 1000 characters (PIC X ANY LENGTH, limit 1000), not 1001" in too_long["content"][0]["text"]
    finally:
        made.runtime.close()


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        (
            "[programs.NAMEKEY.fields.LS-KEY-LENGTH]\nmax-length = 10\n",
            ":1: max-length needs a PIC X ANY LENGTH item; LS-KEY-LENGTH is ",
        ),
        ("[programs.NAMEKEY.fields.LS-NAME]\n\nmax-length = 0\n", ":3: fields.LS-NAME.max-length: must be a whole"),
        ("[programs.NAMEKEY.fields.LS-NAME]\nmax-length = '80'\n", ":2: fields.LS-NAME.max-length: must be a whole"),
        ("[programs.NAMEKEY.fields.LS-NAME]\nmax-length = 2000000\n", ":2: fields.LS-NAME.max-length: must be"),
        ("[programs.NAMEKEY.fields.LS-NAME]\nbytes = 'hex'\n", ":1: bytes: LS-NAME is PIC X ANY LENGTH: its argument"),
        ("[programs.NAMEKEY.fields.LS-NAME]\ndefault = 'A'\n", ":1: default: LS-NAME is PIC X ANY LENGTH"),
    ],
)
def test_max_length_errors_name_the_file_and_line(tmp_path: Path, toml: str, message: str):
    folder = _folder(tmp_path, toml)
    scan = scan_folder(folder, cache_dir=tmp_path / "cache")
    assert scan.programs == []
    assert len(scan.errors) == 1
    assert scan.errors[0].startswith(f"{folder / 'cobol-mcp.toml'}{message}"), scan.errors[0]

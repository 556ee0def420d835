"""The CICS runtime's pieces without a worker: the descriptor, the EIB's packed date and time, the
HANDLE table's routes and CICS's abend codes, and the folder's [[datasets]] checked at load with file:line."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.sqlbridge.cics_eib import Eib, Handles, decode, encode_number, parse_descriptor
from cobol_mcp.sqlbridge.cics_served import load_cics


def _pad(text: str, size: int = 60) -> bytes:
    return text.encode().ljust(size)


def test_a_descriptor_gives_the_options_and_their_parameters() -> None:
    desc = parse_descriptor(_pad("43;READ;FILE();INTO();RIDFLD();GTEQ;RESP()"))
    assert (desc.line, desc.command) == (43, "READ")
    options, where = decode(desc, [b"CUSTFILE", b"\0" * 200, b"00001001", encode_number(0)])
    assert options == {"FILE": b"CUSTFILE", "INTO": 200, "RIDFLD": b"00001001", "GTEQ": True, "RESP": 0}
    assert where == {"FILE": 0, "INTO": 1, "RIDFLD": 2, "RESP": 3}
    with pytest.raises(ValueError, match="4 options"):
        decode(desc, [b"CUSTFILE", b"\0" * 200, b"00001001", encode_number(0), b"x"])
    with pytest.raises(ValueError, match="not a CICS command descriptor"):
        parse_descriptor(_pad("43;FLY;FILE()"))
    assert int.from_bytes(encode_number(-2), "little", signed=True) == -2


def test_the_eib_has_cics_packed_date_and_time_and_the_commarea_length() -> None:
    before = datetime.datetime.now()
    eib = Eib(202, 77).fill(b"\0" * 85, fn=0x0602, resp=13, resp2=1, answer=3)
    after = datetime.datetime.now()
    assert len(eib) == 85
    date = eib[4:8].hex()  # 0CYYDDD then the sign nibble C
    assert date[-1] == "c" and date[0] == "0"
    days = {f"0{d.year // 100 - 19}{d.year % 100:02d}{d.timetuple().tm_yday:03d}c" for d in (before, after)}
    assert date in days
    assert eib[0:4].hex()[0] == "0" and eib[0:4].hex()[-1] == "c"  # 0HHMMSS
    assert eib[12:16].hex() == "0000077c"  # EIBTASKN
    assert int.from_bytes(eib[24:26], "big") == 202  # EIBCALEN
    assert eib[27:29] == b"\x06\x02"  # EIBFN of READ
    assert int.from_bytes(eib[76:80], "big") == 13 and int.from_bytes(eib[80:84], "big") == 1  # EIBRESP(2)
    assert int.from_bytes(eib[20:22], "big") == 3  # DFHEIGDI: the label to go to


def test_handle_ignore_push_and_pop_route_conditions_as_cics_does() -> None:
    handles = Handles()
    assert handles.route(13) == "AEIM" and handles.route(14) == "AEIN" and handles.route(12) == "AEIL"
    handles.handle(parse_descriptor(_pad("5;HANDLE CONDITION;NOTFND(2);DSIDERR(4);ERROR(3)")))
    assert (handles.route(13), handles.route(12), handles.route(14)) == (2, 4, 3)  # DUPREC: ERROR's label
    handles.push()
    assert handles.route(13) == "AEIM"
    handles.ignore(parse_descriptor(_pad("9;IGNORE CONDITION;NOTFND")))
    assert handles.route(13) == 0
    assert handles.pop() and handles.route(13) == 2
    assert not handles.pop()  # nothing pushed any more
    handles.handle(parse_descriptor(_pad("12;HANDLE CONDITION;NOTFND")))  # alone: back to the default
    assert handles.route(13) == 3  # ERROR's label still catches it


def test_a_wrong_dataset_is_refused_with_its_line(tmp_path: Path) -> None:
    toml = tmp_path / "cobol-mcp.toml"
    toml.write_text('[[datasets]]\nname = "CUSTFILE"\norganization = "kdsd"\nrecord-length = 20\nkeys = [4, 0]\n')
    entry = {"original": str(tmp_path / "X.cbl"), "folder": str(tmp_path), "commands": ["READ"]}
    with pytest.raises(LinkageError, match=r"cobol-mcp.toml:3: datasets.CUSTFILE.organization"):
        load_cics(entry, "X", None, None, str(toml))  # type: ignore[arg-type]  # a plain dict for the entry
    toml.write_text('[[datasets]]\nname = "CUSTFILE"\norganization = "ksds"\nrecord-length = 20\nkeys = [4, 0]\n')
    served = load_cics(entry, "X", None, None, str(toml))  # type: ignore[arg-type]  # a plain dict for the entry
    assert list(served.program.fct) == ["CUSTFILE"] and (tmp_path / "cobol-mcp.db").exists()


def test_check_lists_the_commands_and_those_not_served_yet(tmp_path: Path) -> None:
    entry = {"original": str(tmp_path / "X.cbl"), "folder": str(tmp_path),
             "commands": ["HANDLE CONDITION", "READ", "LINK", "ENQ", "XCTL", "READ", "RETURN"]}  # fmt: skip
    report = load_cics(entry, "X", None, None, None).report()  # type: ignore[arg-type]  # a plain dict for the entry
    where = "database work run by the server (not the C worker)"  # (no runtime here)
    assert report == [f"  CICS on sqlite, {where}: HANDLE CONDITION, READ, LINK, ENQ, XCTL, RETURN"]  # all served
    entry["commands"] = ["RETURN", "NEWVERB"]  # a command of a newer translator table than this runtime
    report = load_cics(entry, "X", None, None, None).report()  # type: ignore[arg-type]  # a plain dict for the entry
    assert report == [
        f"  CICS on sqlite, {where}: RETURN, NEWVERB",
        "    not served yet (a call reaching one fails): NEWVERB",
    ]

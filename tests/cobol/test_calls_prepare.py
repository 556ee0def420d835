"""The COBOL caller's source and symbol, and the PIC X decoder's trim switch."""

from pathlib import Path

from cobol_mcp.cobol.linkage.program import entry_symbol, parse_program
from cobol_mcp.cobol.prepare.calls import unresolved_calls
from cobol_mcp.cobol.prepare.driver import DRIVER_ID, DRIVER_SYMBOL, MAX_RECORDS, driver_source
from cobol_mcp.cobol.records.decoders import item_decoder
from cobol_mcp.cobol.runtime.process import WORKER_SCRIPT

BLKXOR = parse_program(Path(__file__).parent / "realworld" / "calls" / "blkxor.cbl")


def test_the_worker_calls_the_callers_entry():
    # the worker is a script (it reads sys.argv when imported): its constant is read as text
    assert entry_symbol(DRIVER_ID) == DRIVER_SYMBOL
    assert f'CALLER_SYMBOL = "{DRIVER_SYMBOL}"' in Path(WORKER_SCRIPT).read_text()


def test_the_caller_passes_every_record_count_in_fixed_format():
    source = driver_source()
    assert all(len(line) <= 72 for line in source.splitlines())
    assert source.count("CALL LK-ENTRY") == MAX_RECORDS + 1
    assert "CANCEL LK-NAME" in source


def test_pic_x_trim_switch():
    masked = BLKXOR.records[1].field.children[0]
    block = b"Zn~\n\x1a&6 "
    text = b"PAID    "
    assert item_decoder(masked)(block, 0, None, None) == "Zn~\n\x1a&6 "  # default: data stays whole
    assert item_decoder(masked)(text, 0, None, None) == "PAID"  # default: text is trimmed
    assert item_decoder(masked, trim=True)(block, 0, None, None) == "Zn~\n\x1a&6"
    assert item_decoder(masked, trim=False)(text, 0, None, None) == "PAID    "


def test_unresolved_calls_split_over_lines_and_system_routines(tmp_path):
    body = [
        " IDENTIFICATION DIVISION.",
        " PROGRAM-ID. ACCTPOST.",
        " DATA DIVISION.",
        " LINKAGE SECTION.",
        " 01  LS-ACCOUNT          PIC X(10).",
        " PROCEDURE DIVISION USING LS-ACCOUNT.",
        " 0000-MAINLINE.",
        "*    CALL 'COMMENTED' is no call",
        "     CALL 'CBL_TOUPPER' USING LS-ACCOUNT BY VALUE 10",
        "     CALL 'ACCTPOST' USING LS-ACCOUNT",
        "     CALL",
        "         'ACCTAUDT' USING LS-ACCOUNT",
        "     GOBACK.",
    ]
    source = tmp_path / "acctpost.cbl"
    source.write_text("".join(f"{n * 100:06d}{text:<66}ACCTPOST\n" for n, text in enumerate(body, 1)))
    assert unresolved_calls(tmp_path) == [
        f"{source}:12: CALL 'ACCTAUDT': no program of {tmp_path} has this PROGRAM-ID and it is no libcob "
        "system routine: the call will end in an error"
    ]

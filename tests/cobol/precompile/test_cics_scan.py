"""The EXEC CICS translator's front half: blocks found over many lines, commands and options read and
checked against IBM's command reference, refusals with file:line, and the standard copybooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.cobol.precompile.cics import Arg, CicsScan, builtin_value, scan_cics_lines, scan_cics_text
from cobol_mcp.cobol.precompile.cics_books import STANDARD_BOOKS, literal_items
from cobol_mcp.cobol.precompile.cics_table import COMMANDS
from cobol_mcp.cobol.source.entries import comment_entries

PROGRAMS = Path(__file__).parents[2] / "cics_programs"


def _scan(*code: str, path: str = "P.cbl") -> CicsScan:
    return scan_cics_lines(Path(path), [(n, line) for n, line in enumerate(code, 1)])


def _problems(*code: str) -> list[str]:
    return [f"{p.where}: {p.reason}" for p in _scan(*code).problems]


def test_every_command_of_the_sample_application_is_read_with_its_line() -> None:
    found = {}
    for name in ("CUSTFRNT", "CUSTVSAM", "ERRLOG"):
        scan = scan_cics_text(PROGRAMS / f"{name}.cbl", "fixed")
        assert scan.problems == []
        found[name] = [(c.line, c.name) for c in scan.commands]
    assert found["CUSTFRNT"] == [(25, "ABEND"), (53, "LINK"), (67, "RETURN"), (82, "GET COUNTER"),
                                 (87, "DEFINE COUNTER"), (91, "GET COUNTER"), (107, "LINK")]  # fmt: skip
    assert [n for _, n in found["CUSTVSAM"]] == [
        "HANDLE CONDITION", "ABEND", "RETURN", "READ", "WRITE", "READ", "REWRITE", "DELETE", "STARTBR", "READNEXT",
        "ENDBR", "RETURN", "RETURN", "RETURN"]  # fmt: skip
    assert [n for _, n in found["ERRLOG"]] == ["ASKTIME", "FORMATTIME", "WRITEQ TS", "WRITEQ TD", "RETURN"]


def test_options_and_their_arguments() -> None:
    scan = scan_cics_text(PROGRAMS / "CUSTVSAM.cbl", "fixed")
    handle, write, update = scan.commands[0], scan.commands[4], scan.commands[5]
    assert (handle.line, handle.end_line, handle.period) == (22, 25, False)
    assert handle.options == {"NOTFND": Arg("data", "8100-NOT-FOUND"), "DUPREC": Arg("data", "8200-DUPLICATE"),
                              "ERROR": Arg("data", "8900-FAILED")}  # fmt: skip
    assert scan.labels == ["8100-NOT-FOUND", "8200-DUPLICATE", "8900-FAILED"]
    assert write.options["FILE"] == Arg("literal", "'CUSTFILE'")  # DATASET, the old spelling
    assert write.options["LENGTH"] == Arg("length-of", "LENGTH OF CUSTOMER-RECORD")
    assert update.options["UPDATE"] is None and update.options["RESP"] == Arg("data", "WS-RESP")
    assert list(update.options) == ["FILE", "INTO", "RIDFLD", "UPDATE", "RESP"]


def test_data_names_qualified_subscripted_reference_modified_and_builtins() -> None:
    scan = _scan(
        "     EXEC CICS READ FILE(FILE-NAME OF WS-NAMES) INTO(WS-REC (WS-I, 2))",
        "          RIDFLD(CA-DATA (1:8)) KEYLENGTH(DFHVALUE(KSDS)) GENERIC",
        "          RESP(WS-RESP) END-EXEC.",
        "     EXEC CICS WRITEQ QUEUE('ERRS') FROM(WS-LINE) ITEM(WS-ITEM) END-EXEC",
        "     EXEC CICS DELAY INTERVAL(+000010) END-EXEC",
        "     EXEC CICS ADDRESS COMMAREA(ADDRESS OF LS-AREA) END-EXEC",
        "     EXEC CICS DELETE COUNTER('C1') NOSUSPEND END-EXEC",
    )
    assert scan.problems == []
    read, writeq, delay, address, delete = scan.commands
    assert (read.line, read.end_line, read.period) == (1, 3, True)
    assert read.options["FILE"] == Arg("data", "FILE-NAME OF WS-NAMES")
    assert read.options["INTO"] == Arg("data", "WS-REC (WS-I, 2)")
    assert read.options["RIDFLD"] == Arg("data", "CA-DATA (1:8)")
    assert read.options["KEYLENGTH"] == Arg("number", "6", 6)
    assert writeq.name == "WRITEQ TS"  # neither TS nor TD: TS, as CICS reads it
    assert delay.options["INTERVAL"] == Arg("number", "+000010", 10)
    assert address.options["COMMAREA"] == Arg("address-of", "ADDRESS OF LS-AREA")
    assert delete.name == "DELETE COUNTER" and delete.options["COUNTER"] == Arg("literal", "'C1'")


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("EXEC CICS SEND MAP('CUSTMAP') MAPSET('CUSTSET') END-EXEC", "SEND MAP is a BMS screen"),
        ("EXEC CICS RECEIVE MAP('CUSTMAP') END-EXEC", "RECEIVE MAP is a BMS screen"),
        ("EXEC CICS CONVERSE FROM(A) INTO(B) END-EXEC", "CONVERSE needs a terminal"),
        ("EXEC CICS HANDLE AID PF3(9000-EXIT) END-EXEC", "HANDLE AID"),
        ("EXEC CICS FROBNICATE FILE('X') END-EXEC", "FROBNICATE FILE: not a CICS command"),
        ("EXEC CICS READ FILE('F') INTO(R) RIDFLD(K) SIDEWAYS END-EXEC", "READ: SIDEWAYS is not an option of READ"),
        ("EXEC CICS READ FILE('F') INTO(R) END-EXEC", "READ needs RIDFLD"),
        ("EXEC CICS READ FILE('F') INTO(R) SET(P) RIDFLD(K) END-EXEC", "READ: INTO and SET exclude each other"),
        ("EXEC CICS READ FILE('F') INTO(R) RIDFLD(K) UPDATE(X) END-EXEC", "READ: UPDATE takes no argument"),
        ("EXEC CICS READ FILE INTO(R) RIDFLD(K) END-EXEC", "READ: FILE needs an argument"),
        ("EXEC CICS READ FILE('CUSTOMERFILE') INTO(R) RIDFLD(K) END-EXEC", "at most 8 characters"),
        ("EXEC CICS READ FILE('F') INTO('ABC') RIDFLD(K) END-EXEC", "must be a data name (the command sets it)"),
        ("EXEC CICS LINK PROGRAM('P') LENGTH('10') END-EXEC", "must be a number or a numeric data name"),
        ("EXEC CICS RETURN TRANSID('CUST') COMMAREA(CA) END-EXEC", "RETURN TRANSID (a pseudo-conversation)"),
        ("EXEC CICS HANDLE CONDITION NOSUCH(X) END-EXEC", "NOSUCH is not a CICS condition"),
        ("EXEC CICS IGNORE CONDITION NOTFND(X) END-EXEC", "IGNORE CONDITION: NOTFND takes no argument"),
        ("EXEC CICS GET COUNTER('C') VALUE(V) RESP(DFHRESP(BOGUS)) END-EXEC", "DFHRESP(BOGUS): not a name"),
        ("EXEC CICS ASSIGN END-EXEC", "ASSIGN needs an option"),
        ("EXEC CICS READ FILE('F') FILE('G') INTO(R) RIDFLD(K) END-EXEC", "READ: FILE given twice"),
        ("EXEC CICS LINK PROGRAM('P' END-EXEC", "PROGRAM( without its closing parenthesis"),
        ("EXEC DLI GU USING PCB(1) SEGMENT(CUST) END-EXEC", "EXEC DLI (IMS DL/I) is not supported"),
        ("EXEC CICS READ FILE('F')", "EXEC CICS without END-EXEC"),
        ("EXEC CICS GETMAIN SET(P) FLENGTH(10) INITIMG('AB') END-EXEC", "INITIMG('AB') must be at most 1"),
        ("EXEC CICS GETMAIN SET(P) FLENGTH(10) LENGTH(10) END-EXEC", "FLENGTH and LENGTH exclude each other"),
        ("EXEC CICS FREEMAIN DATA(W) DATAPOINTER(P) END-EXEC", "DATA and DATAPOINTER exclude each other"),
        ("EXEC CICS ENQ RESOURCE(R) TASK LUW END-EXEC", "TASK and LUW exclude each other"),
        ("EXEC CICS DELAY INTERVAL(500) FOR SECONDS(5) END-EXEC", "INTERVAL and FOR exclude each other"),
        ("EXEC CICS FORMATTIME ABSTIME(T) DATESTRING(S) RFC3339 END-EXEC", "RFC3339 is not an option of"),
        ("EXEC CICS FORMATTIME ABSTIME(T) DATESTRING(S) STRINGZONE END-EXEC", "STRINGZONE needs an argument"),
        ("EXEC CICS RECEIVE INTO(WS-IN) LENGTH(WS-LEN) CONVID(WS-CONV) END-EXEC", "RECEIVE CONVID (a conversation"),
        ("EXEC CICS SEND PAGE END-EXEC", "SEND PAGE is BMS paging: served once screens are"),
        ("EXEC CICS START TRANSID('CUST') INTERVAL(0) TIME(1200) END-EXEC", "INTERVAL and TIME exclude each other"),
        ("EXEC CICS RETRIEVE LENGTH(WS-LEN) END-EXEC", "RETRIEVE needs INTO or SET"),
        ("EXEC CICS FETCH CHILD(WS-CHILD) ANY(WS-ANY) END-EXEC", "CHILD and ANY exclude each other"),
        ("EXEC CICS WAIT CONVID(C) END-EXEC", "WAIT CONVID: not a CICS command"),
        ("     IF WS-RESP = DFHRESP(TIMEDOUT) CONTINUE END-IF", "DFHRESP(TIMEDOUT): a name CICS has, not served yet"),
        ("     MOVE DFHVALUE(THREADSAFE) TO WS-API", "DFHVALUE(THREADSAFE): a name CICS has, not served yet"),
        ("     MOVE DFHVALUE(FROBNICATED) TO WS-API", "DFHVALUE(FROBNICATED): not a name CICS has"),
        ("EXEC CICS HANDLE CONDITION TIMEDOUT(X) END-EXEC", "TIMEDOUT is a CICS condition not served yet"),
    ],
)
def test_what_is_refused_says_where_and_why(code: str, reason: str) -> None:
    problems = _problems("       PROCEDURE DIVISION.", "       0000-MAIN.", f"           {code}", "           GOBACK.")
    assert len(problems) == 1 and problems[0].startswith("P.cbl:3: ") and reason in problems[0], problems


def test_a_refusal_points_at_the_line_of_exec_and_its_neighbours_are_read() -> None:
    scan = _scan(
        "     EXEC CICS WRITEQ TS QUEUE('Q') FROM(A) END-EXEC",
        "     EXEC CICS",
        "          SEND MAP('M')",
        "          MAPSET('S') END-EXEC",
        "     IF WS-RESP = DFHRESP(NOTFOUND) CONTINUE END-IF",
        "     DISPLAY 'DFHRESP(NOTFOUND) in a literal is text'",
        "     EXEC CICS RETURN END-EXEC",
    )
    assert [(p.where, p.reason.split(":")[0]) for p in scan.problems] == [
        ("P.cbl:2", "SEND MAP is a BMS screen"),
        ("P.cbl:5", "DFHRESP(NOTFOUND)"),
    ]
    assert [(c.number, c.name) for c in scan.commands] == [(1, "WRITEQ TS"), (3, "RETURN")]


def test_terminal_control_bms_text_start_and_the_asynchronous_api_are_read() -> None:
    scan = _scan(
        "     EXEC CICS RECEIVE INTO(WS-IN) LENGTH(WS-LEN) RESP(WS-RESP) END-EXEC",
        "     EXEC CICS SEND FROM(WS-OUT) LENGTH(80) ERASE END-EXEC",
        "     EXEC CICS SEND TEXT FROM(WS-MSG) WAIT ERASE LENGTH(24) FREEKB END-EXEC",
        "     EXEC CICS SEND CONTROL ERASE FREEKB END-EXEC",
        "     EXEC CICS START TRANSID('SSST') AFTER MINUTES(1) FROM(WS-DATA) RESP(WS-RESP) END-EXEC",
        "     EXEC CICS RETRIEVE INTO(WS-DATA) LENGTH(WS-LEN) RTRANSID(WS-TRAN) END-EXEC",
        "     EXEC CICS RUN TRANSID('CHLD') CHANNEL('REQ') CHILD(WS-CHILD) END-EXEC",
        "     EXEC CICS FETCH CHILD(WS-CHILD) CHANNEL(WS-CHAN) COMPSTATUS(WS-STAT) ABCODE(WS-AB) END-EXEC",
        "     EXEC CICS FETCH ANY(WS-CHILD) NOSUSPEND RESP(WS-RESP) END-EXEC",
        "     EXEC CICS FREE CHILD(WS-CHILD) END-EXEC",
        "     IF WS-RESP = DFHRESP(NOTFINISHED) AND WS-STAT = DFHVALUE(NORMAL) CONTINUE END-IF",
    )
    assert scan.problems == []
    assert [c.name for c in scan.commands] == ["RECEIVE", "SEND", "SEND TEXT", "SEND CONTROL", "START", "RETRIEVE",
                                               "RUN", "FETCH", "FETCH", "FREE"]  # fmt: skip
    assert scan.commands[4].options["MINUTES"] == Arg("number", "1", 1) and "AFTER" in scan.commands[4].options
    assert builtin_value("DFHRESP", "NOTFINISHED") == 113 and builtin_value("DFHVALUE", "ABEND") == 900


def test_dfhresp_values_are_cics_response_codes() -> None:
    documented = {"NORMAL": 0, "ERROR": 1, "FILENOTFOUND": 12, "NOTFND": 13, "DUPREC": 14, "DUPKEY": 15,
                  "INVREQ": 16, "IOERR": 17, "NOSPACE": 18, "NOTOPEN": 19, "ENDFILE": 20, "ILLOGIC": 21,
                  "LENGERR": 22, "QZERO": 23, "ITEMERR": 26, "PGMIDERR": 27, "QIDERR": 44, "ENQBUSY": 55,
                  "NOTAUTH": 70, "DISABLED": 84}  # fmt: skip
    assert {name: builtin_value("DFHRESP", name) for name in documented} == documented
    assert builtin_value("dfhresp", "notfnd") == 13 and builtin_value("DFHRESP", "NOTFOUND") is None
    assert (builtin_value("DFHVALUE", "KSDS"), builtin_value("DFHVALUE", "ESDS")) == (6, 5)


def test_formattime_string_options_take_a_cvda_as_on_cics() -> None:
    scan = _scan(
        "     MOVE DFHVALUE(LOCAL) TO WS-ZONE",
        "     EXEC CICS FORMATTIME ABSTIME(WS-ABSTIME) DATESTRING(WS-STAMP)",
        "          STRINGFORMAT(DFHVALUE(RFC3339)) STRINGZONE(WS-ZONE)",
        "          END-EXEC",
        "     EXEC CICS FORMATTIME ABSTIME(WS-ABSTIME) DATESTRING(WS-STAMP)",
        "          STRINGFORMAT(WS-FORM) STRINGZONE(DFHVALUE(UTC)) END-EXEC",
    )
    assert scan.problems == []
    local, utc = scan.commands
    assert local.options["STRINGFORMAT"] == Arg("number", "9002", 9002)
    assert local.options["STRINGZONE"] == Arg("data", "WS-ZONE")
    assert utc.options["STRINGFORMAT"] == Arg("data", "WS-FORM") and utc.options["STRINGZONE"] == Arg(
        "number", "9011", 9011
    )
    names = ("RFC1123", "RFC3339", "UTC", "LOCAL")  # this translator's own numbers (IBM's were not at hand)
    assert [builtin_value("DFHVALUE", name) for name in names] == [9001, 9002, 9011, 9012]


def test_the_commands_the_issue_lists_are_all_in_the_table() -> None:
    wanted = ["LINK", "XCTL", "RETURN", "ABEND", "HANDLE CONDITION", "HANDLE ABEND", "IGNORE CONDITION",
              "PUSH HANDLE", "POP HANDLE", "ASSIGN", "ADDRESS", "GETMAIN", "FREEMAIN", "ENQ", "DEQ", "ASKTIME",
              "FORMATTIME", "DELAY", "SYNCPOINT", "READ", "WRITE", "REWRITE", "DELETE", "UNLOCK", "STARTBR",
              "READNEXT", "READPREV", "RESETBR", "ENDBR", "WRITEQ TS", "READQ TS", "DELETEQ TS", "WRITEQ TD",
              "PUT CONTAINER", "GET CONTAINER",
              *(f"{verb} {kind}" for verb in ("DEFINE", "GET", "PUT", "QUERY", "REWIND", "DELETE")
                for kind in ("COUNTER", "DCOUNTER"))]  # fmt: skip
    assert [name for name in wanted if name not in COMMANDS] == []
    assert COMMANDS["READ"].eibfn == 0x0602 and COMMANDS["LINK"].eibfn == 0x0E02


def test_the_eib_copybook_has_ibms_offsets_and_formats(tmp_path: Path) -> None:
    (tmp_path / "DFHEIBLK.cpy").write_text(STANDARD_BOOKS["DFHEIBLK"])
    (tmp_path / "EIBPGM.cbl").write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. EIBPGM.\n       DATA DIVISION.\n"
        "       LINKAGE SECTION.\n           COPY DFHEIBLK.\n       PROCEDURE DIVISION USING DFHEIBLK.\n"
        "           GOBACK.\n"
    )
    eib = parse_program(tmp_path / "EIBPGM.cbl").records[0]
    fields = {f.name: (f.offset, f.size) for f in eib.field.children}
    assert eib.size == 85
    assert fields["EIBTIME"] == (0, 4) and fields["EIBTRNID"] == (8, 4) and fields["EIBTASKN"] == (12, 4)
    assert fields["DFHEIGDI"] == (0x14, 2) and fields["EIBCALEN"] == (0x18, 2) and fields["EIBFN"] == (0x1B, 2)
    assert fields["EIBRCODE"] == (0x1D, 6) and fields["EIBSYNC"] == (0x3B, 1) and fields["EIBATT"] == (0x3F, 1)
    assert fields["EIBRESP"] == (0x4C, 4) and fields["EIBRESP2"] == (0x50, 4) and fields["EIBRLDBK"] == (0x54, 1)
    names = [f.name for f in eib.field.children if f.name not in ("FILLER", "DFHEIGDI")]
    assert len(names) == 29 and names[-3:] == ["EIBRESP", "EIBRESP2", "EIBRLDBK"]
    for book in ("DFHAID", "DFHBMSCA"):
        assert all(len(line) <= 72 for line in STANDARD_BOOKS[book].splitlines())
    assert "DFHPF24   PIC X VALUE '<'." in STANDARD_BOOKS["DFHAID"]
    assert "DFHBMPRO  PIC X VALUE '-'." in STANDARD_BOOKS["DFHBMSCA"]


def test_long_text_of_the_working_storage_book_is_split_within_column_72() -> None:
    items = literal_items("05", "IT'S " * 12)
    assert all(len("       " + line) <= 72 for line in items)
    values = [line.split("VALUE '", 1)[1][:-2].replace("''", "'") for line in items]
    assert "".join(values) == "IT'S " * 12
    assert [int(line.split("PIC X(")[1].split(")")[0]) for line in items] == [len(v) for v in values]


def test_channel_and_container_commands() -> None:
    scan = _scan(
        "     EXEC CICS PUT CONTAINER('RESPONSE') CHANNEL(WS-CHAN) FROM(WS-RSP) FLENGTH(WS-LEN) CHAR",
        "     END-EXEC",
        "     EXEC CICS GET CONTAINER(WS-NAME) INTO(WS-REQ) FLENGTH(WS-LEN) RESP(WS-RESP) END-EXEC",
        "     EXEC CICS MOVE CONTAINER('A') AS('B') CHANNEL('X') TOCHANNEL('Y') END-EXEC",
        "     EXEC CICS STARTBROWSE CONTAINER CHANNEL('X') BROWSETOKEN(WS-TOKEN) END-EXEC",
        "     EXEC CICS GETNEXT CONTAINER(WS-NAME) BROWSETOKEN(WS-TOKEN) RESP(WS-RESP) END-EXEC",
        "     EXEC CICS ENDBROWSE CONTAINER BROWSETOKEN(WS-TOKEN) END-EXEC",
        "     EXEC CICS LINK PROGRAM('BACKEND') CHANNEL('CUSTCHAN') END-EXEC",
        "     EXEC CICS ASSIGN CHANNEL(WS-CHAN) END-EXEC",
    )
    assert scan.problems == []
    assert [c.name for c in scan.commands] == [
        "PUT CONTAINER", "GET CONTAINER", "MOVE CONTAINER", "STARTBROWSE CONTAINER", "GETNEXT CONTAINER",
        "ENDBROWSE CONTAINER", "LINK", "ASSIGN"]  # fmt: skip
    assert list(scan.commands[3].options) == ["CHANNEL", "BROWSETOKEN"]
    assert scan.commands[4].options["CONTAINER"] == Arg("data", "WS-NAME")
    assert builtin_value("DFHRESP", "CHANNELERR") == 122 and builtin_value("DFHRESP", "TOKENERR") == 112
    assert _problems(
        "     EXEC CICS GET CONTAINER('A') END-EXEC",
        "     EXEC CICS PUT CONTAINER('A') FROM(X) BIT CHAR END-EXEC",
        "     EXEC CICS MOVE CONTAINER('A') CHANNEL('X') END-EXEC",
        "     EXEC CICS GETNEXT CONTAINER('A') BROWSETOKEN(T) END-EXEC",
    ) == [
        "P.cbl:1: GET CONTAINER needs INTO or SET or NODATA",
        "P.cbl:2: PUT CONTAINER: BIT and CHAR exclude each other",
        "P.cbl:3: MOVE CONTAINER needs AS",
        "P.cbl:4: GETNEXT CONTAINER: CONTAINER('A') must be a data name (the command sets it)",
    ]


def test_comment_entries_hide_no_command() -> None:
    """ACCTNOTE's AUTHOR, INSTALLATION (over two lines), SECURITY and REMARKS hold apostrophes, a double
    quote and the words EXEC CICS: none opens a literal or is a command, and the paragraphs' names stay."""
    scan = scan_cics_text(PROGRAMS / "comments" / "ACCTNOTE.cbl", "fixed")
    assert scan.problems == []
    assert [(c.line, c.name) for c in scan.commands] == [(35, "ASKTIME"), (46, "RETURN")]
    spec = parse_program(PROGRAMS / "comments" / "ACCTNOTE.cbl")
    assert spec.description.startswith("ACCTNOTE - THE STANDING NOTE OF AN ACCOUNT, AND THE TIME IT")


@pytest.mark.parametrize(
    ("fmt", "text", "entries"),
    [
        # fixed: the entry goes on over lines whose Area A (columns 8-11) is blank; comment lines stay
        ("fixed", ["       ID DIVISION.", "       PROGRAM-ID. P.", "       AUTHOR. O'Brien.", "      * note",
                   "           it's 'me", "", "       INSTALLATION.", "       DATA DIVISION."],
         {2: 14, 4: 6, 5: 6, 6: 20}),
        # AUTHOR without its period; a paragraph named AUTHOR after the IDENTIFICATION DIVISION is code
        ("fixed", ["       IDENTIFICATION DIVISION.", "       PROGRAM-ID. P.", "       AUTHOR J. O'Brien.",
                   "       PROCEDURE DIVISION.", "       AUTHOR."], {2: 14}),
        # free: the entry ends with its line
        ("free", ["IDENTIFICATION DIVISION.", "PROGRAM-ID. P.", "DATE-WRITTEN. 1 Jan '90.", "  'x'.",
                  "SECURITY. None."], {2: 13, 4: 9}),
    ],
)  # fmt: skip
def test_where_comment_entries_are(fmt: str, text: list[str], entries: dict[int, int]) -> None:
    assert comment_entries(text, fmt) == entries


def test_a_flag_written_twice_is_that_flag() -> None:
    """ASKTIME NOHANDLE … NOHANDLE, as shops' programs have it: NOHANDLE once, no refusal."""
    scan = _scan("EXEC CICS ASKTIME NOHANDLE", "   ABSTIME(WS-ABS-TIME)", "   NOHANDLE", "END-EXEC")
    assert scan.problems == []
    assert list(scan.commands[0].options) == ["NOHANDLE", "ABSTIME"]


GENAPP = Path(__file__).parents[3].parent / "shared" / "corpus" / "genapp" / "base" / "src"


@pytest.mark.skipif(not GENAPP.is_dir(), reason="the public applications are not in ../shared/corpus")
@pytest.mark.parametrize("name", ["lgicvs01", "lgipvs01", "lgstsq", "lgsetup", "lgwebst5"])
def test_genapps_programs_with_a_terminal_path_or_a_start_are_carried(name: str) -> None:
    scan = scan_cics_text(GENAPP / f"{name}.cbl")
    assert scan.problems == [] and any(c.name in ("RECEIVE", "START") for c in scan.commands)

"""[programs.NAME.containers.CONTAINER] in cobol-mcp.toml: a channel-style CICS program's tool is its
containers; every key is checked with the program, so a mistake is an error with file:line, that
program is not served and its neighbours are."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cobol_mcp.cobol import LinkageError
from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.cobol.prepare.tool_entry import program_entry

from .conftest import needs_cobc

PROGRAMS = Path(__file__).parents[1] / "cics_programs"
REQUEST = '[programs.CHNFRNT.containers.REQUEST]\ncopybook = "CHNREQ"\ndirection = "in"\n'


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")  # the programs compile once for every case


def _entries(tmp_path: Path, cache: Path, toml: str) -> tuple[Path, dict[str, object]]:
    folder = tmp_path / "channel"
    shutil.copytree(PROGRAMS / "channel", folder)
    shutil.copy(PROGRAMS / "copybooks" / "CUSTREC.cpy", folder)
    (folder / "cobol-mcp.toml").write_text(toml)
    (folder / "TWOREC.cpy").write_text("       01  FIRST-REC  PIC X(4).\n       01  SECOND-REC PIC X(4).\n")
    scan = scan_folder(folder, cache_dir=cache, jobs=1)
    assert scan.errors == [], scan.errors
    found: dict[str, object] = {}
    for program in scan.programs:
        try:
            found[program.spec.program_id] = program_entry(program, False, cache)
        except LinkageError as exc:
            found[program.spec.program_id] = exc
    return folder / "cobol-mcp.toml", found


@needs_cobc
@pytest.mark.parametrize(
    ("toml", "line", "says"),
    [
        (REQUEST + 'colour = "red"\n', 4, "containers.REQUEST.colour: unknown key (known: copybook, direction"),
        (REQUEST.replace("CHNREQ", "NOSUCH"), 2, "copybook 'NOSUCH' not found"),
        (REQUEST.replace("CHNREQ", "TWOREC"), 2, "copybook TWOREC holds 2 01 records (FIRST-REC, SECOND-REC)"),
        (REQUEST.replace("REQUEST]", "CUSTOMER-REQUEST-1]"), 1, "a container name is 1-16 letters"),
        (REQUEST.replace('"in"', '"up"'), 3, "containers.REQUEST.direction: must be one of in, out, inout"),
        ('[programs.CHNFRNT.containers.REQUEST]\ndirection = "in"\n', 1, "containers.REQUEST: copybook is missing"),
        (REQUEST + 'channel = "A B"\n', 4, "'A B' is not a channel name CICS takes"),
        (REQUEST + 'channel = "ONE"\n[programs.CHNFRNT.containers.RESPONSE]\ncopybook = "CHNRSP"\n'
         'direction = "out"\nchannel = "TWO"\n', 8, "the program has one channel: ONE and TWO disagree"),
        (REQUEST.replace("REQUEST]", "REQUEST-ID]") + '[programs.CHNFRNT.containers.REQUEST_ID]\n'
         'copybook = "CHNREQ"\ndirection = "in"\n', 4, "two containers would both be the property 'request_id'"),
        ("[programs.CHNFRNT]\ncontainers = 3\n", 2, "programs.CHNFRNT.containers: must be a table of containers"),
        (REQUEST + 'copybook = 7\n', 4, "invalid TOML"),
    ],
)  # fmt: skip
def test_a_mistake_refuses_that_program_with_its_line(
    tmp_path: Path, cache: Path, toml: str, line: int, says: str
) -> None:
    if says == "invalid TOML":  # a key given twice: the whole file is refused, as for any overrides
        folder = tmp_path / "bad"
        folder.mkdir()
        (folder / "cobol-mcp.toml").write_text(toml)
        assert "invalid TOML" in scan_folder(folder, cache_dir=cache, jobs=1).errors[0]
        return
    path, found = _entries(tmp_path, cache, toml)
    refused = found["CHNFRNT"]
    assert isinstance(refused, LinkageError) and str(refused).startswith(f"{path}:{line}: "), refused
    assert says in str(refused), refused
    assert isinstance(found["CHNBACK"], dict)  # the neighbour is served


@needs_cobc
def test_the_tool_is_its_containers_on_the_default_channel(tmp_path: Path, cache: Path) -> None:
    toml = REQUEST + '[programs.CHNFRNT.containers.RESPONSE]\ncopybook = "CHNRSP"\ndirection = "inout"\n'
    _, found = _entries(tmp_path, cache, toml)
    entry = found["CHNFRNT"]
    assert isinstance(entry, dict)
    channel = entry["channel"]
    assert channel["name"] == "COBOL-MCP"
    assert [(c["name"], c["key"], c["direction"]) for c in channel["containers"]] == [
        ("REQUEST", "request", "in"), ("RESPONSE", "response", "inout")]  # fmt: skip
    definition = entry["definition"]
    assert list(definition["inputSchema"]["properties"]) == ["request", "response"]
    assert list(definition["outputSchema"]["properties"]) == ["response"]
    response = definition["outputSchema"]["properties"]["response"]
    assert (
        "rs_message" in response["properties"] and "Absent when the program did not PUT it" in response["description"]
    )

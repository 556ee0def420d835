"""Channels and containers through the real stdio server and the C worker, on SQLite and PostgreSQL.
CHNFRNT is a channel-style tool (its REQUEST container in, its RESPONSE, ERRORS and PROBE containers
out, from cobol-mcp.toml): it GETs the request from its current channel and LINKs with that channel
to CHNBACK, which reads or writes the KSDS CUSTFILE and PUTs the response. A container the program
did not PUT is absent from the result. PROB reports what the channel commands answered: CONTAINERERR,
LENGERR with the container's length in FLENGTH, CHANNELERR, MOVE, the browse, LINK CHANNEL with a
channel not there yet, the channels of a LINKed program gone when it returns, no current channel
under a COMMAREA LINK, and containers kept through SYNCPOINT ROLLBACK."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.db.url import Database

from ..db.postgres import postgres_url
from .database_folder import CUSTFILE, serve_with_database, structured
from .stdio_client import StdioClient

__all__ = ["postgres_url"]  # the fixture, used by name

PROGRAMS = Path(__file__).parents[1] / "cics_programs"
TOML = (
    CUSTFILE
    + """\

[programs.CHNFRNT.containers.REQUEST]
copybook = "CHNREQ"
direction = "in"
channel = "CUSTCHAN"
description = "What to do, for which customer."

[programs.CHNFRNT.containers.RESPONSE]
copybook = "CHNRSP"
direction = "out"

[programs.CHNFRNT.containers.ERRORS]
copybook = "CHNERR"
direction = "out"

[programs.CHNFRNT.containers.PROBE]
copybook = "CHNPRB"
direction = "out"
"""
)


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[StdioClient, Database]]:
    folder = tmp_path / "channel"
    shutil.copytree(PROGRAMS / "channel", folder)
    shutil.copy(PROGRAMS / "copybooks" / "CUSTREC.cpy", folder)
    with serve_with_database(request, folder, tmp_path / "cache", TOML) as served:
        yield served


def _request(client: StdioClient, kind: str, number: int = 0, name: str = "", city: str = "") -> dict[str, Any]:
    request = {"rq_request_type": kind, "rq_cust_id": number, "rq_cust_name": name, "rq_cust_city": city}
    result: dict[str, Any] = client.call("chnfrnt", request=request)
    return result


def test_the_tool_is_its_containers(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    tools = {tool["name"]: tool for tool in client.request("tools/list")["result"]["tools"]}
    tool = tools["chnfrnt"]
    assert list(tool["inputSchema"]["properties"]) == ["request"] and tool["inputSchema"]["required"] == ["request"]
    request = tool["inputSchema"]["properties"]["request"]
    assert request["description"] == "What to do, for which customer."
    assert list(request["properties"]) == ["rq_request_type", "rq_cust_id", "rq_cust_name", "rq_cust_city"]
    assert request["properties"]["rq_cust_id"]["type"] == "integer"
    outputs = tool["outputSchema"]["properties"]
    assert list(outputs) == ["response", "errors", "probe"] and "required" not in tool["outputSchema"]
    assert list(outputs["errors"]["properties"]) == ["er_code", "er_text"]  # a copybook without its 01
    assert "chnback" in tools  # the back end: a COMMAREA program, served as it is
    wrong = client.call("chnfrnt", request={"rq_request_type": "INQ"}, response={})
    assert wrong.get("isError") and "unknown argument 'response': the containers given are request" in str(wrong)
    wrong = client.call("chnfrnt", request="INQ 00000001")
    assert wrong.get("isError") and "request: must be an object (the REQUEST container)" in str(wrong), wrong
    wrong = client.call("chnfrnt", request={"rq_request_type": "INQ", "rq_cust_id": "many"})
    assert wrong.get("isError") and "request: " in str(wrong) and "rq_cust_id" in str(wrong), wrong


def test_a_front_end_links_with_its_channel_to_the_back_end(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    added = structured(_request(client, "ADD", 4711, "BERTHE", "NANTES"))
    assert list(added) == ["response"], added  # no ERRORS, no PROBE: not PUT, so not there
    assert added["response"] == {"rs_return_code": 0, "rs_cust_id": 4711, "rs_cust_name": "BERTHE",
                                 "rs_cust_city": "NANTES", "rs_message": "CUSTOMER ADDED",
                                 "rs_channel": "CUSTCHAN"}  # fmt: skip
    found = structured(_request(client, "INQ", 4711))["response"]
    assert (found["rs_return_code"], found["rs_cust_name"], found["rs_cust_city"]) == (0, "BERTHE", "NANTES")
    again = structured(_request(client, "ADD", 4711, "OTHER", "BREST"))["response"]
    assert (again["rs_return_code"], again["rs_message"]) == (8, "CUSTOMER ALREADY THERE")
    missing = structured(_request(client, "INQ", 99))["response"]
    assert (missing["rs_return_code"], missing["rs_cust_id"]) == (4, 99)


def test_a_refused_request_puts_only_the_errors_container(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    assert structured(_request(client, "INQ", 0)) == {
        "errors": {"er_code": "BADID", "er_text": "THE CUSTOMER NUMBER MUST BE 1-99999999"}
    }
    assert structured(_request(client, "ZZZZ", 1))["errors"]["er_code"] == "BADTYPE"


def test_the_channel_commands_answer_as_cics_does(served: tuple[StdioClient, Database]) -> None:
    probe = structured(_request(served[0], "PROB"))["probe"]
    assert probe["pb_channel"] == "CUSTCHAN"  # ASSIGN CHANNEL: the tool's channel
    assert (probe["pb_missing_resp"], probe["pb_missing_resp2"]) == (110, 10)  # CONTAINERERR
    assert (probe["pb_short_resp"], probe["pb_short_resp2"]) == (22, 11)  # LENGERR
    assert (probe["pb_short_length"], probe["pb_short_data"]) == (42, "ABCDEFGHIJ")  # FLENGTH: the whole length
    assert (probe["pb_nochan_resp"], probe["pb_nochan_resp2"]) == (122, 2)  # CHANNELERR: not in scope
    assert (probe["pb_badname_resp"], probe["pb_badname_resp2"]) == (122, 1)  # CHANNELERR: a blank in the name
    assert probe["pb_moved_data"] == "ABCDEFGHIJKLMNOPQRST" and probe["pb_moved_from_resp"] == 110
    assert (probe["pb_browse_count"], probe["pb_browse_names"]) == (2, "ALPHA GAMMA")  # BETA deleted
    assert probe["pb_browse_end_resp"] == 83  # END
    assert (probe["pb_back_channel"], probe["pb_back_return_code"]) == ("EMPTYCHAN", 12)  # made empty by the LINK
    assert (probe["pb_gone_resp"], probe["pb_gone_resp2"]) == (122, 2)  # the callee's own channel: gone
    assert (probe["pb_none_resp"], probe["pb_none_resp2"], probe["pb_none_channel"]) == (16, 4, "")  # no channel
    assert probe["pb_kept_length"] == 6  # PUT … FLENGTH(6), then SYNCPOINT ROLLBACK: still there


def test_containers_belong_to_one_call(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    first = structured(_request(client, "INQ", 5))
    second = structured(_request(client, "PROB"))
    assert list(first) == ["response"] and list(second) == ["probe"]  # nothing left over from the first call


def test_an_unhandled_containererr_abends_the_task_with_aezj(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    failed = _request(client, "ABND")
    assert failed.get("isError") and "task abended with code AEZJ" in failed["content"][0]["text"], failed
    assert "CHNFRNT.cbl:" in failed["content"][0]["text"]
    assert structured(_request(client, "INQ", 5))["response"]["rs_return_code"] == 4  # the next call runs as before


def test_a_warm_start_serves_the_channel_tool_from_the_manifest(tmp_path: Path) -> None:
    folder = tmp_path / "channel"
    shutil.copytree(PROGRAMS / "channel", folder)
    shutil.copy(PROGRAMS / "copybooks" / "CUSTREC.cpy", folder)
    (folder / "cobol-mcp.toml").write_text(TOML)
    args = ("--no-bundled", "--cobol-workers", "1", "--shutdown-grace", "0", "--programs", str(folder))
    env = {"COBOL_MCP_CACHE": str(tmp_path / "cache")}
    for number in (1, 2):  # the second start reads the manifest the first one kept
        with StdioClient(*args, env=env) as client:
            client.initialize()
            added = structured(_request(client, "ADD", number, f"WARM{number}", "LILLE"))["response"]
            assert (added["rs_return_code"], added["rs_channel"]) == (0, "CUSTCHAN"), added
    assert any((tmp_path / "cache").rglob("*.REQUEST-*.spec"))  # the container's record, kept in the cache


def test_xctl_passes_the_channel_and_does_not_return(served: tuple[StdioClient, Database]) -> None:
    client, _ = served
    structured(_request(client, "ADD", 77, "XAVIER", "METZ"))
    out = structured(_request(client, "XINQ", 77))  # no ERRORS container: the front end did not resume
    assert list(out) == ["response"], out
    assert (out["response"]["rs_cust_name"], out["response"]["rs_channel"]) == ("XAVIER", "CUSTCHAN"), out

"""Channels and containers without a worker: the conditions and RESP2 values of PUT, GET, MOVE and DELETE
CONTAINER and of the browse, and channel scope across LINK levels (what a callee makes goes when it
returns; the channel passed is the caller's own)."""

from __future__ import annotations

from cobol_mcp.sqlbridge.cics_channels import Channel, Channels, valid_name
from cobol_mcp.sqlbridge.cics_eib import Handles


def _name(text: str) -> bytes:
    return text.encode().ljust(16)


def _answer(channels: Channels, command: str, **options: object) -> tuple[tuple[int, int], dict[str, object]]:
    given = {k: _name(v) if isinstance(v, str) else v for k, v in options.items()}
    result, sets = channels.run(command, given)
    return (result.resp, result.resp2), sets


def test_put_and_get_with_flength_lengerr_and_nodata() -> None:
    channels = Channels(Channel("CUSTCHAN"))
    assert _answer(channels, "PUT CONTAINER", CONTAINER="REQUEST", FROM=b"0123456789")[0] == (0, 0)
    assert _answer(channels, "GET CONTAINER", CONTAINER="REQUEST", INTO=20) == ((0, 0), {"INTO": b"0123456789",
                                                                                          "FLENGTH": 10})  # fmt: skip
    # INTO shorter than the data: cut, LENGERR 11, FLENGTH the container's whole length
    assert _answer(channels, "GET CONTAINER", CONTAINER="REQUEST", INTO=4) == ((22, 11), {"INTO": b"0123",
                                                                                           "FLENGTH": 10})  # fmt: skip
    assert _answer(channels, "GET CONTAINER", CONTAINER="REQUEST", INTO=20, FLENGTH=3)[0] == (22, 11)
    assert _answer(channels, "GET CONTAINER", CONTAINER="REQUEST", NODATA=True, FLENGTH=0)[1] == {"FLENGTH": 10}
    assert _answer(channels, "PUT CONTAINER", CONTAINER="REQUEST", FROM=b"ABCDEF", FLENGTH=2, APPEND=True)[0] == (0, 0)
    assert _answer(channels, "GET CONTAINER", CONTAINER="REQUEST", INTO=20)[1]["INTO"] == b"0123456789AB"
    assert _answer(channels, "PUT CONTAINER", CONTAINER="REQUEST", FROM=b"X", FLENGTH=-1)[0] == (22, 1)
    # SET: the whole data, for the runtime to put in storage of its own; FLENGTH its length (no LENGERR)
    assert _answer(channels, "GET CONTAINER", CONTAINER="REQUEST", SET=b"\0" * 8, FLENGTH=0) == (
        (0, 0),
        {"SET": b"0123456789AB", "FLENGTH": 12},
    )


def test_conditions_of_missing_containers_channels_and_bad_names() -> None:
    channels = Channels(Channel("CUSTCHAN"))
    assert _answer(channels, "GET CONTAINER", CONTAINER="NOSUCH", INTO=8)[0] == (110, 10)  # CONTAINERERR
    assert _answer(channels, "DELETE CONTAINER", CONTAINER="NOSUCH")[0] == (110, 10)
    assert _answer(channels, "GET CONTAINER", CONTAINER="A", CHANNEL="OTHER", INTO=8)[0] == (122, 2)  # CHANNELERR
    assert _answer(channels, "PUT CONTAINER", CONTAINER="A", CHANNEL="BAD NAME", FROM=b"x")[0] == (122, 1)
    assert _answer(channels, "PUT CONTAINER", CONTAINER="A B", FROM=b"x")[0] == (110, 18)
    no_channel = Channels()  # a COMMAREA program: no current channel
    assert _answer(no_channel, "GET CONTAINER", CONTAINER="A", INTO=8)[0] == (16, 4)  # INVREQ
    assert _answer(no_channel, "PUT CONTAINER", CONTAINER="A", FROM=b"x")[0] == (16, 4)
    assert _answer(no_channel, "PUT CONTAINER", CONTAINER="A", CHANNEL="MINE", FROM=b"x")[0] == (0, 0)  # made
    assert _answer(no_channel, "GET CONTAINER", CONTAINER="A", CHANNEL="MINE", INTO=8)[1]["INTO"] == b"x"
    assert valid_name("CUST-REQ_1.$@#") and not valid_name("") and not valid_name("A" * 17)


def test_move_takes_the_container_out_of_its_channel() -> None:
    channels = Channels(Channel("CUSTCHAN"))
    _answer(channels, "PUT CONTAINER", CONTAINER="DATA", FROM=b"moved")
    assert _answer(channels, "MOVE CONTAINER", CONTAINER="DATA", AS="COPY", TOCHANNEL="WORK")[0] == (0, 0)
    assert _answer(channels, "GET CONTAINER", CONTAINER="DATA", INTO=8)[0] == (110, 10)
    assert _answer(channels, "GET CONTAINER", CONTAINER="COPY", CHANNEL="WORK", INTO=8)[1]["INTO"] == b"moved"
    assert _answer(channels, "MOVE CONTAINER", CONTAINER="DATA", AS="COPY", TOCHANNEL="WORK")[0] == (110, 10)
    assert _answer(channels, "MOVE CONTAINER", CONTAINER="COPY", AS="X", CHANNEL="NONE")[0] == (122, 2)


def test_the_browse_returns_each_container_once_then_end() -> None:
    channels = Channels(Channel("CUSTCHAN"))
    for name in ("ONE", "TWO", "THREE"):
        _answer(channels, "PUT CONTAINER", CONTAINER=name, FROM=b"x")
    (resp, _), sets = _answer(channels, "STARTBROWSE CONTAINER")
    token = sets["BROWSETOKEN"]
    assert resp == 0 and isinstance(token, int)
    _answer(channels, "DELETE CONTAINER", CONTAINER="TWO")  # deleted before GETNEXT reached it: not returned
    seen = []
    while (answer := _answer(channels, "GETNEXT CONTAINER", BROWSETOKEN=token))[0] == (0, 0):
        seen.append(answer[1]["CONTAINER"])
    assert seen == ["ONE", "THREE"] and answer[0] == (83, 2)  # END
    assert _answer(channels, "ENDBROWSE CONTAINER", BROWSETOKEN=token)[0] == (0, 0)
    assert _answer(channels, "GETNEXT CONTAINER", BROWSETOKEN=token)[0] == (112, 3)  # TOKENERR: ended
    assert _answer(channels, "ENDBROWSE CONTAINER", BROWSETOKEN=token)[0] == (112, 3)
    assert _answer(Channels(), "STARTBROWSE CONTAINER")[0] == (16, 4)


def test_a_linked_program_sees_the_channel_passed_and_its_own_only() -> None:
    channels = Channels(Channel("CUSTCHAN"))
    _answer(channels, "PUT CONTAINER", CONTAINER="MINE", CHANNEL="PRIVATE", FROM=b"p")
    assert channels.link({"CHANNEL": _name("PASSED")}).resp == 0  # not there yet: made, empty
    channels.enter()
    assert channels.current_name() == "PASSED"
    assert _answer(channels, "GET CONTAINER", CONTAINER="MINE", CHANNEL="PRIVATE", INTO=8)[0] == (122, 2)
    assert _answer(channels, "GET CONTAINER", CONTAINER="ANY", CHANNEL="CUSTCHAN", INTO=8)[0] == (122, 2)
    _answer(channels, "PUT CONTAINER", CONTAINER="ANSWER", FROM=b"42")  # into the channel passed
    _answer(channels, "PUT CONTAINER", CONTAINER="SCRATCH", CHANNEL="CALLEE", FROM=b"s")
    channels.leave()
    assert channels.current_name() == "CUSTCHAN"
    assert _answer(channels, "GET CONTAINER", CONTAINER="ANSWER", CHANNEL="PASSED", INTO=8)[1]["INTO"] == b"42"
    assert _answer(channels, "GET CONTAINER", CONTAINER="SCRATCH", CHANNEL="CALLEE", INTO=8)[0] == (122, 2)
    assert channels.link({"CHANNEL": _name("NO GOOD")}).resp == 122
    assert channels.link({}).resp == 0  # a COMMAREA LINK: the callee has no current channel
    channels.enter()
    assert channels.current_name() == "" and _answer(channels, "GET CONTAINER", CONTAINER="A", INTO=8)[0] == (16, 4)


def test_unhandled_channel_conditions_abend_with_cics_codes() -> None:
    handles = Handles()
    assert (handles.route(110), handles.route(122), handles.route(112), handles.route(83)) == (
        "AEZJ", "AEZV", "AEZL", "AEXK")  # fmt: skip

"""PIC X ANY LENGTH through the real server: the name reaches NAMEKEY as exactly the string given
(tests/cobol/realworld/anylen), on a cold start and on a warm one."""

import shutil
from pathlib import Path

import pytest

from .stdio_client import folder_server

FOLDER = Path(__file__).resolve().parent.parent / "cobol" / "realworld" / "anylen"


def checksum(name: str) -> int:
    """NAMEKEY's oracle of the checksum: position times character code of the upper-cased name."""
    return sum(i * b for i, b in enumerate(name.upper().encode("latin-1"), 1)) % 99991


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    programs = tmp_path_factory.mktemp("anylen") / "programs"
    shutil.copytree(FOLDER, programs)
    (programs / "cobol-mcp.toml").write_text("[programs.NAMEKEY.fields.LS-NAME]\nmax-length = 300\n")
    return programs, tmp_path_factory.mktemp("anylen-cache")


@pytest.mark.parametrize("start", ["cold", "warm"])  # the second start reads the manifest the first wrote
def test_any_length_through_the_server(folders, start):
    with folder_server(*folders, start) as (server, tools):
        assert tools["namekey"]["inputSchema"]["properties"]["ls_name"]["maxLength"] == 300
        for name in ["b", "de la Cruz", "x" * 299 + "z", "Nguyen " * 4]:
            result = server.call("namekey", ls_name=name)
            assert not result.get("isError"), result
            out = result["structuredContent"]
            assert (out["ls_name"], out["ls_key_length"]) == (name.upper(), len(name))
            assert out["ls_key_checksum"] == checksum(name)
        too_long = server.call("namekey", ls_name="y" * 301)
        assert too_long["isError"] is True and "limit 300), not 301" in too_long["content"][0]["text"]

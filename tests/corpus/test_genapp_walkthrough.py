"""docs/genapp.md, run as it is written: every command of the page, on a copy of GenApp from ../shared/corpus
standing in for the clone, does what the page says it does.

The page's `git clone` is the one line not run (the corpus is GenApp at a pinned commit); `~/genapp`
becomes the copy; the `cobol-mcp.toml` block is written where the page says; `./run.sh` is the
package's command line; each `call` line's comment names a value the answer must hold."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from .corpus import GENAPP, needs, writable_copy

pytestmark = needs(GENAPP)

PAGE = Path(__file__).resolve().parents[2] / "docs" / "genapp.md"


def _blocks(text: str) -> tuple[list[str], str]:
    """The page's indented command lines (in order) and its one TOML block."""
    commands = [line[4:] for line in text.splitlines() if line.startswith("    ") and not line.startswith("     ")]
    toml = text.split("```toml\n", 1)[1].split("```", 1)[0]
    return commands, toml


def test_the_genapp_walkthrough_runs_as_written(tmp_path: Path, cache_dir: Path) -> None:
    commands, toml = _blocks(PAGE.read_text())
    assert commands[0].startswith("git clone https://github.com/cicsdev/cics-genapp ~/genapp")
    home = tmp_path / "home"
    clone = writable_copy(GENAPP.parent, home / "genapp")
    env = {**os.environ, "COBOL_MCP_CACHE": str(cache_dir), "HOME": str(home)}
    wrote_toml = False
    seen: list[str] = []
    for line in commands[1:]:
        command, _, said = line.partition(" # ")
        command = command.replace("~/genapp", str(clone))
        words = shlex.split(command)
        if words[0] == "claude":
            continue  # a client's own command: what it runs is the server, tried below
        if words[0] == "awk":
            done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120, env=env)
            assert done.returncode == 0, done.stderr
            seen.append("awk")
            continue
        assert words[0] == "./run.sh", line
        if words[1] == "db" and not wrote_toml:
            (clone / "base" / "cobol-mcp.toml").write_text(toml)  # the page writes it before `db apply`
            wrote_toml = True
        done = subprocess.run(
            [sys.executable, "-m", "cobol_mcp", *words[1:]],
            capture_output=True,
            text=True,
            timeout=1800,
            env=env,
            stdin=subprocess.DEVNULL,
        )
        # `check` exits 1 while a program is refused: here the five screens, as the page says
        assert done.returncode == (1 if words[1] == "check" else 0), (line, done.stderr[-4000:])
        seen.append(words[1])
        if words[1] == "check":
            assert "5 program(s) could not be served" in done.stderr
            # the application folder's layout said, the screens refused with file:line
            assert re.search(r"programs from src \(\d+\)", done.stderr), done.stderr[-4000:]
            for screen in ("lgtestc1", "lgtestp1", "lgtestp2", "lgtestp3", "lgtestp4"):
                assert re.search(rf"{screen}\.cbl:\d+: SEND MAP is a BMS screen", done.stderr), screen
        elif words[1] == "call":
            answer = json.loads(done.stdout)
            key, _, value = said.strip().partition(": ")
            assert _find(answer, json.loads(key)) == json.loads(value), (line, answer)
    assert seen == ["check", "awk", "db", "call", "call", "call"]
    sql = (clone / "base" / "genapp.sql").read_text()
    assert "<DB2DBID>" not in sql and "CREATE TABLE GENASA1.customer" in sql


def _find(answer: object, key: str) -> object:
    """The value of `key` wherever it is in a call's nested answer."""
    if isinstance(answer, dict):
        if key in answer:
            return answer[key]
        for value in answer.values():
            found = _find(value, key)
            if found is not None:
                return found
    return None

"""The public applications of ../shared/corpus as their owners lay them out, given whole to `check`:
CardDemo's app/ (cbl/, cpy/, cpy-bms/, jcl/ ... and its app-*/ modules) and GenApp's base/ (src/,
cntl/, data/ ...). Every COBOL program is listed: served as a tool, or refused with its file:line.
Skipped, saying why, when the corpus is not there; each is copied first (the corpus is read-only)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
_PROGRAM_ID = re.compile(r"^ +PROGRAM-ID\.?\s+'?([A-Za-z][A-Za-z0-9-]*)", re.M)


def programs(folder: Path) -> dict[Path, str]:
    """Each COBOL program file of the application (a .cbl of any case with a PROGRAM-ID) and its PROGRAM-ID."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() == ".cbl":
            lines = path.read_text(encoding="latin-1").splitlines()
            named = _PROGRAM_ID.search("\n".join(line[6:72] for line in lines))  # fixed format's code area
            if named:
                found[path] = named.group(1)
    return found


@pytest.mark.parametrize(
    ("application", "count", "folders"),
    [
        ("carddemo/app", 44, "programs from cbl (31), app-authorization-ims-db2-mq/cbl (8), "
         "app-transaction-type-db2/cbl (3), app-vsam-mq/cbl (2)"),
        ("genapp/base", 31, "programs from src (31)"),
    ],
)  # fmt: skip
def test_check_lists_every_program_of_the_application(
    tmp_path: Path, cache_dir: Path, application: str, count: int, folders: str
) -> None:
    if not (CORPUS / application).is_dir():
        pytest.skip(f"the public applications are not at {CORPUS} (see its README)")
    app = Path(shutil.copytree(CORPUS / application, tmp_path / "app"))
    for path in [app, *app.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    command = [sys.executable, "-m", "cobol_mcp", "check", "--no-bundled", "--programs", str(app)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800, stdin=subprocess.DEVNULL)
    assert f"info:   {folders}" in done.stderr
    tools = {tool["name"] for tool in json.loads(done.stdout)["tools"]}
    errors = done.stderr[done.stderr.find("\nerror: ") :]
    found = programs(app)
    assert len(found) == count
    served, refused, missing = [], [], []
    for path, program_id in found.items():
        name = program_id.lower().replace("-", "_")
        if name in tools or f"app__{name}" in tools:
            served.append(path.name)
        elif re.search(rf"/{re.escape(path.name)}:\d+: ", errors):
            refused.append(path.name)
        else:
            missing.append(path.name)
    print(f"{application}: {len(served)} served, {len(refused)} refused: {', '.join(refused)}")
    assert missing == []  # neither served nor refused with its file:line
    assert served  # (the count grows as the features the refusals name are built)

"""Where the public applications are (``../shared/corpus`` beside the checkout), and copies of them to write beside.

The acceptance tests read GenApp and CardDemo as their owners ship them and skip, saying why, when
the folder is absent. The folder is read-only (CI lays it out without write bits): a test copies
what it needs into a temporary folder before anything is written beside it."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

CORPUS = Path(os.environ.get("COBOL_MCP_CORPUS", Path(__file__).resolve().parents[2].parent / "shared" / "corpus"))
GENAPP = CORPUS / "genapp" / "base"
CARDDEMO = CORPUS / "carddemo" / "app"


def needs(folder: Path) -> pytest.MarkDecorator:
    """Skip unless `folder` (a public application in the corpus) is there."""
    return pytest.mark.skipif(
        not folder.is_dir(),
        reason=f"{folder} is absent: the public applications are laid out in ../shared/corpus (see its README)",
    )


def writable_copy(source: Path, target: Path) -> Path:
    """`source` copied to `target`, every file and folder writable (the corpus has no write bits)."""
    shutil.copytree(source, target)
    for path in [target, *target.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)
    return target


def instream_sysin(jcl: Path) -> list[str]:
    """The in-stream data of every ``//SYSIN DD *`` of a job, as a DBA cuts it out: the lines after the DD
    statement up to its ``/*`` delimiter or the next JCL statement (``//``)."""
    decks: list[str] = []
    deck: list[str] | None = None
    for line in jcl.read_text().splitlines():
        if deck is not None:
            if line.startswith(("/*", "//")):
                decks.append("\n".join(deck) + "\n")
                deck = None
            else:
                deck.append(line)
                continue
        fields = line[2:].split()
        if line.startswith("//") and fields[:3] == ["SYSIN", "DD", "*"]:
            deck = []
    if deck is not None:
        decks.append("\n".join(deck) + "\n")
    return decks

"""A throwaway PostgreSQL cluster for a test: initdb and pg_ctl in a temporary folder, a Unix socket only.

As root, the cluster runs as the ``postgres`` user (PostgreSQL refuses to run as root). Tests skip,
saying why, where PostgreSQL's programs or psycopg are not installed.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _as_owner(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _program(name: str) -> str:
    """On PATH, or where Debian's postgresql package puts it (/usr/lib/postgresql/N/bin)."""
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if found is None:
        pytest.skip(f"PostgreSQL's {name} is not installed")
    return found


@pytest.fixture
def postgres_url() -> Iterator[str]:
    pytest.importorskip("psycopg", reason="psycopg (the postgresql extra) is not installed")
    initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
    root = Path(tempfile.mkdtemp(prefix="cobol-mcp-pg-"))  # not under pytest's folder: root-only, closed to postgres
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    data = root / "data"
    subprocess.run(_as_owner([initdb, "-D", str(data), "-A", "trust", "-U", "cobol"]),
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    options = f"-k {root} -c listen_addresses='' -c fsync=off"
    subprocess.run(_as_owner([pg_ctl, "-D", str(data), "-o", options, "-w", "-l", str(root / "log"), "start"]),
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    try:
        yield f"postgresql://cobol@/postgres?host={root}"
    finally:
        subprocess.run(_as_owner([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
                       capture_output=True, timeout=120)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)


def restart(url: str) -> None:
    """Restart the cluster of a :func:`postgres_url` (its sessions end, as at a database's restart)."""
    root = Path(url.split("host=", 1)[1])
    options = f"-k {root} -c listen_addresses='' -c fsync=off"
    command = [_program("pg_ctl"), "-D", str(root / "data"), "-o", options, "-m", "fast", "-w", "-l",
               str(root / "log"), "restart"]  # fmt: skip
    subprocess.run(_as_owner(command), check=True, capture_output=True, timeout=300)

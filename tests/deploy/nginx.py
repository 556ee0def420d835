"""nginx on a loopback port in front of replicas, with the recipe of deploy/nginx as its configuration.

Standard library only: bench/nginx_bench.py imports it too. The recipe's site file is used as
written except for what a test machine needs: the replicas' ports, a loopback listen port, and the
debugging header X-Upstream (which replica answered) switched on. Everything nginx writes (pid,
temp files, access log) stays in one directory; its error log goes to a file there.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

RECIPES = Path(__file__).resolve().parent.parent.parent / "deploy" / "nginx"
STATELESS = RECIPES / "cobol-mcp.conf"
SESSIONS = RECIPES / "cobol-mcp-sessions.conf"
SERVER_LINES = re.compile(
    r"(?m)^([ \t]*)server 127\.0\.0\.1:8001 ([^\n]*)\n(?:[ \t]*server 127\.0\.0\.1:800\d [^\n]*\n)*"
)


def nginx_binary() -> str | None:
    """Debian installs nginx in /usr/sbin, which is not on every user's PATH."""
    found = shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def replace_once(text: str, old: str, new: str) -> str:
    """`text` with every `old` replaced; at least one must be there, or the recipe changed under the test."""
    if old not in text:
        raise ValueError(f"the recipe no longer contains {old!r}")
    return text.replace(old, new)


def site_config(recipe: str | Path, replicas: list[int]) -> str:
    """The recipe (a path or its text) with its upstream servers pointing at `replicas`, listening on
    127.0.0.1 at a port Nginx fills in (`__PORT__`), X-Upstream switched on."""
    if isinstance(recipe, Path):
        recipe = recipe.read_text()
    text, count = SERVER_LINES.subn(
        lambda m: "".join(f"{m[1]}server 127.0.0.1:{replica} {m[2]}\n" for replica in replicas), recipe
    )
    if count == 0:
        raise ValueError("the recipe lists no `server 127.0.0.1:8001 ...` upstream lines")
    text = replace_once(text, "listen 80;", "listen 127.0.0.1:__PORT__;")
    return replace_once(text, "# add_header X-Upstream", "add_header X-Upstream")


class Nginx:
    """`nginx -p DIR -c DIR/nginx.conf -g 'daemon off; ...'`, ready once /healthz answers through it."""

    def __init__(self, directory: Path, site: str, workers: int | str = 1, access_log: bool = True) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed")
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/mcp"
        (self.dir / "site.conf").write_text(site.replace("__PORT__", str(self.port)))
        temp = "\n".join(
            f"    {kind}_temp_path {self.dir / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        user = "user root root;\n" if os.geteuid() == 0 else ""  # workers must reach this directory
        (self.dir / "nginx.conf").write_text(
            f"{user}worker_processes {workers};\n"
            "events { worker_connections 4096; }\n"
            "http {\n"
            f"{temp}\n"
            f"    access_log {self.dir / 'access.log' if access_log else 'off'};\n"
            f"    include {self.dir / 'site.conf'};\n"
            "}\n"
        )
        self.error_log = self.dir / "error.log"
        self.proc = subprocess.Popen(
            [
                binary,
                "-p",
                str(self.dir),
                "-c",
                str(self.dir / "nginx.conf"),
                "-e",
                str(self.error_log),
                "-g",
                f"daemon off; pid {self.dir / 'nginx.pid'}; error_log {self.error_log} warn;",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def errors(self) -> str:
        return self.error_log.read_text(errors="replace") if self.error_log.exists() else ""

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited with {self.proc.returncode}:\n{self.errors()}")
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.05)
        raise TimeoutError(f"nginx did not answer /healthz within {timeout:g} s:\n{self.errors()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # fast shutdown of the master and its workers
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def __enter__(self) -> Nginx:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

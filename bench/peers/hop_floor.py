"""The floor of a server that keeps the tool's code out of its own process: `floor.py`, plus a round
trip through a child process (`hop_floor.c`, which sends back every byte it reads) for each call.

It checks nothing and the child runs no code, so it is the least such a Python server can cost:
its call latency against `floor.py`'s is what the isolation of a COBOL worker costs by itself,
before any protocol, argument or record work. Requests are taken as they arrive; the calls of one
read cross to the child in one write (as the real server batches them), a lone call alone. The
child is compiled with `cc` into ~/.cache/cobol-mcp-bench on first use (its output on stderr).
"""

import json
import os
import sys

import floor  # this folder: the script's own

HERE = os.path.dirname(os.path.abspath(__file__))


def child() -> str:
    source = os.path.join(HERE, "hop_floor.c")
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cobol-mcp-bench")
    binary = os.path.join(cache, "hop_floor")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        import subprocess

        os.makedirs(cache, exist_ok=True)
        subprocess.run(["cc", "-O2", "-o", binary, source], check=True, stdout=sys.stderr)
    return binary


def spawn(binary: str) -> tuple[int, int]:
    """Start the child: (the fd that writes to it, the fd that reads from it)."""
    child_in, to_child = os.pipe()
    from_child, child_out = os.pipe()
    os.posix_spawn(
        binary,
        [binary],
        os.environ,
        file_actions=[
            (os.POSIX_SPAWN_DUP2, child_in, 0),
            (os.POSIX_SPAWN_DUP2, child_out, 1),
            (os.POSIX_SPAWN_CLOSE, to_child),
            (os.POSIX_SPAWN_CLOSE, from_child),
        ],
    )
    os.close(child_in)
    os.close(child_out)
    return to_child, from_child


def reply(message: dict, echoed: bytes) -> dict:
    """floor.py's reply; a call's arguments are the ones that came back from the child."""
    if message.get("method") == "tools/list":  # listed, so that mcpbench finds the tool
        return {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}
    if message.get("method") == "tools/call":
        a, b = echoed.decode().split("\0")
        message = {"method": "tools/call", "params": {"arguments": {"a": a, "b": b}}}
    return floor.reply(message)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def main() -> None:
    to_child, from_child = spawn(child())
    pending = b""
    while chunk := os.read(0, 1 << 16):
        *lines, pending = (pending + chunk).split(b"\n")
        messages = [json.loads(raw) for raw in lines if raw.strip()]
        sent = b"".join(
            f"{m['params']['arguments']['a']}\0{m['params']['arguments']['b']}\n".encode()
            for m in messages
            if m.get("method") == "tools/call"
        )
        back = b""
        if sent:
            write_all(to_child, sent)
            while len(back) < len(sent):
                back += os.read(from_child, len(sent) - len(back))
        echoes = iter(back.split(b"\n"))
        out = [
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": m["id"],
                    "result": reply(m, next(echoes) if m.get("method") == "tools/call" else b""),
                }
            )
            for m in messages
            if "id" in m
        ]
        if out:
            write_all(1, ("\n".join(out) + "\n").encode())


if __name__ == "__main__":
    main()

"""What the HTTP transport relies on inside uvicorn, checked against the installed uvicorn.

:mod:`cobol_mcp.transports.http.fastpath` and :mod:`.limits` subclass uvicorn's private
``HttpToolsProtocol`` and stand in for its ``RequestResponseCycle``. Those are not uvicorn's public
API: a release may rename or reshape them. pyproject.toml pins the uvicorn range this was tested
with; this test fails with a message naming what changed, so an upgrade cannot break the short path
quietly (wrong replies, or requests that hang)."""

from __future__ import annotations

import inspect
import re
import tomllib
from pathlib import Path

import pytest

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("httptools")

from uvicorn.protocols.http import flow_control, httptools_impl  # noqa: E402
from uvicorn.server import ServerState  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent

# Methods of HttpToolsProtocol that fastpath/limits override or call, with their parameters.
METHODS = {
    "connection_made": ["self", "transport"],
    "connection_lost": ["self", "exc"],
    "data_received": ["self", "data"],
    "on_message_begin": ["self"],
    "on_url": ["self", "url"],
    "on_header": ["self", "name", "value"],
    "on_headers_complete": ["self"],
    "on_body": ["self", "body"],
    "on_message_complete": ["self"],
    "on_response_complete": ["self"],
    "send_400_response": ["self", "msg"],
    "_unset_keepalive_if_required": ["self"],
}
# Attributes read or written on an instance (assigned somewhere in the class's own code).
ATTRIBUTES = {
    httptools_impl.HttpToolsProtocol: [
        "app", "cycle", "parser", "flow", "headers", "url", "expect_100_continue", "access_log",
        "limit_concurrency", "pipeline", "server_state", "transport", "connections", "timeout_keep_alive",
    ],
    httptools_impl.RequestResponseCycle: [
        "response_complete", "keep_alive", "disconnected", "message_event", "body", "more_body",
    ],
    flow_control.FlowControl: ["write_paused"],
    ServerState: ["default_headers", "total_requests", "connections"],
}  # fmt: skip


def drift(
    protocol: type, methods: dict[str, list[str]], attributes: dict[type, list[str]], module: object
) -> list[str]:
    """What of the expected surface the given classes no longer have."""
    found = []
    for name, params in methods.items():
        method = getattr(protocol, name, None)
        if method is None:
            found.append(f"{protocol.__name__}.{name} is gone")
        elif list(inspect.signature(method).parameters) != params:
            found.append(f"{protocol.__name__}.{name}{inspect.signature(method)} no longer takes {params}")
    for cls, names in attributes.items():
        source = inspect.getsource(cls)
        for name in names:
            if not re.search(rf"self\.{name}\s*(:[^=\n]*)?=[^=]", source) and not hasattr(cls, name):
                found.append(f"{cls.__name__}.{name} is no longer set")
    if not isinstance(getattr(module, "HIGH_WATER_LIMIT", None), int):
        found.append("uvicorn.protocols.http.flow_control.HIGH_WATER_LIMIT is gone")
    return found


def test_uvicorn_still_has_what_the_fast_path_relies_on():
    changed = drift(httptools_impl.HttpToolsProtocol, METHODS, ATTRIBUTES, flow_control)
    assert not changed, (
        f"uvicorn {uvicorn.__version__} changed the private surface that transports/http/fastpath.py and "
        f"limits.py build on: {'; '.join(changed)}. Adapt those modules, or keep uvicorn inside the range "
        "pinned in pyproject.toml."
    )


def test_the_installed_uvicorn_is_inside_the_pinned_range():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["http"]
    spec = next(item for item in extras if item.startswith("uvicorn"))
    bounds = re.findall(r"(>=|<)\s*([\d.]+)", spec)
    assert any(op == "<" for op, _ in bounds), f"uvicorn has no upper bound in pyproject.toml: {spec!r}"

    def key(text: str) -> tuple[int, ...]:
        return tuple(int(part) for part in text.split(".")[:3] if part.isdigit())

    installed = key(uvicorn.__version__)
    for op, version in bounds:
        inside = installed >= key(version) if op == ">=" else installed < key(version)
        assert inside, f"uvicorn {uvicorn.__version__} is outside the range pinned in pyproject.toml ({spec})"


def test_a_change_under_the_fast_path_is_named():
    class Changed:  # as if a release renamed on_body and reshaped on_header
        def connection_made(self, transport): ...
        def on_header(self, header): ...

    class Cycle:
        def __init__(self) -> None:
            self.keep_alive = True

    changed = drift(Changed, {"on_body": ["self", "body"], "on_header": ["self", "name", "value"]}, {}, flow_control)
    assert changed == [
        "Changed.on_body is gone",
        "Changed.on_header(self, header) no longer takes ['self', 'name', 'value']",
    ]
    assert drift(Changed, {}, {Cycle: ["keep_alive", "response_complete"]}, object()) == [
        "Cycle.response_complete is no longer set",
        "uvicorn.protocols.http.flow_control.HIGH_WATER_LIMIT is gone",
    ]

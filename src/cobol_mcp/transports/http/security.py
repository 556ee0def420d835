"""Who may talk to the HTTP endpoint: Host (DNS rebinding), Origin (browsers) and a bearer token.

- ``Host``: on a loopback bind, a browser tricked by DNS rebinding sends the attacker's host name;
  only loopback names (any port, for port forwarding) and the hosts of ``--allow-origin`` pass.
- ``Origin``: absent is fine (not a browser). Present, it must be the server's own, a loopback
  origin on a loopback bind, or one of ``--allow-origin`` (``*`` allows any).
- ``Authorization: Bearer <token>`` when a token is set, compared in constant time. Sessions are
  never a substitute for it: every request is checked.
"""

from __future__ import annotations

import hmac
import ipaddress

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})
WILDCARD_BINDS = frozenset({"", "0.0.0.0", "::", "[::]"})


def is_loopback(host: str) -> bool:
    """Whether binding to `host` keeps the server reachable from this machine only."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_name(value: str) -> str:
    """The host part of a Host header (`name`, `name:port`, `[v6]:port`), lower-cased."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[: end + 1] if end > 0 else value
    name, sep, port = value.rpartition(":")
    return name if sep and port.isdigit() else value


def origin_parts(origin: str) -> tuple[str, str, str] | None:
    """(scheme, host, port) of a serialized origin such as `http://localhost:6274`; None if malformed."""
    scheme, sep, rest = origin.strip().lower().partition("://")
    if not sep or scheme not in ("http", "https") or not rest or "/" in rest.rstrip("/"):
        return None
    rest = rest.rstrip("/")
    host = host_name(rest)
    port = rest[len(host) + 1 :] if len(rest) > len(host) else ("443" if scheme == "https" else "80")
    return scheme, host, port


class Guard:
    """Checks one request's headers; answers None (go ahead) or (status, message, extra headers)."""

    def __init__(
        self, bind_host: str, port: int, allow_origins: list[str] | tuple[str, ...] = (), token: str | None = None
    ) -> None:
        self.loopback = is_loopback(bind_host)
        self.any_origin = "*" in allow_origins
        self.origins: set[str] = set()
        extra_hosts: set[str] = set()
        for origin in allow_origins:
            parts = origin_parts(origin) if origin != "*" else None
            if parts is not None:
                scheme, host, port_text = parts
                self.origins.add(f"{scheme}://{host}:{port_text}")
                extra_hosts.add(host)
        if bind_host.lower() not in WILDCARD_BINDS:
            own = bind_host.lower() if not (":" in bind_host and not bind_host.startswith("[")) else f"[{bind_host}]"
            self.origins.add(f"http://{own}:{port}")
        self.hosts = (LOOPBACK_NAMES | extra_hosts) if self.loopback else None  # None: any Host
        self.token = token.encode() if token else None

    # ------------------------------------------------------------------------------ checks
    def check(
        self, host: bytes | None, origin: bytes | None, authorization: bytes | None, token_needed: bool = True
    ) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        if self.hosts is not None and host is not None and host_name(host.decode("latin-1")) not in self.hosts:
            return 421, "Misdirected Request: this server does not answer for that Host", []
        if origin is not None and not self.origin_allowed(origin.decode("latin-1")):
            return 403, "Forbidden: Origin not allowed (see --allow-origin)", []
        if self.token is not None and token_needed:
            return self.check_token(authorization)
        return None

    def origin_allowed(self, origin: str) -> bool:
        if self.any_origin:
            return True
        parts = origin_parts(origin)
        if parts is None:
            return False
        scheme, host, port = parts
        if f"{scheme}://{host}:{port}" in self.origins:
            return True
        return self.loopback and host in LOOPBACK_NAMES

    def check_token(self, authorization: bytes | None) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        if authorization is None:
            return (
                401,
                "Unauthorized: send 'Authorization: Bearer <token>'",
                [(b"www-authenticate", b'Bearer realm="mcp"')],
            )
        scheme, _, presented = authorization.strip().partition(b" ")
        if scheme.lower() != b"bearer" or not hmac.compare_digest(presented.strip(), self.token or b""):
            return (
                401,
                "Unauthorized: the bearer token is missing or wrong",
                [(b"www-authenticate", b'Bearer realm="mcp", error="invalid_token"')],
            )
        return None

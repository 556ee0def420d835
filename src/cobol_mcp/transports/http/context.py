"""What the parts of the HTTP transport share for one server: its settings, the protocol server once
started, the handshake-era sessions, the tool calls, the request guard and the budget of request-body
bytes being read. The ASGI application (:mod:`.app`) builds one; the door (:mod:`.door`), both ways
of answering a POST (:mod:`.posts`, :mod:`.lane`) and the connection code read it, and none of them
reaches into another."""

from __future__ import annotations

from ...protocol.dispatch import Dispatcher
from .calls import Calls
from .security import Guard
from .sessions import Sessions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...options import Options
    from ...protocol.session import Session
    from ...server import Server


class Settings:
    """The HTTP side of the command line."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 8000,
        stateless: bool = False,
        auth_token: str | None = None,
        allow_origins: list[str] | tuple[str, ...] = (),
        session_idle: float = 3600.0,
        max_body_bytes: int = 4 << 20,
        max_sessions: int = 10_000,
        max_calls: int = 1024,
        max_connections: int = 2048,
        read_timeout: float = 30.0,
        max_head_bytes: int = 64 << 10,
        max_buffered_bytes: int = 128 << 20,
        metrics: bool = False,
    ) -> None:
        self.host, self.port, self.stateless = host, port, stateless
        self.auth_token = auth_token or None
        self.allow_origins = list(allow_origins)
        self.session_idle = session_idle
        self.max_body_bytes = max_body_bytes
        self.max_sessions = max_sessions  # open handshake-era sessions; more: 503
        self.max_calls = max_calls  # tool calls running or queued for a COBOL worker; more: 503
        self.max_connections = max_connections  # open connections; more: 503 (see limits)
        self.read_timeout = read_timeout  # seconds for a request's headers, then for its body; later: 408
        self.max_head_bytes = max_head_bytes  # request line and headers; more: 431
        self.max_buffered_bytes = max_buffered_bytes  # request bodies being read, all together; more: 503
        self.metrics = metrics  # serve /metrics (Prometheus)


class Context:
    """The shared services of one HTTP server. `server` is set at start-up, on the serving loop."""

    def __init__(self, options: Options, settings: Settings) -> None:
        self.options, self.settings = options, settings
        self.guard = Guard(settings.host, settings.port, settings.allow_origins, settings.auth_token)
        self.calls = Calls(settings.max_calls)
        self.sessions = Sessions(
            0.0 if settings.stateless else settings.session_idle, self.calls, settings.max_sessions
        )
        self.server: Server | None = None
        self.dispatcher: Dispatcher | None = None  # the eras of the server's offer (see protocol.dispatch)
        self.buffered = 0  # bytes of request bodies being read now, by either path (max_buffered_bytes)

    def started(self, server: Server) -> Dispatcher:
        """The server is built: requests may be dispatched from now on."""
        self.server = server
        self.dispatcher = Dispatcher(server.model, strict_lifecycle=self.options.strict_lifecycle)
        return self.dispatcher

    @property
    def dispatch(self) -> Dispatcher:
        if self.dispatcher is None:
            raise RuntimeError("the HTTP server has not started")
        return self.dispatcher

    def new_session(self) -> Session:
        return self.dispatch.new_session()

    def fresh_session(self, version: bytes | None) -> Session:
        """The session a stateless handshake-era request is served by: new, taken as initialized."""
        return self.dispatch.fresh_session(version.decode("latin-1") if version is not None else None)

"""A COBOL program as an MCP tool: arguments -> LINKAGE records -> worker -> JSON result.

Tools are built from manifest entries (plain data, :class:`.prepare.entries.CallableEntry`, made by
:mod:`.prepare.tool_entry`), so a warm start imports neither the parser nor the codec; both load on
first use, or earlier through :meth:`CobolTool.warm` while the server is idle. This module only runs
programs: it never compiles.
"""

from __future__ import annotations

from .. import log
from ..catalog import error_result
from ..jsontext import dumps, encoded, quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol

    from ..catalog import Done
    from .linkage.model import ProgramSpec
    from .prepare.entries import CallableEntry
    from .records.plan import Plan
    from .runtime.pool import CallResult, Runtime

    class Session(Protocol):
        """One call's answers to its program's mid-call requests (see :mod:`cobol_mcp.sqlbridge`)."""

        def answer(self, exchange: Any) -> list[bytes] | None: ...

        def end(self, ok: bool) -> None: ...

    class Services(Protocol):
        def session(self) -> Session: ...

    class Presentation(Protocol):
        """Optional per-tool polish over the derived behaviour (used by the bundled tools)."""

        def definition(self, derived: dict[str, Any]) -> dict[str, Any]: ...

        def arguments(self, arguments: dict[str, Any]) -> tuple[dict[str, Any], Any]: ...

        def result(self, context: Any, outputs: dict[str, Any], call: CallResult) -> dict[str, Any]: ...


class ArgumentError(ValueError):
    """The caller's arguments cannot be sent to the program; the message says how to fix them."""


_codec: Any = None


def _load_codec() -> Any:
    global _codec
    if _codec is None:
        from .records import codec

        _codec = codec
    return _codec


def user_paths(text: str, source: str) -> str:
    """``text`` (libcob's runtime error) with each path of a precompiled or translated program (its text
    in the build cache, ``…/sql/KEY/NAME`` or ``…/cics/KEY/NAME``, which keeps the user's line numbers)
    turned into the user's file ``NAME`` in the folder of ``source`` (the tool's program): the program
    that failed, the tool's own or one it CALLed or LINKed to, is named by its own file and line."""
    import os
    import re

    folder = os.path.dirname(source)
    generated = re.compile(r"(?:[^\s:;'\"]*/)?(?:sql|cics)/[0-9a-f]{32}/([^/\s:;'\"]+)")
    return generated.sub(lambda m: os.path.join(folder, m.group(1)), text)


class CobolTool:
    def __init__(
        self,
        entry: CallableEntry,
        runtime: Runtime,
        *,
        backend: str,
        presentation: Presentation | None = None,
        timeout: float | None = None,
        services: Services | None = None,
    ) -> None:
        self.name = entry["tool_name"]
        self.program_id = entry["program_id"]
        # A program that asks the server mid-call (EXEC SQL): one session per call answers it, and ends
        # with the call (committed when the program ended normally, rolled back otherwise)
        self.services = services
        self._sessions: dict[object, Session] = {}
        self.runtime = runtime
        self.presentation = presentation
        self.timeout = timeout
        self._entry = entry
        self._spec: ProgramSpec | None = None
        self._plan: Plan | None = None
        self._key = f"{backend}/{self.program_id}"
        self._padding = [b" "] * entry["padding"]  # see ProgramSpec.call_params; worked out once
        runtime.load(
            self._key,
            entry["module"],
            entry["symbol"],
            entry["sizes"],
            driver=entry["driver"],
            program_id=self.program_id,
            driver_symbol=entry["driver_symbol"],
        )

    @property
    def bundled(self) -> bool:
        """One of the tools the package ships (not a program of a --programs folder)."""
        return self._entry["bundled"]

    @property
    def variant(self) -> str | None:
        """The ``[programs.PROGRAM.tools.NAME]`` this tool is, when its program is published as several."""
        return self._entry.get("variant")

    @property
    def spec(self) -> ProgramSpec:
        if self._spec is None:
            from .prepare.specfile import load_spec

            self._spec = load_spec(self._entry["spec_path"])
        return self._spec

    def warm(self) -> None:
        """Load what any first call needs (the codec) ahead of it. The tool's own spec and plan wait for
        its first call: a client's first call usually follows the initialize reply at once, and a
        folder may hold hundreds of programs."""
        _load_codec()

    def definition(self) -> dict[str, Any]:
        derived = {**self._entry["definition"], "name": self.name}
        return self.presentation.definition(derived) if self.presentation else derived

    def start(self, arguments: dict[str, Any], done: Done) -> object | None:
        plan = self._plan or self._make_plan()
        try:
            if self.presentation:
                record_arguments, context = self.presentation.arguments(arguments)
            else:
                record_arguments, context = arguments, None
            buffers = plan.encode(record_arguments)
            if self._padding:
                buffers += self._padding
        except (ArgumentError, _codec.FieldError) as exc:
            done(error_result(f"Invalid arguments for tool {self.name!r}: {exc}"))
            return None

        session = self.services.session() if self.services is not None else None
        first = getattr(session, "first", None)  # a CICS program: the EIB filled before it starts
        if first is not None:  # (with a channel-style tool's channel: its presentation's context)
            buffers = first(buffers, context)
        handle: list[object] = []

        def finished(call: CallResult) -> None:
            if session is not None:
                self._sessions.pop(handle[0] if handle else None, None)
                call = self._end(session, call)
            try:
                done(self._result(context, call))
            except Exception as exc:
                log.exception(f"presenting the result of {self.name!r} failed")
                done(exc)

        if session is None:
            return self.runtime.submit(self._key, buffers, finished, self.timeout)
        call_id = self.runtime.submit(self._key, buffers, finished, self.timeout, service=session.answer)
        handle.append(call_id)
        self._sessions[call_id] = session
        return call_id

    def start_task(self, task: object, done: Callable[[CallResult], object]) -> object | None:
        """Run the program as a task the server starts itself (a CICS transaction STARTed by another call):
        no arguments, its records zeros, ``task`` handed to its session's ``first`` (which fills the EIB);
        ``done`` gets the call's result once its unit of work has ended."""
        assert self.services is not None
        session = self.services.session()
        first = getattr(session, "first", None)
        buffers = [bytes(size) for size in self._entry["sizes"]] + self._padding
        if first is not None:
            buffers = first(buffers, task)
        handle: list[object] = []

        def finished(call: CallResult) -> None:
            self._sessions.pop(handle[0] if handle else None, None)
            done(self._end(session, call))

        call_id = self.runtime.submit(self._key, buffers, finished, self.timeout, service=session.answer, alone=True)
        handle.append(call_id)
        self._sessions[call_id] = session
        return call_id

    def _end(self, session: Session, call: CallResult) -> CallResult:
        """Commit the call's unit of work after a normal end (any RETURN-CODE), roll it back otherwise; a
        commit that fails makes the call fail."""
        try:
            session.end(call.ok)
        except Exception as exc:
            from .runtime.pool import CallResult

            log.exception(f"ending the unit of work of {self.name!r} failed")
            what = "committed" if call.ok else "rolled back"
            return CallResult(False, call.return_code, [], call.display, f"its unit of work could not be {what}: {exc}")
        return call

    def roll_back(self, handle: object) -> None:
        """The call was killed (cancelled, or the server stopped): its unit of work is rolled back."""
        session = self._sessions.pop(handle, None)
        if session is not None:
            try:
                session.end(False)
            except Exception:
                log.exception(f"rolling back the unit of work of {self.name!r} failed")

    def _make_plan(self) -> Plan:
        """The codec's plan for this tool's spec (:mod:`.records.plan`), made on first use and kept."""
        self._plan = _load_codec().plan(self.spec)
        return self._plan

    def cancel(self, handle: object) -> bool:
        stopped = isinstance(handle, int) and self.runtime.cancel(handle)  # handles are the runtime's call ids
        self.roll_back(handle)  # no callback follows a cancelled call
        return stopped

    def _result(self, context: Any, call: CallResult) -> dict[str, Any]:
        if not call.ok:
            error = user_paths(call.error, self._entry["source"]) if call.error and "/" in call.error else call.error
            failed = error_result(f"COBOL program {self.program_id} failed: {error}")
            _add_display(failed, call.display)
            return failed
        records = call.buffers[: -len(self._padding)] if self._padding else call.buffers
        outputs = (self._plan or self._make_plan()).decode(records, None)
        if self.presentation:
            return self.presentation.result(context, outputs, call)
        text = dumps(outputs)
        content = [{"type": "text", "text": text}]
        if call.return_code == 0 and not call.display:  # the usual reply: the outputs encoded once, not twice
            return encoded(
                {"content": content, "structuredContent": outputs},
                f'{{"content":[{{"type":"text","text":{quote(text)}}}],"structuredContent":{text}}}',
            )
        result: dict[str, Any] = {"content": content, "structuredContent": outputs}
        if call.return_code != 0:
            result["isError"] = True
            content.insert(
                0,
                {
                    "type": "text",
                    "text": f"COBOL program {self.program_id} ended with "
                    f"RETURN-CODE {call.return_code}; its outputs follow.",
                },
            )
        _add_display(result, call.display)
        return result


def _add_display(result: dict[str, Any], display: str) -> None:
    if display:
        result["content"].append({"type": "text", "text": f"DISPLAY output:\n{display}"})

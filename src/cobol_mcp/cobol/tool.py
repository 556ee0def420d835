"""A COBOL program as an MCP tool: arguments -> LINKAGE records -> worker -> JSON result.

Tools are built from manifest entries (plain data), so a warm start imports neither the parser
nor the codec; both load on first use, or earlier through :meth:`CobolTool.warm` while the
server is idle.
"""

from __future__ import annotations

from .. import log
from ..catalog import error_result
from ..jsontext import dumps, encoded, quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    from ..catalog import Done
    from .linkage.model import ProgramSpec
    from .prepare.programs import CompiledProgram
    from .records.plan import Plan
    from .runtime.pool import CallResult, Runtime

    class Session(Protocol):
        """One call's answers to its program's mid-call requests (see :mod:`cobol_mcp.sqlbridge`)."""

        def answer(self, exchange: Any) -> list[bytes]: ...

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


def manifest_entry(program: CompiledProgram, bundled: bool) -> dict[str, Any]:
    """The plain-data record of one compiled program that a warm start builds its tool from."""
    from .prepare.driver import MAX_RECORDS, build_driver
    from .records import schema

    spec = program.spec
    # Calls go through the COBOL caller (EXIT PROGRAM returns, RETURN-CODE is reset): it is kept in
    # the same cache as the program's module.
    driver, caller = None, ""
    if any(record.by_value or record.field.any_length for record in spec.records):
        from .prepare.value_caller import build_value_caller

        # BY VALUE and ANY LENGTH items need a caller of the program's own shape; without it they
        # cannot be passed
        driver, caller = build_value_caller(spec, program.module.parent.parent)
    elif len(spec.records) <= MAX_RECORDS:
        from .prepare.cobc import BuildError

        try:
            driver = build_driver(program.module.parent.parent)
        except BuildError as exc:  # the program itself compiled: it is still served, called directly
            log.error(f"the COBOL caller could not be compiled; EXIT PROGRAM will not return: {exc}")
    else:
        log.warning(
            f"{spec.source}: {spec.program_id} has over {MAX_RECORDS} USING records: called directly, "
            "so EXIT PROGRAM does not return (end it with GOBACK)"
        )
    return {
        "tool_name": spec.tool_name,
        "program_id": spec.program_id,
        "module": str(program.module),
        "symbol": spec.entry_symbol,
        "driver": str(driver) if driver else None,
        "driver_symbol": caller,
        "sizes": [record.size for record in spec.records] + [1] * _padding(spec),
        "padding": _padding(spec),
        "bundled": bundled,
        "definition": {
            "name": spec.tool_name,
            "title": spec.program_id,
            "description": spec.description or f"COBOL program {spec.program_id}.",
            "inputSchema": schema.input_schema(spec),
            "outputSchema": schema.output_schema(spec),
        },
        "spec_path": str(program.spec_path),
        "source": str(program.spec.source),
    } | ({"sql": _sql_entry(program)} if program.sql is not None else {})


def _sql_entry(program: CompiledProgram) -> dict[str, Any]:
    from .prepare.sql import sql_entry

    assert program.sql is not None
    return sql_entry(program.sql, program.spec.source, program.spec.source_format, program.spec.dialect)


def _padding(spec: ProgramSpec) -> int:
    """One-byte parameters passed after the records only to make the call's parameter count right."""
    return max(0, spec.call_params - len(spec.records))


class CobolTool:
    def __init__(
        self,
        entry: dict[str, Any],
        runtime: Runtime,
        *,
        backend: str,
        presentation: Presentation | None = None,
        timeout: float | None = None,
        services: Services | None = None,
    ) -> None:
        self.name: str = entry["tool_name"]
        # A program that asks the server mid-call (EXEC SQL): one session per call answers it, and ends
        # with the call (committed when the program ended normally, rolled back otherwise)
        self.services = services
        self._sessions: dict[object, Session] = {}
        self.program_id: str = entry["program_id"]
        self.runtime = runtime
        self.presentation = presentation
        self.timeout = timeout
        self._entry = entry
        self._spec: ProgramSpec | None = None
        self._plan: Plan | None = None
        self._key = f"{backend}/{self.program_id}"
        self._padding = [b" "] * entry.get("padding", 0)  # see ProgramSpec.call_params; worked out once
        runtime.load(
            self._key,
            entry["module"],
            entry["symbol"],
            entry["sizes"],
            driver=entry.get("driver"),
            program_id=self.program_id,
            driver_symbol=entry.get("driver_symbol", ""),
        )

    @property
    def bundled(self) -> bool:
        """One of the tools the package ships (not a program of a --programs folder)."""
        return bool(self._entry["bundled"])

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
            failed = error_result(f"COBOL program {self.program_id} failed: {call.error}")
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

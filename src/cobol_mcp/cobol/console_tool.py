"""A console program (PROCEDURE DIVISION without USING) as an MCP tool.

The tool takes ``input`` (standard input, one line per ACCEPT) and ``args`` (the command line) when
the program ACCEPTs them, runs the program as its own run unit (:mod:`.runtime.rununit`) and returns
what it DISPLAYed: the text result, and ``stdout``, ``stderr`` and ``return_code`` in
``structuredContent``. STOP RUN and GOBACK are normal ends; RETURN-CODE other than 0 is an error
result with the output still returned. A run unit killed by a signal is an error result that names
the signal and, where libcob caught it, the place and libcob's words (:mod:`.runtime.faults`), with its
DISPLAY output and its output files as they were left, marked partial.

A console program with EXEC SQL (a DB2 batch program) is given ``services`` (the program prepared
against its folder's database, :class:`cobol_mcp.sqlbridge.served.Served`): each call is one unit of work,
its statements answered while the run unit runs (:mod:`.runtime.unit_channel`), committed at a normal
end (STOP RUN or GOBACK, whatever the RETURN-CODE, as a batch step's) and at the program's own COMMITs,
rolled back when it dies (a signal, a libcob runtime error), times out or is cancelled.

Tools are built from manifest entries (:class:`.prepare.entries.ConsoleEntry`, made with the program's
executable by :mod:`.prepare.tool_entry`): this module only runs them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import TYPE_CHECKING, Any

from ..catalog import error_result
from .runtime.faults import SignalDeath, runtime_error, signal_death
from .runtime.gate import Gate, Waiter, gate_for
from .runtime.rununit import RunResult, RunUnit, start_run_unit
from .runtime.unit_channel import Guarded

if TYPE_CHECKING:
    from ..catalog import Done
    from .prepare.entries import ConsoleEntry

DEFAULT_TIMEOUT = 10.0
FILE_LIMIT = 64 << 10  # characters of a written file returned in the result


class _Pending(Waiter):
    """A call at the data directory's gate, queued or running: cancellable either way."""

    def __init__(self, start: Any, gate: Gate, shared: bool) -> None:
        super().__init__(self._launch, shared)
        self._start = start
        self.gate = gate
        self.unit: RunUnit | None = None

    def _launch(self) -> None:
        unit = self._start()
        if unit is None:  # it could not start (and has reported so)
            self.gate.leave()
            return
        self.unit = unit
        unit.on_end = self.gate.leave

    def cancel(self) -> bool:
        if self.cancelled:
            return False
        self.cancelled = True
        return self.unit.cancel() if self.unit is not None else True


class ConsoleTool:
    def __init__(
        self,
        entry: ConsoleEntry,
        loop: Any,
        *,
        timeout: float | None = None,
        data_dir: str | None = None,
        services: Any = None,
        library_path: str = "",
    ) -> None:
        self.services = services  # EXEC SQL: its ``session()`` is one call's unit of work
        self.library_path = library_path  # where its CALLs find the folder's programs (COB_LIBRARY_PATH)
        self.name = entry["tool_name"]
        self.program_id = entry["program_id"]
        self.loop = loop
        self.timeout = timeout
        self._entry = entry
        self._executable = entry["module"]
        self.data_dir = data_dir  # files resolve here: the working directory and COB_FILE_PATH
        # Calls that open its files pass the data directory's gate (runtime.gate), exclusive when they write
        # one, shared when they only read (a database needs none: its units of work keep concurrent batch
        # runs apart, as DB2's locks do)
        self.writes = any({"OUTPUT", "EXTEND", "I-O"} & set(use["modes"]) for use in entry["files"].values())

    def warm(self) -> None:
        pass

    def summary(self) -> str:
        """One line for `check`: the kind, what the program reads and the files it opens."""
        properties = self._entry["definition"]["inputSchema"]["properties"]
        inputs = ", ".join(properties) or "none"
        files = self._entry["files"]
        kind = "file-using" if files else "console"
        opened = "; ".join(
            f"{use['assign']} ({select}: {'/'.join(use['modes']) or 'not opened'})" for select, use in files.items()
        )
        return f"{self.name}: {kind}, inputs: {inputs}" + (f", files: {opened}" if opened else "")

    def definition(self) -> dict[str, Any]:
        definition: dict[str, Any] = {**self._entry["definition"], "name": self.name}
        return definition

    def start(self, arguments: dict[str, Any], done: Done) -> object | None:
        try:
            stdin, args, given = self._arguments(arguments)
        except ValueError as exc:
            done(error_result(f"Invalid arguments for tool {self.name!r}: {exc}"))
            return None

        outside = self._outside(given)
        if outside is not None:
            done(error_result(outside))
            return None
        private = tempfile.mkdtemp(prefix="cobol-mcp-files-") if given else None
        service = Guarded(self.services.session()) if self.services is not None else None

        def finished(run: RunResult) -> None:
            if private is not None:
                shutil.rmtree(private, ignore_errors=True)
            if service is not None:
                run = self._end(service, run)
            try:
                done(self._result(run))
            except Exception as exc:
                done(exc)

        timeout = DEFAULT_TIMEOUT if self.timeout is None else self.timeout
        env = dict(os.environ)
        if self.library_path:  # searched first, as by the workers (cobol.prepare.links)
            inherited = env.get("COB_LIBRARY_PATH", "")
            env["COB_LIBRARY_PATH"] = os.pathsep.join((self.library_path, inherited)).rstrip(os.pathsep)
        for name in [key for key in env if key.upper().startswith("DD_")]:
            del env[name]  # the server's own environment never redirects a program's files:
        for name in list(env):  # libcob maps an ASSIGN name X through DD_X, dd_X or X; DD_X = X keeps
            env[f"DD_{name}"] = name  # each variable's name a plain file of the data directory
        if self.data_dir is not None:
            env["COB_FILE_PATH"] = self.data_dir
        if private is not None:
            for name, data in given.items():  # given files live in a private folder, for this call only
                path = os.path.join(private, name)
                with open(path, "wb") as handle:
                    handle.write(data)
                env[f"DD_{name}"] = path

        def start() -> RunUnit | None:
            return start_run_unit(
                self.loop,
                [self._executable, *args],
                stdin,
                env=env,
                cwd=self.data_dir,
                timeout=timeout,
                callback=finished,
                service=service,
                files=[self.data_dir or os.getcwd(), *([private] if private is not None else [])],
            )

        if not self._entry["files"]:
            return start()
        gate = gate_for(self.data_dir or os.getcwd(), self.loop)
        pending = _Pending(start, gate, shared=not self.writes)
        gate.enter(pending)
        return pending

    def _end(self, service: Guarded, run: RunResult) -> RunResult:
        """Commit the call's unit of work after a normal end (any RETURN-CODE), roll it back when the run
        unit did not end normally; a commit that fails makes the call fail."""
        code = run.return_code
        ok = run.error is None and signal_death(-code if code < 0 else None, code if code > 0 else None,
                                                run.stderr.decode("latin-1")) is None  # fmt: skip
        ok = ok and runtime_error(code, run.stderr.decode("latin-1")) is None
        try:
            service.end(ok)
        except Exception as exc:
            what = "committed" if ok else "rolled back"
            return RunResult(
                code, run.stdout, run.stderr, run.truncated, f"its unit of work could not be {what}: {exc}"
            )
        return run

    def cancel(self, handle: object) -> bool:
        return isinstance(handle, RunUnit | _Pending) and handle.cancel()

    def _outside(self, given: dict[str, bytes]) -> str | None:
        """Why a file of this call would be outside the data directory (a symbolic link there that
        points elsewhere), or None. ASSIGN names were checked when the program was read; links are
        looked at on each call, since they can change."""
        base = os.path.realpath(self.data_dir or os.getcwd())
        for select, use in self._entry["files"].items():
            name = use["assign"]
            if name in given:
                continue  # given with the call: a private file, not the data directory's
            target = os.path.realpath(os.path.join(base, name))
            if os.path.commonpath((base, target)) != base:
                return (
                    f"Tool {self.name!r} was not run: its file {name} ({select}) is a link to {target}, "
                    f"outside the data directory {base}"
                )
        return None

    def _arguments(self, arguments: dict[str, Any]) -> tuple[bytes, list[str], dict[str, bytes]]:
        properties = self._entry["definition"]["inputSchema"]["properties"]
        unknown = sorted(set(arguments) - set(properties))
        if unknown:
            allowed = ", ".join(properties) or "none"
            raise ValueError(f"unknown argument {unknown[0]!r} (this program takes: {allowed})")
        text = arguments.get("input", "")
        if not isinstance(text, str):
            raise ValueError("'input' must be a string: the lines the program ACCEPTs, separated by newlines")
        args = arguments.get("args", [])
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise ValueError("'args' must be an array of strings (the command line)")
        if any("\0" in a for a in args):
            raise ValueError("'args' must not contain NUL characters")
        given = self._files(arguments.get("files", {}), properties.get("files", {}).get("properties", {}))
        records = {use["assign"]: use["record"] for use in self._entry["files"].values() if "record" in use}
        given = {name: _records(name, data, records[name]) if name in records else data for name, data in given.items()}
        if text and not text.endswith("\n"):
            text += "\n"
        try:
            return text.encode("latin-1"), list(args), given
        except UnicodeEncodeError as exc:
            raise ValueError(f"'input' holds {exc.object[exc.start]!r}, which is not Latin-1 text") from None

    @staticmethod
    def _files(files: Any, allowed: dict[str, Any]) -> dict[str, bytes]:
        if not isinstance(files, dict):
            raise ValueError("'files' must be an object: ASSIGN name -> the file's text")
        given: dict[str, bytes] = {}
        for name, text in files.items():
            if name not in allowed:
                raise ValueError(
                    f"'files' has {name!r}, which the program does not read (it reads: "
                    + (", ".join(allowed) or "none")
                    + ")"
                )
            if not isinstance(text, str):
                raise ValueError(f"'files.{name}' must be a string: the file's text, one record per line")
            if text and not text.endswith("\n"):
                text += "\n"
            try:
                given[name] = text.encode("latin-1")
            except UnicodeEncodeError as exc:
                raise ValueError(f"'files.{name}' holds {exc.object[exc.start]!r}, which is not Latin-1") from None
        return given

    def _written(self) -> tuple[dict[str, str], list[str]]:
        """The text files the program opens OUTPUT or EXTEND, as they are now (cut at FILE_LIMIT)."""
        written: dict[str, str] = {}
        cut: list[str] = []
        for use in self._entry["files"].values():
            if not {"OUTPUT", "EXTEND"} & set(use["modes"]):
                continue
            try:
                with open(os.path.join(self.data_dir or os.getcwd(), use["assign"]), "rb") as handle:
                    data = handle.read(FILE_LIMIT + 1)
            except OSError:
                continue
            if b"\0" in data:
                continue  # not a text file (indexed, relative, binary records)
            if "record" in use:  # record sequential: one record per line, as it was given
                size = use["record"]
                data = b"".join(data[at : at + size] + b"\n" for at in range(0, len(data), size))
            if len(data) > FILE_LIMIT:
                data = data[:FILE_LIMIT]
                cut.append(use["assign"])
            written[use["assign"]] = data.decode("latin-1")
        return written, cut

    def _result(self, run: RunResult) -> dict[str, Any]:
        stdout = run.stdout.decode("latin-1")
        stderr = run.stderr.decode("latin-1")
        structured: dict[str, Any] = {"stdout": stdout, "stderr": stderr, "return_code": run.return_code}
        if run.error is not None:
            failed = error_result(f"COBOL program {self.program_id} failed: {run.error}")
            if stdout or stderr:
                failed["content"].append({"type": "text", "text": f"output so far:\n{stdout}{stderr}"})
            return failed
        code = run.return_code
        death = signal_death(-code if code < 0 else None, code if code > 0 else None, stderr)
        if death is not None:
            return self._died(death, structured)
        content: list[dict[str, Any]] = [{"type": "text", "text": stdout}]
        result: dict[str, Any] = {"content": content, "structuredContent": structured}
        written, cut = self._written()
        if written:
            structured["files"] = written
        content += self._cut_notes(cut)
        if stderr:
            content.append({"type": "text", "text": f"SYSERR:\n{stderr}"})
        if run.truncated:
            content.append({"type": "text", "text": "(output cut at 1 MiB)"})
        if run.return_code != 0:
            result["isError"] = True
            ended = f"COBOL program {self.program_id} ended with RETURN-CODE {run.return_code}; its output follows."
            content.insert(0, {"type": "text", "text": ended})
        return result

    def _died(self, death: SignalDeath, structured: dict[str, Any]) -> dict[str, Any]:
        """An error result for a run unit a signal ended: what happened, then what it wrote before
        (its DISPLAY output and its output files as they were), each marked partial."""
        stdout, stderr = structured["stdout"], structured["stderr"]
        written, cut = self._written()
        structured.update(signal=death.signal, partial=True)
        if death.location:
            structured["location"] = death.location
        if written:
            structured["files"] = written
        said = f"COBOL program {self.program_id} was {death.sentence()}. It did not finish: "
        said += "what it wrote before it died follows, partial."
        shown = f"DISPLAY output (partial):\n{stdout}" if stdout else "DISPLAY output: none"
        content: list[dict[str, Any]] = [{"type": "text", "text": said}, {"type": "text", "text": shown}]
        for name, text in written.items():
            content.append({"type": "text", "text": f"file {name} as it was left (partial):\n{text or '(empty)'}"})
        content += self._cut_notes(cut)
        if stderr:
            content.append({"type": "text", "text": f"SYSERR:\n{stderr}"})
        return {"content": content, "structuredContent": structured, "isError": True}

    @staticmethod
    def _cut_notes(cut: list[str]) -> list[dict[str, Any]]:
        note = "(file {} is longer than {} bytes: its text in 'files' is cut there; the file itself is whole)"
        return [{"type": "text", "text": note.format(name, FILE_LIMIT)} for name in cut]


def _records(name: str, text: bytes, size: int) -> bytes:
    """The text given for a record sequential file, one record per line, as the file's fixed records: each
    line padded with spaces to the record size (a longer line is an error naming it)."""
    lines = text.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out = []
    for number, line in enumerate(lines, 1):
        line = line.removesuffix(b"\r")
        if len(line) > size:
            raise ValueError(
                f"'files.{name}' line {number} has {len(line)} characters: its records are {size} (one per line)"
            )
        out.append(line.ljust(size))
    return b"".join(out)

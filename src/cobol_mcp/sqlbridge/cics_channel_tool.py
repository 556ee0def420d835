"""A channel-style CICS program's tool: its arguments become containers, its containers its result.

:class:`ChannelTool` is the tool's presentation (:class:`..cobol.tool.Presentation`). For each call it
makes the program's channel (:class:`.cics_channels.Channel`, named as the manifest entry says) and
puts each in/inout container the arguments give (a container left out gets its record's initial
values), encoded by the codec from the container's record (:mod:`..cobol.prepare.channel`); the
channel goes to the call's CICS session as the program's current channel. After the call, each
out/inout container the program left in the channel is decoded (cut or padded with spaces to its
record's size); one it did not PUT (or DELETEd) is absent from the result, not a record of zeros.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cobol.tool import ArgumentError
from ..jsontext import dumps
from .cics_channels import Channel, Container

if TYPE_CHECKING:
    from ..cobol.prepare.entries import ChannelEntry, ContainerEntry
    from ..cobol.records.plan import Plan
    from ..cobol.runtime.pool import CallResult

__all__ = ["ChannelTool"]


class ChannelTool:
    def __init__(self, channel: ChannelEntry, program_id: str) -> None:
        self.channel, self.program_id = channel, program_id
        self._plans: dict[str, tuple[Plan, int]] | None = None

    def _load(self) -> dict[str, tuple[Plan, int]]:
        """Each container's codec plan and record size, made on first use and kept."""
        if self._plans is None:
            from ..cobol.prepare.specfile import load_spec
            from ..cobol.records import codec

            plans = {}
            for container in self.channel["containers"]:
                spec = load_spec(container["spec_path"])
                plans[container["name"]] = (codec.plan(spec), spec.records[0].size)
            self._plans = plans
        return self._plans

    def _given(self, mode: str) -> list[ContainerEntry]:
        return [c for c in self.channel["containers"] if c["direction"] in (mode, "inout")]

    def definition(self, derived: dict[str, Any]) -> dict[str, Any]:
        return derived

    def arguments(self, arguments: dict[str, Any]) -> tuple[dict[str, Any], Channel]:
        plans = self._load()
        inputs = self._given("in")
        unknown = sorted(set(arguments) - {c["key"] for c in inputs})
        if unknown:
            known = ", ".join(c["key"] for c in inputs) or "none"
            raise ArgumentError(f"unknown argument {unknown[0]!r}: the containers given are {known}")
        channel = Channel(self.channel["name"])
        for container in inputs:
            value = arguments.get(container["key"], {})
            if not isinstance(value, dict):
                raise ArgumentError(f"{container['key']}: must be an object (the {container['name']} container)")
            try:
                data = plans[container["name"]][0].encode(value)[0]
            except ValueError as exc:
                raise ArgumentError(f"{container['key']}: {exc}") from None
            channel.containers[container["name"]] = Container(data)
        return {}, channel

    def result(self, context: Channel, outputs: dict[str, Any], call: CallResult) -> dict[str, Any]:
        plans = self._load()
        found: dict[str, Any] = {}
        for container in self._given("out"):
            put = context.containers.get(container["name"])
            if put is None:
                continue
            plan, size = plans[container["name"]]
            found[container["key"]] = plan.decode([put.data[:size].ljust(size, b" ")], None)
        content = [{"type": "text", "text": dumps(found)}]
        result: dict[str, Any] = {"content": content, "structuredContent": found}
        if call.return_code != 0:
            result["isError"] = True
            content.insert(0, {"type": "text", "text": f"COBOL program {self.program_id} ended with "
                               f"RETURN-CODE {call.return_code}; its containers follow."})  # fmt: skip
        if call.display:
            content.append({"type": "text", "text": f"DISPLAY output:\n{call.display}"})
        return result

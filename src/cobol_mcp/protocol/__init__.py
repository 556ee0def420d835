"""The MCP protocol core: bytes in, replies and events out. Pure functions and state, no I/O.

Owns: :mod:`.framing` (bounded line framing), :mod:`.jsonrpc` (the strict JSON-RPC 2.0 message
model, replies as bytes), :mod:`.model` (what the server offers), :mod:`.modern` (the stateless
2026-07-28 era) and :mod:`.session` (the handshake-era state machine: one line in, one outcome out).
May import: the standard library and the bottom layer (:mod:`cobol_mcp.jsontext`, the exact-number
JSON codec; :mod:`cobol_mcp.log`). No sockets, threads, processes or files in here.
"""

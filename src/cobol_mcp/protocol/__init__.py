"""The MCP protocol core: bytes in, replies and events out. Pure functions and state, no I/O.

Owns: :mod:`.framing` (bounded line framing), :mod:`.jsonrpc` (strict JSON-RPC 2.0 with exact
numbers, replies as bytes), :mod:`.model` (what the server offers), :mod:`.modern` (the stateless
2026-07-28 era) and :mod:`.session` (the handshake-era state machine: one line in, one outcome out).
May import: the standard library only. No sockets, threads, processes or files in here.
"""

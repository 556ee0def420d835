"""Transports: thin loops that feed bytes to the protocol core and write its replies.

Owns: :mod:`.stdio` (newline-delimited JSON-RPC on stdin/stdout, on the select loop) and
:mod:`.http` (Streamable HTTP, loaded only when asked for).
May import: :mod:`cobol_mcp.protocol`, :mod:`cobol_mcp.server`, :mod:`cobol_mcp.catalog`, :mod:`cobol_mcp.options`,
:mod:`cobol_mcp.selectloop`, :mod:`cobol_mcp.log`. Never the COBOL packages: tools run via the catalog.
"""

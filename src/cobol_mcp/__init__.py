"""cobol-mcp-server: an MCP server whose tools are real COBOL programs compiled by GnuCOBOL.

Layers, top to bottom; a module imports only from layers below it (checked by import-linter, see
``pyproject.toml``):

- :mod:`.cli` - the command line;
- :mod:`.commands` (``call``, ``check``) and :mod:`.transports` (stdio, HTTP);
- :mod:`.server` - assembles a server from options: backends, one catalog, one runtime;
- :mod:`.manifest` (the start-up manifest) and :mod:`.bundled` (presentation of the bundled tools);
- :mod:`.cobol` (everything COBOL) and :mod:`.options`;
- :mod:`.catalog` - tools from several backends in one list, routing, collision names;
- :mod:`.protocol` - JSON-RPC and the MCP eras, pure;
- :mod:`.log`, :mod:`.selectloop` and :mod:`.jsontext` - stderr logging, the poll loop, and the
  exact-number JSON codec.
"""

__version__ = "0.1.0"

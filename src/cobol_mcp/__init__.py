"""cobol-mcp-server: an MCP server whose tools are real COBOL programs compiled by GnuCOBOL."""

__version__ = "0.1.0"

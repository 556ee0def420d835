"""Where compiled modules, spec files and start-up manifests are kept.

Imported on the start-up path (the manifest lives here too): standard library only, nothing else.
"""

from __future__ import annotations

import os

__all__ = ["cache_root"]


def cache_root() -> str:
    explicit = os.environ.get("COBOL_MCP_CACHE")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cobol-mcp-server")

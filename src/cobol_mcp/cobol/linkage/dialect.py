"""cobc dialects (``-std=NAME``): the configuration options that change how LINKAGE records are laid out.

GnuCOBOL reads ``NAME.conf`` from its configuration folder (``COB_CONFIG_DIR``, else where it was
installed); the options read here are the ones that decide bytes: ``binary-size`` (1-2-4-8, 2-4-8 or
1--8 bytes by digits), ``binary-truncate`` (whether COMP values stay within their PIC digits),
``binary-byteorder`` (only big-endian is supported), ``synchronized-clause`` (whether SYNC aligns)
and ``binary-comp-1`` (COMP-1 as a binary integer instead of a float). The default dialect needs no file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT", "Dialect", "DialectError", "config_dirs", "load_dialect"]


class DialectError(ValueError):
    """A dialect name that cannot be used: no such configuration, or an option not supported."""


@dataclass(frozen=True)
class Dialect:
    name: str = "default"
    binary_size: str = "1-2-4-8"
    binary_truncate: bool = True
    sync: bool = True  # SYNCHRONIZED aligns binary and float items
    binary_comp_1: bool = False

    @property
    def flags(self) -> tuple[str, ...]:
        """The cobc options that select this dialect (none for the default)."""
        return () if self.name == "default" else (f"-std={self.name}",)


DEFAULT = Dialect()
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,40}$")
_OPTION = re.compile(r"^\s*([a-z0-9-]+)\s*:\s*(.*?)\s*(#.*)?$")
_INCLUDE = re.compile(r'^\s*include\s+"([^"]+)"')


def config_dirs() -> list[Path]:
    found = [os.environ["COB_CONFIG_DIR"]] if os.environ.get("COB_CONFIG_DIR") else []
    found += ["/etc/gnucobol", "/usr/share/gnucobol/config", "/usr/local/share/gnucobol/config"]
    return [Path(p) for p in found]


def _read(name: str, dirs: list[Path], options: dict[str, str], depth: int = 0) -> None:
    path = next((d / name for d in dirs if (d / name).is_file()), None)
    if path is None or depth > 8:
        raise DialectError(f"no {name} in {', '.join(map(str, dirs))}")
    for line in path.read_text(errors="replace").splitlines():
        if m := _INCLUDE.match(line):
            if not m.group(1).endswith(".words"):  # reserved words are the compiler's business
                _read(m.group(1), dirs, options, depth + 1)
        elif (m := _OPTION.match(line)) and m.group(1) != "include":
            options[m.group(1)] = m.group(2).lower().lstrip("+")


def load_dialect(name: str | None) -> Dialect:
    """The layout rules of cobc's ``-std=name`` (``None`` or "default": GnuCOBOL's own)."""
    if not name or name == "default":
        return DEFAULT
    if not _NAME.match(name):
        raise DialectError(f"{name!r} is not a cobc dialect name (as in -std=ibm)")
    options: dict[str, str] = {}
    try:
        _read(f"{name}.conf", config_dirs(), options)
    except OSError as exc:
        raise DialectError(f"dialect {name}: {exc}") from None
    except DialectError as exc:
        raise DialectError(f"dialect {name}: {exc}") from None
    size = options.get("binary-size", "1-2-4-8")
    if size not in ("1-2-4-8", "2-4-8", "1--8"):
        raise DialectError(f"dialect {name}: binary-size {size} is not supported")
    order = options.get("binary-byteorder", "big-endian")
    if order != "big-endian":
        raise DialectError(f"dialect {name}: binary-byteorder {order} is not supported (only big-endian)")
    return Dialect(
        name=name,
        binary_size=size,
        binary_truncate=options.get("binary-truncate", "yes") == "yes",
        sync=options.get("synchronized-clause", "ok") not in ("ignore", "skip"),
        binary_comp_1=options.get("binary-comp-1", "no") == "yes",
    )

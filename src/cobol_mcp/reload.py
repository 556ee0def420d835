"""Live reload (``--watch``): recompile on change, swap the new tool set in, tell the clients.

A thread watches the ``--programs`` folders (sources, copybooks, the overrides file) with
watchfiles, which is imported only in this mode. After a change settles it remakes the manifest,
compiling only what changed (the build cache is keyed by content), and hands the result to the
transport's own thread through ``post``; there :meth:`Server.reload` swaps the catalog and tools list
in at once, and ``on_reload`` lets the transport send ``notifications/tools/list_changed``. A program
that stops compiling keeps its last good version; the compiler's message goes to stderr. Calls in
flight finish on the module they started with.
"""

from __future__ import annotations

import os
import threading

from . import log, manifest
from .cobol import COPYBOOK_SUFFIXES, copybook_folders

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from .manifest import Manifest
    from .options import Options
    from .server import Server

OVERRIDES_FILE = "cobol-mcp.toml"
LIST_CHANGED = b'{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n'


def relevant(path: str) -> bool:
    """Whether a changed file can change the tools: a COBOL source or copybook (a DCLGEN member, or a
    member without an ending that holds COBOL, as an application folder's are), or the overrides file."""
    name = os.path.basename(path)
    ending = os.path.splitext(name)[1].lower()
    if name == OVERRIDES_FILE or ending in COPYBOOK_SUFFIXES or ending == ".dcl":
        return True
    if ending or name.startswith("."):
        return False
    from pathlib import Path

    from .cobol.source.layout import kind_of  # (only under --watch, for a file without an ending)

    return kind_of(Path(path)) is not None


class Watcher:
    def __init__(
        self,
        server: Server,
        options: Options,
        post: Callable[[Callable[[], None]], object],
        on_reload: Callable[[bool], None],
        debounce_ms: int = 200,
    ) -> None:
        self.server, self.options = server, options
        self.post = post  # runs a function on the transport's thread (the one that owns the server)
        self.on_reload = on_reload  # called there after a swap, with whether the tools list changed
        self.debounce_ms = debounce_ms
        programs = [folder for _, folder, bundled in manifest.backends(options) if not bundled]
        # with the copybook folders outside them (../copybook and the like, --copybooks)
        self.folders = list(
            dict.fromkeys(
                f
                for folder in programs
                for f in copybook_folders(folder, [*options.copybooks, *manifest.file_copybooks(folder)])
            )
        )
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cobol-mcp-watch", daemon=True)
        self._ready = threading.Event()

    def start(self) -> None:
        try:
            import watchfiles  # noqa: F401  (loaded here to fail early and clearly, not in the thread)
        except ImportError:
            raise ValueError("--watch needs the watchfiles package: pip install 'cobol-mcp-server[watch]'") from None
        if self.folders:
            self._thread.start()
            self._ready.wait(10)  # changes made once start() returns are seen

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def _run(self) -> None:
        from watchfiles import watch

        log.info(f"watching {', '.join(self.folders)} for changes")
        changes = watch(
            *self.folders,
            watch_filter=lambda _, path: relevant(path),
            stop_event=self._stop,
            debounce=self.debounce_ms,
            step=50,
            yield_on_timeout=True,
            rust_timeout=100,
            raise_interrupt=False,
        )
        try:
            for batch in changes:
                self._ready.set()
                if batch:
                    self._rebuild(sorted(path for _, path in batch))
        except Exception:
            log.exception("the watcher stopped")

    def _rebuild(self, paths: list[str]) -> None:
        log.info(f"changed: {', '.join(os.path.basename(p) for p in paths)}; recompiling")
        try:
            found = manifest.make(self.options)
        except Exception:
            log.exception("could not rebuild the tools; the last good ones stay")
            return
        self.post(lambda: self._apply(found))

    def _apply(self, found: Manifest) -> None:
        changed = self.server.reload(found)
        log.info(f"reloaded: {len(self.server.model.tools)} tools" + (" (the list changed)" if changed else ""))
        self.on_reload(changed)

"""Write a file so that readers see the old content or the new one, never a part of either.

The bytes go to a temporary file in the same folder (same file system, so the rename is atomic), are
flushed to disk, and the temporary file is renamed over the target. On any failure the temporary file
is removed and the target is left as it was.

The file gets the mode a plain `open()` would give it: the target's own mode when it exists (a source
rewritten by `audit --fix-moves` keeps its permissions), else 0666 less the umask. mkstemp's 0600 would
make a committed lock or state file unreadable to the rest of a team sharing a checkout.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def _umask() -> int:
    """The process's umask (os.umask can only read it by setting it: set it straight back, once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _umask()


def new_file_mode(path: Path) -> int:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return 0o666 & ~_UMASK


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = new_file_mode(path)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise

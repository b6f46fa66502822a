"""What the command line says when something goes wrong that is not the content's fault.

An `OSError` is the environment's (exit 2): it is told as a sentence naming the path and what to do. Any
other exception is a bug (exit 3): the user gets one line asking for a report, and the traceback goes to a
log file (`build/pipeline-crash.log`, or the temporary folder when build/ cannot be written).
"""

from __future__ import annotations

import errno
import os
import tempfile
import traceback
from pathlib import Path

from pipeline.publish import owned
from pipeline.text.terminal import for_terminal

CRASH_LOG = Path("build") / "pipeline-crash.log"
_HINTS = {
    errno.ENOSPC: "the disk is full; free some space and run again",
    errno.EDQUOT: "the disk quota is used up; free some space and run again",
    errno.EROFS: "the file system is read-only; pass --out DIR on a writable one",
    errno.EACCES: "permission denied; make it writable or pass --out DIR",
    errno.EPERM: "operation not permitted; make it writable or pass --out DIR",
    errno.ENOTDIR: "a part of this path is a file, not a folder",
    errno.EEXIST: "a file is in the way where a folder should be",
    errno.ENOENT: "it does not exist",
    errno.ELOOP: "too many symbolic links (a symlink loop?)",
}


def environment_message(exc: OSError) -> str:
    where = exc.filename if exc.filename is not None else "(no path)"
    hint = _HINTS.get(exc.errno or 0, exc.strerror or str(exc))
    return for_terminal(f"error: {os.fsdecode(where)}: {exc.strerror or type(exc).__name__}: {hint}")


def report_crash(debug: bool) -> str:
    """Write the current exception's traceback to the crash log; the one line to print."""
    text = traceback.format_exc()
    if debug:
        print(text, end="")
    log = _write_log(text)
    first = text.strip().splitlines()[-1]
    return for_terminal(f"internal error (a bug in the pipeline, not in your sources): {first}; "
                        f"please report it with the traceback in {log or 'the output above (run with --debug)'}")


def _write_log(text: str) -> Path | None:
    for path in (CRASH_LOG, Path(tempfile.gettempdir()) / "pipeline-crash.log"):
        try:
            owned.make(path.parent, owned.PARENT)  # build/ made here is the pipeline's: a later build may use it
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    return None

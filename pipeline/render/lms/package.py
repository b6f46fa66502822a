"""A zip with the same bytes for the same files: entries sorted, one fixed timestamp, fixed permissions."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path


def write_zip(path: Path, files: dict[str, bytes], when: dt.datetime) -> Path:
    """Write `files` (name -> bytes; a name ending in / is a folder entry) to `path`, stamped `when`.

    `when` is the view's source date (SOURCE_DATE_EPOCH or the newest review date), never the clock;
    zip cannot hold dates before 1980."""
    stamp = max(when.timetuple()[:6], (1980, 1, 1, 0, 0, 0))
    with zipfile.ZipFile(path, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.external_attr = (0o40755 if name.endswith("/") else 0o100644) << 16
            info.compress_type = zipfile.ZIP_STORED if name.endswith("/") else zipfile.ZIP_DEFLATED
            info.create_system = 3  # unix, so the permissions above mean the same everywhere
            archive.writestr(info, files[name])
    return path

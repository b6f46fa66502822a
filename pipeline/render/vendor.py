"""npm packages an output ships to its readers (the study site's FSRS scheduler), from `pipeline/vendor/`.

The files are committed inside the package, byte for byte as npm installs them at the version package.json pins
(a test compares them with `node_modules/` after `npm ci`; `make vendor` copies them again after a new pin), so
`pip install .` and the build need neither npm nor the network. A missing file is a broken installation: an
environment error (exit 2) saying to reinstall. Their bytes are part of the output's inputs, so a new version
rebuilds it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from pipeline.errors import UsageError
from pipeline.paths import VENDOR


@dataclass(frozen=True)
class Package:
    """An npm package and the files an output copies from it: output name -> path inside the package."""

    name: str
    files: dict[str, str]


# ts-fsrs: the UMD build defines the global `FSRS` (a page opened from file:// loads no modules); MIT, its
# licence travels with it.
TS_FSRS = Package("ts-fsrs", {"ts-fsrs.js": "dist/index.umd.js", "ts-fsrs.LICENSE.txt": "LICENSE"})
PACKAGES = {p.name: p for p in (TS_FSRS,)}
# Every file committed per package (what `make vendor` copies and the test compares): the shipped ones and the
# package's own package.json, which records the version.
COMMITTED = {name: ("package.json", *package.files.values()) for name, package in PACKAGES.items()}


def files(name: str) -> dict[str, bytes]:
    """Output name -> bytes of the package's committed files; a UsageError saying what to do when one is missing."""
    folder = VENDOR / name
    try:
        return {out: (folder / inner).read_bytes() for out, inner in PACKAGES[name].files.items()}
    except OSError as error:
        raise UsageError(f"error: {error.filename} is missing, the installation is incomplete: reinstall the pipeline "
                         "(`pip install --force-reinstall exam-prep-pipeline`, or `git checkout pipeline/vendor` in a checkout)") from None


def digest(names: tuple[str, ...]) -> str:
    """The hash of the named packages' shipped files: part of the inputs of the output that ships them."""
    h = hashlib.sha256()
    for name in names:
        for out, data in sorted(files(name).items()):
            h.update(out.encode() + b"\0" + data + b"\0")
    return h.hexdigest()

"""npm packages an output ships to its readers, copied from `node_modules/` (the study site's FSRS scheduler).

The packages are pinned in package.json and package-lock.json and installed by `npm ci` (`make build` and
`make test` run it). The build itself never touches the network: it copies the installed files, after
checking that they are the pinned version, and a missing or different package is an environment error
(exit 2) saying what to run. Their bytes are part of the output's inputs, so a new version rebuilds it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from pipeline.errors import UsageError
from pipeline.paths import NODE_MODULES, PACKAGE_JSON


@dataclass(frozen=True)
class Package:
    """An npm package and the files an output copies from it: output name -> path inside the package."""

    name: str
    files: dict[str, str]


# ts-fsrs: the UMD build defines the global `FSRS` (a page opened from file:// loads no modules); MIT, its
# licence travels with it.
TS_FSRS = Package("ts-fsrs", {"ts-fsrs.js": "dist/index.umd.js", "ts-fsrs.LICENSE.txt": "LICENSE"})
PACKAGES = {p.name: p for p in (TS_FSRS,)}


def pinned(name: str) -> str:
    """The version package.json pins for `name`."""
    try:
        return json.loads(PACKAGE_JSON.read_text(encoding="utf-8"))["dependencies"][name]
    except (OSError, ValueError, KeyError) as error:
        raise UsageError(f"error: {PACKAGE_JSON}: no pinned version of {name} ({error}); restore package.json from git") from None


def files(name: str) -> dict[str, bytes]:
    """Output name -> bytes of the installed, pinned package's files; a UsageError saying what to run otherwise."""
    package, version = PACKAGES[name], pinned(name)
    folder = NODE_MODULES / name
    fix = f"run `npm ci` in {PACKAGE_JSON.parent} (`make build` does; it needs the npm registry once, then nothing)"
    try:
        installed = json.loads((folder / "package.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        raise UsageError(f"error: the study site needs {name} {version} from npm, and {folder} is missing: {fix}") from None
    if installed != version:
        raise UsageError(f"error: {folder} is version {installed}, package.json pins {version}: {fix}")
    try:
        return {out: (folder / inner).read_bytes() for out, inner in package.files.items()}
    except OSError as error:
        raise UsageError(f"error: {name} {version} in {folder} is incomplete ({error.filename} unreadable): {fix}") from None


def digest(names: tuple[str, ...]) -> str:
    """The hash of the named packages' shipped files: part of the inputs of the output that ships them."""
    h = hashlib.sha256()
    for name in names:
        for out, data in sorted(files(name).items()):
            h.update(out.encode() + b"\0" + data + b"\0")
    return h.hexdigest()

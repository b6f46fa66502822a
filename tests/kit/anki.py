"""A deck imported the way a learner imports it: into a real Anki collection (the `anki` package)."""

from __future__ import annotations

from pathlib import Path

from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest


def import_package(col: Collection, package: Path):
    request = ImportAnkiPackageRequest(package_path=str(package), options=ImportAnkiPackageOptions())
    return col.import_anki_package(request).log

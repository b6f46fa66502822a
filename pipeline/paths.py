"""Where the pipeline's own files are: the one place that locates the templates folder and the code.

In a checkout (and an editable install) the templates sit at the repository root, beside pipeline/ and
schema/, as the design lays them out. An installed wheel carries them inside the package
(pyproject.toml maps templates/ to pipeline/templates/), so that folder is looked for first.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent  # a checkout's root, or site-packages when installed: pipeline/ and schema/ sit here
_IN_WHEEL = PACKAGE / "templates"
TEMPLATES = _IN_WHEEL if _IN_WHEEL.is_dir() else ROOT / "templates"
SCHEMAS = ROOT / "schema"  # the models and the JSON Schemas editors read (the `$schema=` line of each source)
CODE_DIRS = (PACKAGE, SCHEMAS)
# npm packages an output ships to its readers (the site's ts-fsrs), committed inside the package at the version
# package.json pins, byte for byte as npm installs them (tests/test_site_vendor.py compares them with node_modules/),
# so a checkout and an installed wheel build the site without npm; `make vendor` refreshes them after a new pin.
VENDOR = PACKAGE / "vendor"

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
# npm packages (package.json pins them; `npm ci` installs them). A wheel carries the shipped ones and the pins in
# pipeline/vendor/ (pyproject.toml's force-include), so an installed pipeline builds the site without npm.
_VENDOR = PACKAGE / "vendor"
NODE_MODULES = _VENDOR / "node_modules" if _VENDOR.is_dir() else ROOT / "node_modules"
PACKAGE_JSON = _VENDOR / "package.json" if _VENDOR.is_dir() else ROOT / "package.json"

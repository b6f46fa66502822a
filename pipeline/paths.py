"""Where the project's own files are: the one place that locates the templates folder and the code."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the project root: pipeline/, schema/ and templates/ sit here
TEMPLATES = ROOT / "templates"
CODE_DIRS = (ROOT / "pipeline", ROOT / "schema")
NODE_MODULES = ROOT / "node_modules"  # npm packages (package.json pins them; `npm ci` installs them)
PACKAGE_JSON = ROOT / "package.json"

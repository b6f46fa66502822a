"""The process entry point: `exam-prep` (pyproject.toml's console script) and `python -m pipeline`.

Kept free of third-party imports, so that a Python without the dependencies gets one line saying how to
install them (exit 2) instead of a traceback.
"""

from __future__ import annotations

import os
import sys

from pipeline.cli.missing import is_missing_dependency, message
from pipeline.text.prog import run_by_make


def entry() -> None:
    if os.environ.get("EXAM_PREP_RUN_BY") == "make":  # the Makefile's targets: advice then names them
        run_by_make()
    try:
        from pipeline.cli.main import main
        code = main()
    except ModuleNotFoundError as exc:
        if not is_missing_dependency(exc):
            raise
        print(message(exc), file=sys.stderr)
        code = 2
    sys.exit(code)

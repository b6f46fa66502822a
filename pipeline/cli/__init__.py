"""The command line: `python -m pipeline VERB ...` (main.py), one module per verb (`*_cmd.py`), listed in commands.py."""

from pipeline.cli.main import main, make_parser

__all__ = ["main", "make_parser"]

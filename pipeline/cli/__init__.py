"""The command line: `exam-prep VERB ...` or `python -m pipeline VERB ...` (main.py), one module per verb
(`*_cmd.py`), listed in commands.py.

Importing this package (and main.py) needs nothing outside the standard library: the verbs' modules and the
settings are imported when a command runs, so that `entry` can turn a missing dependency into one line.
"""

from pipeline.cli.entry import entry
from pipeline.cli.main import main, make_parser

__all__ = ["entry", "main", "make_parser"]

"""The command line: `exam-prep VERB ...` or `python -m pipeline VERB ...` (main.py), one module per verb
(`*_cmd.py`), listed in commands.py.

This package's import stays free of third-party modules (`main` and `make_parser` import main.py when
called), so that `entry` can turn a missing dependency into one line.
"""

from __future__ import annotations

import argparse

from pipeline.cli.entry import entry


def main(argv: list[str] | None = None) -> int:
    from pipeline.cli.main import main as run

    return run(argv)


def make_parser(argv: list[str]) -> argparse.ArgumentParser:
    from pipeline.cli.main import make_parser as parser

    return parser(argv)


__all__ = ["entry", "main", "make_parser"]

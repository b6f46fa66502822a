"""`validate`: load the sources and run every offline check. Exit 0 when no error, else 1."""

from __future__ import annotations

import argparse

from pipeline.cli.common import add_source_options, validate_and_report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_options(parser, "check")


def run(args: argparse.Namespace) -> int:
    return 0 if validate_and_report(args).ok else 1

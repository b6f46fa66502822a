"""`schema`: regenerate the JSON Schemas in `schema/` from the pydantic models."""

from __future__ import annotations

import argparse
import os

from schema.export import write_schemas


def add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # no options


def run(args: argparse.Namespace) -> int:
    for path in write_schemas():
        print(f"wrote {os.path.relpath(path)}")
    return 0

"""The command-line verbs, one module each: `add_arguments(parser)` and `run(args) -> int`.

COMMANDS maps each verb to its module; `pipeline.cli` builds the parser from it. A new verb is a new
module and one line here.
"""

from __future__ import annotations

from pipeline.commands import build_cmd, schema_cmd, validate_cmd

COMMANDS = {
    "validate": validate_cmd,
    "build": build_cmd,
    "schema": schema_cmd,
}

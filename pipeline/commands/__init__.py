"""The command-line verbs, one module each: `add_arguments(parser)` and `run(args) -> int`.

COMMANDS maps each verb to its module; `pipeline.cli` builds the parser from it. A new verb is a new
module and one line here.
"""

from __future__ import annotations

from pipeline.commands import audit_cmd, build_cmd, check_quote_cmd, schema_cmd, validate_cmd

COMMANDS = {
    "validate": validate_cmd,
    "build": build_cmd,
    "schema": schema_cmd,
    "audit": audit_cmd,
    "check-quote": check_quote_cmd,
}

"""The command-line verbs, one module each: `add_arguments(parser)` and `run(args) -> int`.

COMMANDS maps each verb to its module and its one-line help; `pipeline.cli.main` builds the parser from it
and imports only the module of the verb being run, so `build` never pays for importing the network
stack that `audit` needs. A new verb is a new module and one line here.
"""

from __future__ import annotations

from typing import NamedTuple


class Command(NamedTuple):
    module: str
    help: str


COMMANDS: dict[str, Command] = {
    "validate": Command("pipeline.cli.validate_cmd", "check the sources (schema, ids, answers, review dates) without writing anything"),
    "build": Command("pipeline.cli.build_cmd", "validate, then write each exam's outputs under OUT/<exam>/ (all, or those --only names)"),
    "serve": Command("pipeline.cli.serve_cmd", "build an exam's site, serve it on 127.0.0.1, rebuild and reload the page on every edit"),
    "schema": Command("pipeline.cli.schema_cmd", "regenerate the JSON Schemas in schema/ from the models"),
    "audit": Command("pipeline.cli.audit_cmd", "fetch every cited page, check every quote and review date, update the citation locks"),
    "init": Command("pipeline.cli.init_cmd", "write a content folder to start from: a first exam, pipeline.toml, .gitignore, the audit workflow"),
    "new": Command("pipeline.cli.new_cmd", "write a commented skeleton: `new exam ID` or `new objective EXAM NUMBER TITLE`"),
    "stats": Command("pipeline.cli.stats_cmd", "read learners' answers (Moodle, Canvas, the long format), write item statistics and a report"),
    "examples": Command("pipeline.cli.examples_cmd", "run every worked example in a sandbox, compare its output, update the examples locks"),
    "variants": Command("pipeline.cli.variants_cmd", "run varied questions' code in the sandbox, stress-test the variants, update the variants locks"),
    "check-quote": Command("pipeline.cli.check_quote_cmd", "check one quote against one page (exit 0 found, 1 missing, 2 unreachable)"),
}

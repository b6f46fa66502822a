"""Generate the JSON Schemas in `schema/` from the pydantic models, and tell when the committed ones are stale.

Editors read them through the `# yaml-language-server: $schema=...` line at the top of each source
file; tools read `bank.schema.json`. They are generated, never edited by hand: `python -m pipeline
schema` (or `make schema`) rewrites them, and a test fails when a model changed without it.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from schema.bank import Bank
from schema.models import SCHEMA_BASE, Exam, Objective
from schema.progress import Progress

SCHEMA_DIR = Path(__file__).resolve().parent

# file name -> the model it is generated from
SCHEMAS: dict[str, type[BaseModel]] = {
    "exam.schema.json": Exam,
    "objective.schema.json": Objective,
    "bank.schema.json": Bank,
    "progress.schema.json": Progress,
}


def schema_text(name: str, model: type[BaseModel]) -> str:
    body = model.model_json_schema(mode="validation")
    body = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{SCHEMA_BASE}/{name}", **body}
    return json.dumps(body, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write_schemas(folder: Path = SCHEMA_DIR) -> list[Path]:
    written = []
    for name, model in SCHEMAS.items():
        path = folder / name
        path.write_text(schema_text(name, model), encoding="utf-8")
        written.append(path)
    return written


def stale_schemas(folder: Path = SCHEMA_DIR) -> list[str]:
    """Names of committed schemas that differ from what the models generate now."""
    stale = []
    for name, model in SCHEMAS.items():
        path = folder / name
        if not path.is_file() or path.read_text(encoding="utf-8") != schema_text(name, model):
            stale.append(name)
    return stale

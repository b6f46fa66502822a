"""The committed JSON Schemas match the models, and every sample file points editors at its schema."""

from __future__ import annotations

import json

from schema.export import SCHEMA_DIR, SCHEMAS, stale_schemas
from tests.conftest import FULL


def test_committed_schemas_are_up_to_date():
    assert stale_schemas() == [], "run `make schema` and commit the result"


def test_stale_schema_is_detected(tmp_path):
    for name in SCHEMAS:
        (tmp_path / name).write_text((SCHEMA_DIR / name).read_text(encoding="utf-8").replace('"title"', '"titel"', 1), encoding="utf-8")
    assert stale_schemas(tmp_path) == sorted(SCHEMAS, key=list(SCHEMAS).index)


def test_objective_schema_forbids_unknown_keys():
    schema = json.loads((SCHEMA_DIR / "objective.schema.json").read_text(encoding="utf-8"))
    assert schema["additionalProperties"] is False
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert all(prop.get("description") for prop in schema["properties"].values())


def test_sample_files_declare_their_schema():
    paths = sorted(FULL.rglob("*.yaml"))
    assert {p.name == "exam.yaml" for p in paths} == {True, False}  # the exam file and objective files are checked
    for path in paths:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        name = "exam" if path.name == "exam.yaml" else "objective"
        assert first.startswith("# yaml-language-server: $schema=") and first.endswith(f"schema/{name}.schema.json"), path
        target = (path.parent / first.split("$schema=")[1]).resolve()
        assert target == SCHEMA_DIR / f"{name}.schema.json"


def test_sample_files_validate_against_the_json_schemas_editors_use():
    """What the editor's schema accepts and what the loader accepts agree on the sample."""
    import jsonschema

    from pipeline.load.yamlsource import load_yaml

    for path in sorted(FULL.rglob("*.yaml")):
        name = "exam" if path.name == "exam.yaml" else "objective"
        schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
        jsonschema.validate(load_yaml(path).data, schema, format_checker=jsonschema.FormatChecker())


def test_json_schema_rejects_a_misspelt_key():
    import jsonschema
    import pytest

    schema = json.loads((SCHEMA_DIR / "exam.schema.json").read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError, match="titel"):
        jsonschema.validate({"titel": "x"}, schema)

"""Turn pydantic's validation errors into diagnostics on the YAML node that is wrong.

pydantic reports a `loc` (keys and indexes, plus union member tags) and a message written for
programmers. Here each `loc` is mapped back to the node's position in the source file, and the
message names the field as an author sees it (`key_points[0].citations[1].url`) and what was expected.
"""

from __future__ import annotations

import difflib
import re
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from pipeline.diagnostics import Report
from pipeline.load.yamlsource import PathKey, YamlDocument
from pipeline.questions import TYPES, QuestionBase
from pipeline.questions.base import a_type
from pipeline.text.messages import describe, did_you_mean


def field_label(path: PathKey) -> str:
    """`("key_points", 0, "url")` -> `key_points[0].url`."""
    label = ""
    for part in path:
        label += f"[{part}]" if isinstance(part, int) else (f".{part}" if label else str(part))
    return label or "(file)"


def _models(annotation: Any) -> list[type[BaseModel]]:
    """The model classes inside Optional[...], list[...], Annotated[...] or a union, in order."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models(arg)]


def _pick(candidates: list[type[BaseModel]], value: Any) -> type[BaseModel] | None:
    """One model, or the member of a union told apart by `type` that `value` names (a question's type)."""
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    if isinstance(value, dict):
        for model in candidates:
            literal = model.model_fields.get("type")
            if literal is not None and value.get("type") in typing.get_args(literal.annotation):
                return model
    return None


def source_keys(model: type[BaseModel]) -> dict[str, Any]:
    """The keys a source writes for a model's fields (a field's alias when it has one: `pass` for pass_mark)."""
    return {field.alias or name: field for name, field in model.model_fields.items()}


def model_at(root: type[BaseModel], path: PathKey, data: Any = None) -> type[BaseModel] | None:
    """The model class that validates the mapping at `path` (with `data`, the document, to tell the members of
    a union apart), or None where there is no model or it cannot be told."""
    candidates: list[type[BaseModel]] = [root]
    value = data
    for part in path:
        if not isinstance(part, int):  # list indexes do not change the item model
            model = _pick(candidates, value)
            field = source_keys(model).get(part) if model else None
            candidates = _models(field.annotation) if field else []
        value = _step(value, part)
    return _pick(candidates, value) if candidates else None


def _step(value: Any, part: Any) -> Any:
    if isinstance(part, int):
        return value[part] if isinstance(value, list) and 0 <= part < len(value) else None
    return value.get(part) if isinstance(value, dict) else None


def _field_description(root: type[BaseModel], path: PathKey, data: Any = None) -> str:
    if path and isinstance(path[-1], int):  # a list's item: the description its item type carries, if any
        return _item_description(root, path[:-1], data)
    parent = model_at(root, path[:-1], data) if path else None
    field = source_keys(parent).get(path[-1]) if parent and isinstance(path[-1], str) else None
    text = (field.description or "").rstrip(".") if field else ""
    return text[:1].lower() + text[1:]


def _item_description(root: type[BaseModel], path: PathKey, data: Any) -> str:
    """`list[Requirement]`: the description in the Annotated item type (`Field(description=...)`)."""
    parent = model_at(root, path[:-1], data) if path and isinstance(path[-1], str) else None
    field = source_keys(parent).get(path[-1]) if parent else None
    for item in typing.get_args(field.annotation) if field else ():
        for meta in getattr(item, "__metadata__", ()):
            if text := (getattr(meta, "description", None) or "").rstrip("."):
                return text[:1].lower() + text[1:]
    return ""


_UNION_TAGS = {"str", "bool", "int", "float", "list", "dict"}


def _resolve(doc: YamlDocument, loc: tuple[Any, ...]) -> tuple[PathKey, str | None]:
    """The deepest existing node path along `loc`, and the name of a missing key at its end, if any."""
    path: PathKey = ()
    missing = None
    for part in loc:
        if path + (part,) in doc.values:
            path += (part,)
            missing = None
        elif isinstance(part, str) and (part in _UNION_TAGS or any(c in part for c in "[]-")):
            break  # a union member's tag: report on the field itself, once for all members
        else:
            missing = str(part)  # a field the source does not have
    return path, missing


def _close_key(root: type[BaseModel], path: PathKey, data: Any = None) -> str | None:
    """The allowed key an unknown key at `path` most likely misspells, if any."""
    model = model_at(root, path[:-1], data)
    guess = difflib.get_close_matches(str(path[-1]), sorted(source_keys(model)) if model else [], n=1)
    return guess[0] if guess else None


def _unknown_key_message(root: type[BaseModel], path: PathKey, data: Any = None) -> tuple[str, str]:
    """The message and its code: a key another question type takes is "takes no" (question-options)."""
    key, guess = str(path[-1]), _close_key(root, path, data)
    model = model_at(root, path[:-1], data)
    if model is not None and issubclass(model, QuestionBase) and any(key in t.model.model_fields for t in TYPES.values()):
        name = typing.get_args(model.model_fields["type"].annotation)[0]
        return f"{field_label(path)}: {a_type(name)} takes no {key}; remove {'them' if key.endswith('s') else 'it'}", "question-options"
    allowed = sorted(source_keys(model)) if model else []
    hint = f"; did you mean '{guess}'?" if guess else ""
    return f"{field_label(path)}: unknown key '{key}'{hint} (expected one of: {', '.join(allowed)})", "schema"


def _number_as_text(label: str, value: Any, written: str | None) -> str:
    """`id: 1.10` is the number 1.1 to YAML: show what was written and the quoted form that keeps it."""
    written = written or str(value)
    key = label.rsplit(".", 1)[-1]
    fix = f'{key}: "{written}"' if not key.endswith("]") else f'"{written}"'
    if written != str(value):
        return f"{label}: expected text, but {written} reads as the number {value}; quote it to keep it as written: {fix}"
    return f"{label}: expected text, got the number {written}; quote it: {fix}"


def _choice_message(err: dict[str, Any], label: str) -> str:
    """A value outside a fixed list (a question's type, a difficulty): the closest allowed one."""
    allowed = [a.strip().strip("'") for a in re.split(r",| or ", err["ctx"]["expected"]) if a.strip()]
    value = err.get("input")
    guess = difflib.get_close_matches(str(value), allowed, n=1, cutoff=0.5) if isinstance(value, str) else []
    hint = f"; did you mean '{guess[0]}'?" if guess else ""
    return f"{label}: {describe(value)} is not allowed{hint} (expected one of: {', '.join(allowed)})"


def _value_message(err: dict[str, Any], label: str, description: str, written: str | None = None) -> str:
    kind, value = err["type"], err.get("input")
    if kind in ("date_from_datetime_parsing", "date_parsing", "date_type", "date_from_datetime_inexact"):
        return f"{label}: '{value}' is not a real calendar date (expected YYYY-MM-DD)"
    if kind == "string_type" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return _number_as_text(label, value, written)
    if kind == "literal_error":
        return _choice_message(err, label)
    if kind == "string_too_short":
        return f"{label}: must not be empty"
    if kind == "string_pattern_mismatch":
        return f"{label}: {value!r} is not valid; expected {description}"
    if kind == "value_error":
        return f"{label}: {err['msg'].removeprefix('Value error, ')}, got {describe(value)}"
    if kind == "string_too_long":
        return f"{label}: {len(value):,} characters, over the limit of {err['ctx']['max_length']:,}; shorten it"
    if kind in ("model_type", "dict_type"):
        return f"{label}: expected a mapping of keys (key: value), got {describe(value)}"
    if kind == "bool_type":
        return f"{label}: expected true or false, got {describe(value)}"
    if kind == "list_type":
        return f"{label}: expected a list, got {describe(value)}"
    if kind == "string_type":
        return f"{label}: expected text, got {describe(value)}"
    if kind == "too_short" and isinstance(value, list):
        return f"{label}: must not be empty; expected at least {err['ctx']['min_length']} item(s)"
    return f"{label}: {err['msg'][0].lower()}{err['msg'][1:]}, got {describe(value)}"


def report_validation_error(exc: ValidationError, doc: YamlDocument, root: type[BaseModel], report: Report) -> None:
    """Add one error per offending node; several union-member errors on one node become one line."""
    by_path: dict[tuple[PathKey, str | None], list[dict[str, Any]]] = {}
    for err in exc.errors(include_url=False):
        by_path.setdefault(_resolve(doc, err["loc"]), []).append(err)
    # a field that takes a line or a mapping (check_yourself: a prompt, or {prompt, answer}), written as a
    # mapping: the mapping's own errors say what is wrong; the text member's "expected text" says nothing
    by_path = {key: errs for key, errs in by_path.items() if not _text_member_beside_mapping(key[0], errs, by_path)}
    # a misspelt key is one mistake, not two: its "did you mean" stands for the "required key missing"
    data = doc.data
    misspelt = {(path[:-1], _close_key(root, path, data)) for (path, _), errs in by_path.items() if errs[0]["type"] == "extra_forbidden"}
    reported_cuts: set[PathKey] = set()
    for (path, missing), errs in by_path.items():
        errs = _beside_placeholder(errs)
        kind = errs[0]["type"]
        if kind == "missing" and (path, missing) in misspelt:
            continue
        if kind == "extra_forbidden" and path in doc.comma_keys:
            _report_comma(doc, path, report, reported_cuts)
        elif kind == "extra_forbidden":
            message, code = _unknown_key_message(root, path, data)
            report.error(doc.path, doc.key_position(path), message, code)
        elif kind in ("union_tag_invalid", "union_tag_not_found"):
            _report_tag(doc, path, errs[0], report)
        elif kind == "missing" and missing:
            full = path + (missing,)
            report.error(doc.path, doc.position(path), f"{field_label(full)}: required key missing ({_field_description(root, full, data)})", "schema")
        elif len(errs) > 1:
            shown = describe(errs[0].get("input"))
            report.error(doc.path, doc.position(path), f"{field_label(path)}: unexpected value {shown}; expected {_field_description(root, path, data)}", "schema")
        else:
            message = _value_message(errs[0], field_label(path), _field_description(root, path, data), doc.written.get(path))
            report.error(doc.path, doc.position(path), message, "schema")


def _text_member_beside_mapping(path: PathKey, errs: list[dict[str, Any]], by_path: dict) -> bool:
    """Whether `errs` are only a union's text member refusing a mapping whose model member has errors of its own."""
    if not all(e["type"] == "string_type" and isinstance(e.get("input"), dict) for e in errs):
        return False
    return any(other[:len(path)] == path and others is not errs for (other, _), others in by_path.items())


def _report_comma(doc: YamlDocument, key_path: PathKey, report: Report, reported: set[PathKey]) -> None:
    """`{definition: A unit, fast math}`: not an unknown key `fast math` but a value cut by its comma; once per value."""
    cut = doc.comma_keys[key_path]
    if cut in reported:
        return
    reported.add(cut)
    place, whole = doc.comma_values[cut]
    fixed = whole.replace("\\", "\\\\").replace('"', '\\"')
    report.error(doc.path, place, f"{field_label(cut)}: the ',' in this value ends it inside {{...}}, so {str(key_path[-1])!r} was "
                 f'read as a key; quote the value: {cut[-1]}: "{fixed}"', "yaml")


def _beside_placeholder(errs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A number or true/false field also takes a varied question's `{{ name }}`: that member's "not text" or
    "not a placeholder" says nothing to an author who wrote a list, so the others' errors speak alone."""
    others = [e for e in errs if not (e["type"] in ("string_type", "string_pattern_mismatch") and "{{" in str(e.get("ctx", {}).get("pattern", "{{")))]
    return others if others and len(others) < len(errs) else errs


def _report_tag(doc: YamlDocument, path: PathKey, err: dict[str, Any], report: Report) -> None:
    """A question whose `type` is missing or names no type: one error at `type`, with the closest type."""
    names = list(TYPES)
    label = field_label(path + ("type",))
    if err["type"] == "union_tag_not_found":
        report.error(doc.path, doc.position(path), f"{label}: required key missing (the question's type, one of: {', '.join(names)})", "schema")
        return
    value = err.get("ctx", {}).get("tag")
    report.error(doc.path, doc.position(path + ("type",)),
                 f"{label}: {describe(value)} is not allowed{did_you_mean(str(value), names, 0.5)} (expected one of: {', '.join(names)})", "schema")


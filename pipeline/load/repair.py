"""What the rule checks may still look at in a mapping that fails the schema (its errors are reported already).

One run should report every mistake: a question with a misspelt key must still have its answer checked
against its options. So an invalid mapping is repaired, for the checks only, the way its author meant it:
a misspelt key is read as the key it is closest to (when that one is missing), a bad value of a field
that has a default is left out, and nested mappings and lists of them are repaired the same way (a list
item beyond repair is dropped). When the result validates it goes to the checks; otherwise nothing does.
A repaired item is never rendered: its file has errors.
"""

from __future__ import annotations

import difflib
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

ROUNDS = 3  # one repair can reveal another (a renamed key with a bad value); a few rounds reach a fixed point


def repaired(model: type[BaseModel], data: Any) -> BaseModel | None:
    """`data` validated as `model`, after repairs where needed; None when no repair makes it valid."""
    for _ in range(ROUNDS + 1):
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            fixed = _repair(model, data, exc.errors(include_url=False))
        if fixed is None or fixed == data:
            return None
        data = fixed
    return None


def _repair(model: type[BaseModel], data: Any, errors: list[dict[str, Any]]) -> Any:
    if not isinstance(data, dict):
        return None
    fixed = dict(data)
    for err in errors:
        loc = err["loc"]
        if not loc or not isinstance(loc[0], str) or loc[0] not in fixed:
            continue  # a missing key: nothing here to read it from (a misspelling is renamed below)
        key = loc[0]
        field = model.model_fields.get(key)
        if err["type"] == "extra_forbidden" and len(loc) == 1:
            guess = difflib.get_close_matches(key, [k for k in model.model_fields if k not in fixed], n=1)
            value = fixed.pop(key)
            if guess:
                fixed[guess[0]] = value
        elif field is not None and len(loc) > 1 and (inner := _nested(field.annotation, fixed[key], loc[1:], err)) is not _KEEP:
            fixed[key] = inner
        elif field is not None and not field.is_required():
            fixed.pop(key)
    return fixed


_KEEP = object()


def _nested(annotation: Any, value: Any, loc: tuple[Any, ...], err: dict[str, Any]) -> Any:
    """The value of a nested field with the part at `loc` repaired; _KEEP when it is not a nested model."""
    item_model = _model_in(annotation)
    if item_model is None:
        return _KEEP
    if isinstance(value, list) and loc and isinstance(loc[0], int) and loc[0] < len(value):
        index, rest = loc[0], loc[1:]
        item = _repair(item_model, value[index], [{**err, "loc": rest}]) if rest else None
        return [v for i, v in enumerate(value) if i != index] if item is None else [*value[:index], item, *value[index + 1:]]
    if isinstance(value, dict):
        return _repair(item_model, value, [{**err, "loc": loc}]) or _KEEP
    return _KEEP


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        if (found := _model_in(arg)) is not None:
            return found
    return None

"""The template syntax of a varied question, and a variant made from the question and its values.

`{{ name }}` stands for a value, `{{ name:spec }}` for the value in a Python format spec (`.2f`, `,d`,
`.1%`). Nothing else: no expressions, loops or attribute access, so rendering is bounded and safe on any
text (the code that computes lives in `variants.code`, in the sandbox). A field that is a placeholder
alone takes the value itself, so `answer: "{{ ratio }}"` is a number in a numeric question.

Which fields vary: the text an author writes per question (stem, options, answer, tolerance, unit,
accept, pairs, extra answers, items, explanation). Which do not: id, type, key points, difficulty,
shuffle, order and mock_only: they say what the question is and how it is shown, the same in every
variant, and `variants` itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pipeline.questions.base import Problem
from pipeline.vocabulary.variant_fields import NAME_PATTERN

PLACEHOLDER = re.compile(r"\{\{\s*(?P<name>" + NAME_PATTERN + r")\s*(?::(?P<spec>[^{}]{0,20}?))?\s*\}\}")
ONLY = re.compile(r"^\s*\{\{\s*(?P<name>" + NAME_PATTERN + r")\s*\}\}\s*$")
FIXED = frozenset({"id", "type", "key_points", "difficulty", "shuffle", "order", "mock_only", "variants"})
# A format spec as Python's mini-language writes it: fill/align, sign, #, 0, width, grouping, precision, type.
_SPEC = re.compile(r"^(?:.?[<>=^])?[+\- ]?#?0?\d{0,3}[,_]?(?:\.\d{1,2})?[bcdeEfFgGnosxX%]?$")


class TemplateError(ValueError):
    """A placeholder naming no value, or a format spec that does not fit the value."""


def names_in(text: str) -> list[str]:
    return [m["name"] for m in PLACEHOLDER.finditer(text)]


def has_template(value: Any) -> bool:
    """Whether any string inside `value` (a question's fields as data) holds a placeholder."""
    return any(PLACEHOLDER.search(s) for s in _strings(value))


def names_of(fields: Mapping[str, Any]) -> dict[tuple, list[str]]:
    """The placeholders' names per field path, over the fields that vary."""
    found: dict[tuple, list[str]] = {}
    for key, value in fields.items():
        if key in FIXED:
            continue
        for path, text in _walk(value, (key,)):
            if names := names_in(text):
                found[path] = names
    return found


def template_problems(q) -> list[Problem]:
    """The problems of placeholders in a question without `variants:`, in a
    field that does not vary, or naming no value of a `values:` form (a `code:` form's names are known
    only once it ran: the stress test checks them)."""
    fields = q.model_dump(by_alias=True)
    found = names_of(fields)
    if q.variants is None:
        return [Problem(path, f"{{{{ {names[0]} }}}} is a placeholder, but the question declares no `variants:`; add variants "
                       "(code: or values:) or write the text itself", "variant-template") for path, names in found.items()]
    problems = [Problem((key,), f"`{key}` is the same in every variant; placeholders go in stem, options, answer, tolerance and explanation", "variant-template")
                for key in sorted(FIXED - {"variants"}) if has_template(fields.get(key))]
    if q.variants.values is not None:
        known = set(q.variants.values)
        for path, names in found.items():
            for name in names:
                if name not in known:
                    problems.append(Problem(path, f"{{{{ {name} }}}} names no value of `variants.values` ({', '.join(sorted(known))})", "variant-template"))
    return problems


# The fields that are not text (a number, true/false): one that is a placeholder alone takes the value itself.
RAW = frozenset({("numeric", "answer"), ("numeric", "tolerance"), ("true_false", "answer")})


def render_text(text: str, values: Mapping[str, Any], raw: bool = False) -> Any:
    """`text` with every placeholder filled; with `raw`, a text that is one placeholder gives the value itself."""
    only = ONLY.match(text)
    if only and raw:
        return _value(only["name"], values)
    return PLACEHOLDER.sub(lambda m: _formatted(m["name"], m["spec"], values), text)


def render_fields(fields: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """A question's fields (as data) with every varying field rendered, `variants` left out."""
    kind = fields.get("type")
    return {k: (v if k in FIXED else render_text(v, values, raw=True) if (kind, k) in RAW and isinstance(v, str) else _render(v, values))
            for k, v in fields.items() if k != "variants"}


def _render(value: Any, values: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        return render_text(value, values)
    if isinstance(value, list):
        return [_render(v, values) for v in value]
    if isinstance(value, dict):
        return {k: _render(v, values) for k, v in value.items()}
    return value


def _value(name: str, values: Mapping[str, Any]) -> Any:
    if name not in values:
        raise TemplateError(f"{{{{ {name} }}}} names no value (the variant has {', '.join(sorted(values)) or 'none'})")
    return values[name]


def _formatted(name: str, spec: str | None, values: Mapping[str, Any]) -> str:
    value = _value(name, values)
    if not spec:
        return written(value)
    spec = spec.strip()
    if not _SPEC.match(spec):
        raise TemplateError(f"{{{{ {name}:{spec} }}}}: not a format spec (write e.g. .2f, ,d or .1%)")
    try:
        return format(value, spec)
    except (ValueError, TypeError) as exc:
        raise TemplateError(f"{{{{ {name}:{spec} }}}}: {exc} (the value is {value!r})") from None


def written(value: Any) -> str:
    """A value as text: 4 not 4.0, 0.1 not 0.1000000001 (the shortest repr), true/false as the YAML writes them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return str(value)


def _strings(value: Any) -> Iterable[str]:
    for _, text in _walk(value, ()):
        yield text


def _walk(value: Any, path: tuple) -> Iterable[tuple[tuple, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, (*path, i))
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, (*path, k))

"""pipeline.toml's one settings model, and what each of its validation errors says.

`ExamTable` is what the top level and each `[exams.ID]` table may set: `outputs`, `strict` and every output's
options, composed of the options model each output declares in its own module (the registry's
`Output.options_model`, e.g. pipeline/render/guide/options.py), so a new output's option is a setting here
with no change to this file. `ProjectSettings` adds the top level's own keys. Both are strict (`strict = 1`
is not true) and forbid unknown keys.

`explain` turns one pydantic error into the key it is about and a message that says what was expected and,
where there is one, the fix; pipeline/settings/project.py puts it at the key's line and column. Imported only
when there is a file to check: a run without pipeline.toml (a no-op build) never loads pydantic.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, create_model, field_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from pipeline import render as registry
from pipeline.text.messages import did_you_mean

EXAMS = "exams"
_OWN = "config"  # the error type of the checks written here: their message is already the sentence to show


def _said(message: str) -> PydanticCustomError:
    return PydanticCustomError(_OWN, "{message}", {"message": message})


def _output_words() -> list[str]:
    return [*registry.output_names(), *(a for e in registry.RENDERERS.values() for a in registry.output(e).aliases)]


def _output_name(text: str) -> str:
    name = registry.resolve_output(text)
    if name is None:
        raise _said(f"no output is called '{text}'{did_you_mean(text, _output_words())} (outputs: {', '.join(registry.output_names())})")
    return name


class _Common(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    outputs: list[Annotated[str, AfterValidator(_output_name)]] | None = Field(None, min_length=1)
    strict: bool | None = None


def _options_models() -> tuple[type[BaseModel], ...]:
    """Each output's options model, in build order (the registry names them: importing them is this module's cost)."""
    models = []
    for entry in registry.RENDERERS.values():
        if (named := registry.output(entry).options_model) is not None:
            module, name = named.split(":")
            models.append(getattr(importlib.import_module(module), name))
    return tuple(models)


# pydantic orders fields from the last base to the first: listed so, they read outputs, strict, then the options in build order.
ExamTable: type[BaseModel] = create_model("ExamTable", __base__=(*_options_models()[::-1], _Common))
ExamTable.__doc__ = "What the top level and each [exams.ID] table of pipeline.toml may set."


class ProjectSettings(ExamTable):
    """The whole of pipeline.toml."""

    out: str | None = None
    allow_hosts: list[str] = []
    exams: dict[str, ExamTable] = {}

    @field_validator("out")
    @classmethod
    def _inside(cls, value: str | None, info: ValidationInfo) -> str | None:
        """A relative folder inside the content folder (where pipeline.toml is): a file in the content repository
        must not point the build at /etc or ../..; an absolute folder is the command line's (--out)."""
        if value is None:
            return None
        if not value.strip() or "\0" in value:
            raise _said(f'expected a folder name, e.g. "build", got {value!r}')
        content = Path((info.context or {}).get("content", "."))
        inside = Path(os.path.realpath(content / value)).is_relative_to(Path(os.path.realpath(content)))
        if Path(value).is_absolute() or not inside or os.path.normpath(value) == ".":
            raise _said(f'expected a folder inside the content folder, e.g. "build", got {value!r} '
                        "(an absolute folder or one outside is only taken from the command line: --out DIR)")
        return value


def exam_keys() -> list[str]:
    return list(ExamTable.model_fields)


def top_keys() -> list[str]:
    return list(ProjectSettings.model_fields)


def explain(error: ErrorDetails) -> tuple[tuple[str, ...], str, bool]:
    """(the key the error is about, what to say, whether to point at its value rather than the key)."""
    loc = tuple(str(part) for part in error["loc"])
    in_exam = len(loc) >= 2 and loc[0] == EXAMS
    table, rest = (loc[:2], loc[2:]) if in_exam else ((), loc)
    if in_exam and not rest:
        return loc, f"expected a table of settings for exam '{loc[1]}' ({', '.join(exam_keys())})", True
    if not rest:
        return loc, error["msg"], True
    name, key, value = rest[0], (*table, rest[0]), error.get("input")
    if error["type"] == "extra_forbidden":
        allowed = exam_keys() if in_exam else top_keys()
        if name in top_keys():
            return key, f"a setting of the top level only, not of an exam (settings here: {', '.join(allowed)})", False
        return key, f"unknown setting{did_you_mean(name, allowed)} (settings here: {', '.join(allowed)})", False
    if error["type"] == _OWN:
        return key, error["msg"], True
    if name == "outputs":
        return key, f"expected a list of output names, e.g. [\"guide\", \"deck\"] (outputs: {registry.listing()})", True
    if name == "strict":
        return key, f"expected true or false, got {value!r}", True
    if name in registry.options():
        owner, option = registry.options()[name]
        hint = did_you_mean(str(value), option.choices)
        return key, f"{option.help} ({owner}): expected one of {', '.join(option.choices)}, got {value!r}{hint}", True
    if name == "out":
        return key, f'expected a folder name, e.g. "build", got {value!r}', True
    if name == "allow_hosts":
        return key, 'expected a list of HOST or HOST:PORT strings, e.g. ["127.0.0.1:8000"]', True
    if name == EXAMS:
        return key, "expected tables, one per exam: [exams.EXAM-ID]", True
    return key, error["msg"], True

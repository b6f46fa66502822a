"""What every output's options model shares (pipeline/render/<output>/options.py): strict, unknown keys
forbidden, and a field made from the registry's light `OutputOption`, so argparse's choices and the model's
`Literal` are one declaration. Imported only to check pipeline.toml (pipeline/settings/model.py)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from pipeline.render import OutputOption


class OutputOptions(BaseModel):
    """The base of an output's options model: a field per option it declares, None where the file says nothing."""

    model_config = ConfigDict(extra="forbid", strict=True)


def _lower(value: Any) -> Any:
    """`LETTER` is `letter`: the command line takes any case (type=str.lower), so the file does too."""
    return value.lower() if isinstance(value, str) else value


def choice(option: OutputOption) -> Any:
    """The field's type: one of the option's choices, in any case, or nothing."""
    return Annotated[Literal[option.choices], BeforeValidator(_lower)] | None


def described(option: OutputOption) -> Any:
    """The field's default (nothing set) and its description (the option's help, which the messages quote)."""
    return Field(None, description=option.help)

"""`bank.json`: the practice bank, written byte for byte the same for the same sources.

Sorted keys, two-space indent, UTF-8 without escapes, a newline at the end, and nothing from the
clock; item order is fixed by `pipeline/practice/bank.py`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.practice.bank import make_bank
from schema.bank import Bank

if TYPE_CHECKING:  # the registry in pipeline/render/__init__.py imports this module
    from pipeline.render import RenderContext

BANK_NAME = "bank.json"


def bank_json(bank: Bank) -> str:
    return json.dumps(bank.model_dump(mode="json"), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def render(ctx: RenderContext) -> list[Path]:
    path = ctx.out_dir / BANK_NAME
    path.write_bytes(bank_json(make_bank(ctx.content, ctx.lock)).encode("utf-8"))  # bytes: no newline translation
    return [path]

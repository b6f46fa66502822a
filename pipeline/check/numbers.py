"""Numbers that are backed: a key point's figures must come from its sources (`number-unbacked`).

A figure a learner memorises ("about 4x smaller", "adds about 30%", "multiples of 64") is only as good as
what it stands on. Each number of a key point's text must appear in one of its cited quotes or in the
output of one of the objective's worked examples (the `output:` the examples lock checks), compared by
value: "4x" is backed by an output's "4.0x smaller", "30%" by a quote's "by 30%", "1,048,576" by
"1048576". A number the key point computes in its own formula (`$...$`) is backed by the formula, and so
is the same number written in the prose around it.

What counts as a number: a percentage (30%, 30 percent), a ratio (4x, 4×, 4 times), and any other figure
standing alone as a word (a count or a size: 64, 1,048, 0.78). Not numbers here: digits inside a name
(INT8, float32, FP16), a version after a name ("NeMo 2.0", "PyTorch 2.10", "v2.1"), bit widths written
as part of a format's description ("16-bit", "8-bit integers": the format names them, as INT8 does), and
numbers inside `code`, and number words ("two main ways"), which count things the sentence lists itself. Those are the decisions
where issue 34 item 9 is silent.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from pipeline.text import cloze
from pipeline.text.plaintext import to_plain

_FORMULA = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.DOTALL)
# A figure standing alone: not after a letter, digit, dot, underscore or hyphen (INT8, v2, 8-bit's 8 is
# excluded below), with thousands commas or spaces of the digit-group kind ("1,048,576").
_FIGURE = re.compile(r"(?<![A-Za-z0-9_.\-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?!\d|\.\d|,\d)(?![A-Za-z_])(?!-bit)")
_RATIO_OR_PERCENT = re.compile(r"(?<![A-Za-z0-9_.\-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(?:x\b|×|%|\s+(?:times|percent)\b)")
_CODE = re.compile(r"`[^`]*`")  # `spin(3)` is code, not a figure
_VERSION = re.compile(r"(?:\b[A-Z][A-Za-z0-9]*|\bv)\s?$")
# Numbers that back: anywhere in a quote or an output, a unit or a suffix after them allowed ("4.0x",
# "30%", "2103517 bytes", "8-bit"), never digits inside a name ("fp32", "int8", "qint8").
_BACKING = re.compile(r"(?<![A-Za-z0-9_.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")


def _value(whole: str, fraction: str | None) -> Decimal | None:
    try:
        return Decimal(whole.replace(",", "") + (fraction or "")).normalize()
    except InvalidOperation:
        return None


def figures(text: str) -> list[str]:
    """The numbers of a key point's prose as written ("about 4x" gives "4x"), formulas left out."""
    plain = to_plain(_CODE.sub(" ", _FORMULA.sub(" ", cloze.strip(text))))
    found: dict[int, str] = {}
    for m in _RATIO_OR_PERCENT.finditer(plain):
        found[m.start()] = m[0]
    for m in _FIGURE.finditer(plain):
        if m[2] and _VERSION.search(plain[: m.start()]):  # "NeMo 2.0", "PyTorch 2.10": a version is part of a name
            continue
        if not any(start <= m.start() < start + len(t) for start, t in found.items()):
            found[m.start()] = m[0]
    return [found[k] for k in sorted(found)]


def values(text: str) -> set[Decimal]:
    """Every number a backing text states, by value."""
    return {v for m in _BACKING.finditer(text) if (v := _value(m[1], m[2])) is not None}


def formula_values(text: str) -> set[Decimal]:
    """The numbers inside the key point's own formulas (`65{,}504` read as 65,504)."""
    inside = " ".join(a or b for a, b in _FORMULA.findall(text))
    return values(re.sub(r"\{,\}", ",", inside))


def value_of(figure: str) -> Decimal | None:
    m = _BACKING.search(figure)
    return _value(m[1], m[2]) if m else None


def unbacked(text: str, backing: list[str]) -> list[str]:
    """The figures of a key point's text that none of `backing` (quotes, example outputs) and none of its own formulas states."""
    known = formula_values(text).union(*(values(b) for b in backing))
    return [f for f in dict.fromkeys(figures(text)) if value_of(f) not in known]

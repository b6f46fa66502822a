"""The stress test: what a draw of many seeds shows about a varied question before any learner sees it.

Each finding has a check code (exam.yaml `checks:` may turn it down), a sentence, and the seeds that show
it. Checks, per seed: the code raised (variant-error) or ran past its time (variant-timeout); it returned
something that makes no valid question of the type (variant-invalid); two options coincide once rendered,
the key among them (variant-coincide); the answer is not finite or leaves `bounds:` (variant-bounds); a
numeric answer's tolerance window takes a declared distractor (variant-tolerance-overlap); the answer is
one of the numbers the stem shows (variant-answer-shown). Across seeds: the key always the largest or the
smallest of numeric options (variant-key-extreme) or always at one place (variant-key-position); two built
variants with the same values (variant-duplicate).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pipeline.questions import QuestionBase
from pipeline.questions import type_of as _type_of
from pipeline.shapes import registry
from pipeline.text.plaintext import to_plain
from pipeline.variants.lock import LockedFinding
from pipeline.variants.made import Variant, VariantInvalid, make_variant
from pipeline.variants.template import render_text

MIN_PATTERN_DRAWS = 5  # a pattern across seeds is claimed only over at least this many valid variants
SEEDS_KEPT = 50
_NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:[.,]\d+)*(?![\w])")


@dataclass(frozen=True)
class Draw:
    """One seed's result as the stress test reads it: values, or why there are none."""

    index: int
    seed: int
    values: Any = None
    error: str | None = None
    timeout: bool = False


@dataclass
class Stress:
    """The findings of one question's draw, and the variants that were valid (by index)."""

    findings: list[LockedFinding] = field(default_factory=list)
    valid: dict[int, Variant] = field(default_factory=dict)
    answers: list[float] = field(default_factory=list)  # the numeric answers drawn, for the report's range


def stress(q: QuestionBase, draws: list[Draw], built: int) -> Stress:
    """The findings over `draws` (the first `built` of which are the variants the outputs use)."""
    seeds: dict[str, list[int]] = defaultdict(list)
    first: dict[str, str] = {}
    result = Stress()

    def found(code: str, seed: int, detail: str) -> None:
        seeds[code].append(seed)
        first.setdefault(code, detail)

    keys: list[tuple[int, int, str]] = []  # (seed, key's place, extreme: max|min|-) per choices variant
    for draw in draws:
        made = _variant(q, draw, found)
        if made is None:
            continue
        result.valid[draw.index] = made
        keys += _judge(q, made, found, result)
    _patterns(keys, found)
    _duplicates([d for d in draws if d.index <= built], found)
    result.findings = [LockedFinding(code, _sentence(code, first[code], seeds[code], len(draws)), tuple(sorted(set(seeds[code])))[:SEEDS_KEPT])
                       for code in sorted(seeds)]
    return result


def _variant(q: QuestionBase, draw: Draw, found) -> Variant | None:
    if draw.timeout:
        found("variant-timeout", draw.seed, f"generate({draw.seed}) still running at the question's variants.timeout")
        return None
    if draw.error is not None:
        found("variant-error", draw.seed, f"generate({draw.seed}) failed: {draw.error}")
        return None
    if not isinstance(draw.values, Mapping) or not all(isinstance(k, str) for k in draw.values):
        found("variant-error", draw.seed, f"generate({draw.seed}) returned {type(draw.values).__name__}, not a dict of values by name")
        return None
    odd = [k for k, v in draw.values.items() if not isinstance(v, bool | int | float | str)]
    if odd:
        found("variant-error", draw.seed, f"generate({draw.seed}) returned {type(draw.values[odd[0]]).__name__} for {odd[0]!r}; values are numbers, text or true/false")
        return None
    clash = _coinciding(q, draw.values)
    if clash:
        found("variant-coincide", draw.seed, clash)
        return None
    try:
        return make_variant(q, draw.index, draw.seed, draw.values)
    except VariantInvalid as exc:
        found("variant-invalid", draw.seed, f"seed {draw.seed}: {exc}")
        return None


def _coinciding(q: QuestionBase, values: Mapping[str, Any]) -> str | None:
    """Two options that read the same once rendered (by text, or as the same number)."""
    options = getattr(q, "options", None)
    if not options:
        return None
    try:
        shown = [str(render_text(o, values)) for o in options]
        answers = q.answer if isinstance(q.answer, list) else [q.answer]
        keys = {str(render_text(a, values)) for a in answers}
    except ValueError:
        return None  # a placeholder naming no value: variant-invalid says so
    seen: dict[Any, str] = {}
    for text in shown:
        key = _as_number(text)
        key = key if key is not None else text.casefold().strip()
        if key in seen:
            which = "the key coincides with a distractor" if text in keys or seen[key] in keys else "two options coincide"
            return f"{which}: {seen[key]!r} and {text!r}"
        seen[key] = text
    return None


def _judge(q: QuestionBase, made: Variant, found, result: Stress) -> list[tuple[int, int, str]]:
    parts = _type_of(made.question.type).parts(made.question)
    seed, bounds, keys = made.seed, q.variants.bounds, []
    answer = None
    for part in parts:
        tolerance, one_key = registry.hook(part, "tolerance"), registry.hook(part, "one_key")
        if tolerance is not None:
            answer, low, high = tolerance(part)
            for name in q.variants.distractors:
                wrong = _as_number(made.values.get(name))
                if wrong is not None and low <= wrong <= high and not math.isclose(wrong, answer):
                    found("variant-tolerance-overlap", seed, f"seed {seed}: the tolerance window [{low:g}, {high:g}] takes the distractor {name} = {wrong:g}")
        elif one_key is not None and (key := one_key(part)) is not None:
            numbers = [_as_number(t) for t in key.texts]
            place = key.place
            extreme = "-"
            if all(n is not None for n in numbers):
                answer = numbers[place]
                extreme = "max" if answer == max(numbers) else "min" if answer == min(numbers) else "-"
            keys.append((seed, place, extreme))
    if answer is not None:
        result.answers.append(answer)
        _bounds(answer, bounds, seed, found)
        shown = {_as_number(m) for m in _NUMBER.findall(to_plain(made.question.stem))}
        if answer in shown:
            found("variant-answer-shown", seed, f"seed {seed}: the answer {answer:g} is one of the numbers the stem shows")
    return keys


def _bounds(answer: float, bounds, seed: int, found) -> None:
    if not math.isfinite(answer):
        found("variant-bounds", seed, f"seed {seed}: the answer is {answer}, not a finite number")
    elif bounds and ((bounds.low is not None and answer < bounds.low) or (bounds.high is not None and answer > bounds.high)):
        found("variant-bounds", seed, f"seed {seed}: the answer {answer:g} is outside bounds [{_g(bounds.low)}, {_g(bounds.high)}]")


def _patterns(keys: list[tuple[int, int, str]], found) -> None:
    if len(keys) < MIN_PATTERN_DRAWS:
        return
    extremes = {e for _, _, e in keys}
    if extremes in ({"max"}, {"min"}):
        word = "largest" if extremes == {"max"} else "smallest"
        for seed, _, _ in keys:
            found("variant-key-extreme", seed, f"the key is the {word} option in all {len(keys)} variants drawn: a learner picks it without knowing why")
        return
    places = {p for _, p, _ in keys}
    if len(places) == 1:
        for seed, place, _ in keys:
            found("variant-key-position", seed, f"the key is option {'ABCDEF'[place]} in all {len(keys)} variants drawn")


def _duplicates(built: list[Draw], found) -> None:
    seen: dict[str, int] = {}
    for draw in built:
        if draw.error is not None or draw.timeout or not isinstance(draw.values, Mapping):
            continue
        key = repr(sorted(draw.values.items(), key=lambda kv: str(kv[0])))
        if key in seen:
            found("variant-duplicate", draw.seed, f"variants {seen[key]} and {draw.index} have the same values; draw more different ones or lower `count`")
        seen.setdefault(key, draw.index)


def _sentence(code: str, detail: str, seeds: list[int], draws: int) -> str:
    unique = sorted(set(seeds))
    shown = ", ".join(map(str, unique[:5])) + (f" and {len(unique) - 5} more" if len(unique) > 5 else "")
    return f"{detail} ({len(unique)} of {draws} seeds: {shown})"


def _as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        text = value.strip().replace("−", "-").replace(",", "")
        try:
            return float(text)
        except ValueError:
            return None
    return None


def _g(value: float | None) -> str:
    return "no limit" if value is None else f"{value:g}"

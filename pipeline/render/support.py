"""What an output can hold, derived from the shapes it has writers for (never a hand-kept list of types).

Each shape names, per output, the function that writes it or why it has none (pipeline/shapes/registry.py);
an output asks the registry for its writers (`writers_for`). A question whose
parts include a shape the output has no writer for (or more parts than it can put in one item) is left
out with a warning naming the question, the shape and, where the format says why, the reason; never an
empty field or a KeyError.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pipeline.shapes import registry
from pipeline.view.model import QuestionView


def writers_for(output: str) -> dict[str, str]:
    """Shape name -> writer, for the shapes `output` writes (an unknown shape in a question raises on lookup)."""
    return registry.writers(output)


def holds(q: QuestionView, writers: Mapping[str, object], max_parts: int | None = None) -> str | None:
    """None when the output can write `q`; else the first shape it cannot (or "parts" when there are too many)."""
    if max_parts is not None and len(q.parts) > max_parts:
        return "parts"
    return next((registry.of(part).name for part in q.parts if registry.of(part).name not in writers), None)


def writable(questions: Iterable[QuestionView], writers: Mapping[str, object], output: str, warnings: list[str], *,
             why: Mapping[str, str] | None = None, max_parts: int | None = None) -> list[QuestionView]:
    """The questions `output` can write; each other one adds a warning saying what it lacks."""
    kept = []
    for q in questions:
        missing = holds(q, writers, max_parts)
        if missing is None:
            kept.append(q)
        elif missing == "parts":
            warnings.append(f"{output}: question {q.id} ({q.type}) skipped: it has {len(q.parts)} parts and the format holds {max_parts} per question")
        else:
            reason = {**registry.reasons(output), **(why or {})}.get(missing, f"the format has no way to ask for a {missing} answer")
            warnings.append(f"{output}: question {q.id} ({q.type}) skipped: {reason}")
    return kept

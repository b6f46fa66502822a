"""The blast radius of an example that drifted or failed: what a learner reads beside it, like a citation's
(pipeline/findings/blast.py). The example illustrates its objective's key points and sits before that
objective's questions, so those are what an author re-reads; and the places the example itself is shown,
asked of the output registry (`Output.places`): its anchor in the guide, its place on the site, its deck note.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline import render as registry
from pipeline.derive import build_view
from pipeline.examples.runner import ExampleRef
from pipeline.load.content import ExamContent

if TYPE_CHECKING:  # the value's shape only: the reader (pipeline/settings/reader.py) sits above this stage
    from pipeline.inputs.value import ExamInputs


@dataclass(frozen=True)
class ExampleBlast:
    objective: str
    objective_title: str
    key_points: tuple[str, ...]
    questions: tuple[str, ...]
    shown: tuple[str, ...]  # the guide's anchor, the site's page and anchor, the deck note (GUID in deck)

    def lines(self) -> list[str]:
        return [f"objective {self.objective} {self.objective_title}",
                f"key points: {', '.join(self.key_points) or 'none'}",
                f"questions: {', '.join(self.questions) or 'none'}",
                f"shown in: {', '.join(self.shown) or 'no output'}"]


class ExampleBlasts:
    """Blast radii of an exam's examples; each exam's view is derived once, on the first broken example."""

    def __init__(self, inputs: Callable[[ExamContent], ExamInputs]) -> None:
        self._inputs = inputs  # an exam's inputs, read by the command line's reader when first asked
        self._places: dict[str, dict[str, tuple[str, ...]]] = {}

    def of(self, ref: ExampleRef) -> ExampleBlast:
        objective = ref.file.objective
        shown = self._shown(ref.content).get(ref.example.id, ())
        return ExampleBlast(objective.id, objective.title, tuple(kp.id for kp in objective.key_points),
                            tuple(q.id for q in objective.questions), shown)

    def _shown(self, content: ExamContent) -> dict[str, tuple[str, ...]]:
        if content.exam.id not in self._places:
            view = build_view(self._inputs(content))
            found: dict[str, list[str]] = {}
            for name in ("guide", "site", "deck"):
                for (kind, item), where in registry.places(name, view).items():
                    if kind == "example":
                        found.setdefault(item, []).extend(w if isinstance(w, str) else f"deck note {w[0]} in {w[1]}" for w in where)
            self._places[content.exam.id] = {k: tuple(v) for k, v in found.items()}
        return self._places[content.exam.id]

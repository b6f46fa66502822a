"""The blast radius of an example that drifted or failed: what a learner reads beside it, like a citation's
(pipeline/findings/blast.py). The example illustrates its objective's key points and sits before that
objective's questions, so those are what an author re-reads; and the places the example itself is shown:
its anchor in the guide, its place on the site, its deck note.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.examples.runner import ExampleRef
from pipeline.render.anki.deck_notes import example_guid
from pipeline.render.pages import GUIDE, example_anchor, site_page


@dataclass(frozen=True)
class ExampleBlast:
    objective: str
    objective_title: str
    key_points: tuple[str, ...]
    questions: tuple[str, ...]
    guide: str  # study-guide.pdf#example-<id>
    site: str  # site/objective-<id>.html#example-<id>
    note: str  # the deck note's GUID

    def lines(self) -> list[str]:
        return [f"objective {self.objective} {self.objective_title}",
                f"key points: {', '.join(self.key_points) or 'none'}",
                f"questions: {', '.join(self.questions) or 'none'}",
                f"shown in: {self.guide}, {self.site}, deck note {self.note}"]


def blast_of(ref: ExampleRef) -> ExampleBlast:
    objective, anchor = ref.file.objective, example_anchor(ref.example.id)
    return ExampleBlast(objective.id, objective.title, tuple(kp.id for kp in objective.key_points), tuple(q.id for q in objective.questions),
                        f"{GUIDE}#{anchor}", f"{site_page(objective.id)}#{anchor}", example_guid(ref.content.exam.id, ref.example.id))

"""qti21.zip: a choiceInteraction."""

from __future__ import annotations

from pipeline.render.lms.qti21 import SCORING, _declaration, _mapping, inline_html
from pipeline.shapes.choices import Choices


def write(part: Choices) -> tuple[str, str, str]:
    choices = "".join(f"<simpleChoice identifier=\"{o.id}\">{inline_html(o.text_md)}</simpleChoice>" for o in part.options)
    correct = [o.id for o in part.correct]
    if not part.multiple:
        interaction = f'<choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">{choices}</choiceInteraction>'
        return _declaration("single", "identifier", correct), interaction, SCORING["correct"]
    wrong = len(part.options) - len(correct)
    mapping = _mapping([(o.id, 1 / len(correct) if o.correct else -1 / wrong) for o in part.options])
    interaction = f'<choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="0">{choices}</choiceInteraction>'
    return _declaration("multiple", "identifier", correct, mapping), interaction, SCORING["map"]

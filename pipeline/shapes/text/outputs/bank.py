"""bank.json: the accepted answers, the model answer and how they are compared."""

from __future__ import annotations

from pipeline.shapes.text import Text
from pipeline.text.markdown import to_html
from schema.bank import TextPart


def write(p: Text) -> TextPart:
    model = p.model_answer_md
    return TextPart(shape="text", accepted=list(p.accepted), model_answer=model, model_answer_html=to_html(model) if model else None, long=p.long)

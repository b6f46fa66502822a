"""bank.json: the options in display order, which are right, and how many may be."""

from __future__ import annotations

from pipeline.shapes.choices import Choices
from pipeline.text.markdown import to_inline_html
from schema.bank import BankOption, ChoicesPart


def write(p: Choices) -> ChoicesPart:
    options = [BankOption(id=o.id, letter=o.letter, text=o.text_md, text_html=o.text_md if p.true_false else to_inline_html(o.text_md),
                          correct=o.correct) for o in p.options]
    return ChoicesPart(shape="choices", multiple=p.multiple, true_false=p.true_false, numeric=p.numeric, options=options)

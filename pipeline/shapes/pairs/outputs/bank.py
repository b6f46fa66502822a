"""bank.json: the prompts and the answers (the pairs' and the extras), with their HTML."""

from __future__ import annotations

from pipeline.render.bank import _choice
from pipeline.shapes.pairs import Pairs
from pipeline.text.markdown import to_inline_html
from schema.bank import BankPair, PairsPart


def write(p: Pairs) -> PairsPart:
    prompts = [BankPair(id=x.id, prompt=x.text_md, prompt_html=to_inline_html(x.text_md), answer_id=x.answer_id) for x in p.prompts]
    return PairsPart(shape="pairs", prompts=prompts, answers=[_choice(a) for a in p.answers])

"""Where each key term is explained: the first key point, in exam order, that mentions it.

The guide's glossary and the site's glossary link each term there rather than to its objective's key-terms
box, which only repeats the definition the glossary already shows (issue 34 item 7). A key point mentions a
term when its text, cloze marks and Markdown stripped, holds one of the term's forms as a whole word,
case-insensitive: the term itself, its acronyms and expansions found in its definition
(pipeline/practice/term_forms.py: "LoRA" for Low-Rank Adaptation, "key-value cache" for KV cache) and its
declared `accept:` forms. A hyphen and a space are the same there, and a plural ending (-s, -es) on the
last word counts ("Tensor Cores" mentions "Tensor Core"); other inflections do not ("batched" is not
"batching"), so a point that only alludes to a term never claims to explain it. A term no key point
mentions keeps its key-terms box.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.practice import term_forms
from pipeline.text import cloze
from pipeline.text.plaintext import to_plain
from pipeline.view.model import ExamView, KeyPointView, ObjectiveView
from schema.models import Term


@dataclass(frozen=True)
class Explained:
    """A term's explaining key point and the objective it is in (None: no key point mentions the term)."""

    objective: ObjectiveView
    point: KeyPointView | None


def term_variants(term: Term) -> frozenset[str]:
    """The forms a key point may mention the term by, lower-cased."""
    return term_forms.forms(term.term, term.definition) | {a.casefold() for a in term.accept if a.strip()}


def explaining_points(view: ExamView) -> dict[str, Explained]:
    """Each term (case-folded, as terms are unique regardless of case) -> where it is explained."""
    texts = [(o, p, to_plain(cloze.strip(p.text_md))) for o in view.objectives for p in o.key_points]
    found: dict[str, Explained] = {}
    for objective in view.objectives:
        for term in objective.terms:
            variants = term_variants(term)
            first = next(((o, p) for o, p, text in texts if term_forms.mentions(variants, text)), None)
            found[term.term.casefold()] = Explained(*first) if first else Explained(objective, None)
    return found

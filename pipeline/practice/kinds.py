"""What kind of thing a term names, so that distractors are of the same kind as the answer.

"Memory-bound" (a property) is no distractor for "a setting chosen before training": a candidate rules it
out by grammar alone. A term may say what it is (`kind: technique`, free text, compared as given);
otherwise its kind comes from the head noun of its definition, read by rule:

1. "Said of ..." (how a glossary defines an adjective) is a `property`.
2. A definition whose first word is a verb in -ing ("Keeping only some activations ...", "Replicating the
   whole model ...") describes something done: a `technique`.
3. Otherwise the head noun is the last word of the definition's first noun phrase: the words before the
   first of `(`, `:`, `,`, `;`, a relative word (that, which, whose, who, where) or a preposition (for,
   of, on, in, to, with, from, by, at, as, before, after, between, into, over, under, than, rather; and
   "used"). Its article and an owner's name ("PyTorch's") are skipped.
   The head noun is looked up in `HEADS` (method -> technique, toolkit -> tool, unit -> hardware ...),
   scanning the phrase from its end, so "A Triton Inference Server scheduler feature" is a technique
   (feature) and "The configuration framework NeMo uses" a tool (framework). A noun not in the table is
   the kind itself ("a format" and "a format" match; "a widget" matches only other widgets).
"""

from __future__ import annotations

import re

from pipeline.text.word_forms import stem

_GROUPS = {
    "technique": "technique method approach procedure algorithm strategy practice process recipe trick feature optimization",
    "tool": "tool toolkit framework library helper package server service runtime engine platform sdk api utility compiler scheduler",
    "format": "format datatype representation encoding precision",
    "hardware": "unit processor device chip accelerator gpu core card",
    "metric": "metric measure score rate ratio",
    "setting": "setting hyperparameter option knob flag",
    "property": "property",
    "model": "model network architecture encoder decoder",
    "data": "dataset corpus",
}
HEADS = {stem(word): kind for kind, words in _GROUPS.items() for word in words.split()}
_ENDS = re.compile(r"[(:,;]|\b(?:that|which|whose|who|where|for|of|on|in|to|with|from|by|at|used|as|before|after|between|into|over|under|than|rather)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*(?:['’]s)?")
_SKIP = frozenset({"a", "an", "the", "one", "any"})


def kind_of(definition: str, declared: str | None = None) -> str:
    """The declared kind, else the kind read from the definition's head noun (see the module's rules)."""
    if declared:
        return declared
    text = " ".join(definition.split())
    if re.match(r"said of\b", text, re.IGNORECASE):
        return "property"
    first = _WORD.match(text)
    if first and re.fullmatch(r"[A-Za-z]{2,}ing", first[0]):
        return "technique"
    words = _WORD.findall(_ENDS.split(text, maxsplit=1)[0])
    words = [w for w in words if w.casefold() not in _SKIP and not re.search(r"['’]s$", w)]
    if not words:
        return "thing"
    for word in reversed(words):
        if stem(word) in HEADS:
            return HEADS[stem(word)]
    return words[-1].casefold()

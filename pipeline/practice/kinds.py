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
4. The genus, not its wrapper: "A form of model parallelism that ...", "PyTorch's sharded variant of
   data parallelism" name what the term is after "form/kind/type/variant/version/family/class of"
   (`_WRAPPERS`): the head is read from the phrase after "of".
5. A head noun that names a doing ("parallelism", "quantization", "sharding": -ism, -ization, -isation,
   -ing) is a `technique`, as a definition opening on a verb in -ing is.

A kind with fewer than four terms in an objective and its section leaves its terms without which-term
drills (three distractors of the kind are needed): `validate` then names those kinds and asks for a
declared `kind:` (pipeline/practice/kept.py).
"""

from __future__ import annotations

import re

from pipeline.text.word_forms import stem

_GROUPS = {
    "technique": "technique method approach procedure algorithm strategy practice process recipe trick feature optimization scheme",
    "tool": "tool toolkit framework library helper package server service runtime engine platform sdk api utility compiler scheduler wrapper",
    "format": "format datatype representation encoding precision",
    "hardware": "unit processor device chip accelerator gpu core card",
    "metric": "metric measure score rate ratio latency throughput number count",
    "setting": "setting hyperparameter option knob flag",
    "property": "property",
    "model": "model network architecture encoder decoder",
    "data": "dataset corpus",
}
HEADS = {stem(word): kind for kind, words in _GROUPS.items() for word in words.split()}
_ENDS = re.compile(r"[(:,;]|\b(?:that|which|whose|who|where|for|of|on|in|to|with|from|by|at|used|as|before|after|between|into|over|under|than|rather)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*(?:['’]s)?")
_SKIP = frozenset({"a", "an", "the", "one", "any"})
_WRAPPERS = re.compile(r"^(?:(?:a|an|the)\s+)?(?:[\w-]+['’]s\s+)?(?:[\w-]+\s+)?(?:form|kind|type|variant|version|family|class|flavou?r|sort)\s+of\s+", re.IGNORECASE)
_DOING = re.compile(r"(?:ism|i[sz]ation|[a-z]{3}ing)$", re.IGNORECASE)


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
    text = _WRAPPERS.sub("", text, count=1)  # "a form of model parallelism": the genus is what follows "of"
    words = _WORD.findall(_ENDS.split(text, maxsplit=1)[0])
    words = [w for w in words if w.casefold() not in _SKIP and not re.search(r"['’]s$", w)]
    if not words:
        return "thing"
    if stem(words[-1]) not in HEADS and _DOING.search(words[-1]):  # "model parallelism" is a doing, not a model
        return "technique"
    for word in reversed(words):
        if stem(word) in HEADS:
            return HEADS[stem(word)]
    return words[-1].casefold()

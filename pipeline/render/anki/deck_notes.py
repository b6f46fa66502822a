"""An exam's content as Anki notes: which note type, which deck, which tags, which GUID, which fields.

A note's GUID comes from the exam id and the item's source id (a question's or key point's `id`, a term's
name), never from its text: editing a definition must update the note a learner already has, not add a
second one. Term names are unique in an exam regardless of case, so a term's key is its name in lower case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

import genanki

from pipeline.practice import term_cards
from pipeline.render.anki import card_fields as f
from pipeline.render.anki.note_types import CLOZE, EXAMPLE, QUESTION, TERM, TERM_ONE_WAY, NoteType, stable_id
from pipeline.render.feedback import report_url
from pipeline.render.support import holds, writable
from pipeline.shapes import registry
from pipeline.text import cloze
from pipeline.text.linebreaks import one_line
from pipeline.view.model import CheckPromptView, ExampleView, ExamView, KeyPointView, ObjectiveView, QuestionView
from schema.models import Term


@dataclass(frozen=True)
class DeckNote:
    """One note, independent of genanki: what the package holds and what deck-changes.json compares."""

    guid: str
    note_type: NoteType
    fields: tuple[str, ...]  # HTML, in the note type's field order
    tags: tuple[str, ...]
    deck: str


@dataclass(frozen=True)
class _Place:
    """Where an objective's notes go: its deck, its tags' common stem, the context line on its cards."""

    exam_id: str
    deck: str
    tag: str
    context: str
    vendor: str
    context_parts: tuple[str, ...] = ()  # plain: the exam code and the objective's heading
    feedback: str | None = None  # exam.yaml's report address template ({id})
    titles: tuple = ()  # what is shown with every card of the deck: its titles (pipeline/check/shown_with.py's Shown)


def _tag_part(text: str) -> str:
    """A tag component: Anki splits tags on spaces and nests them on `::`, so neither may appear inside."""
    return re.sub(r"[^\w.-]+", "_", text).strip("_")


def _deck_part(text: str) -> str:
    """A deck name component: Anki nests decks on `::`, so no run of colons (`:::` too) may stay inside, nor
    a colon at an edge (it would join the `::` around it); one line, as Anki shows names."""
    part = re.sub(r":{2,}", ":", one_line(text)).strip(": ")
    return part or "-"


def _place(view: ExamView, objective: ObjectiveView) -> _Place:
    exam, section = view.exam, next(s for s in view.sections if s.number == objective.section)
    parts = (exam.code, section.heading, objective.heading)
    deck = "::".join(_deck_part(p) for p in parts)
    tag = "::".join(_tag_part(p) for p in parts)
    titles = term_cards.titles(objective.heading, section.heading, exam.code, exam.title)
    return _Place(exam.id, deck, tag, f.context_html(exam.code, objective.heading), exam.vendor, (exam.code, objective.heading), exam.feedback, titles)


def _tags(place: _Place, exam_code: str, *item_type: str) -> tuple[str, ...]:
    return (place.tag, "::".join(_tag_part(p) for p in (exam_code, "type", *item_type)))


def _guid(place: _Place, kind: str, key: str) -> str:
    return genanki.guid_for(place.exam_id, kind, key)


def term_note(place: _Place, code: str, term: Term) -> DeckNote:
    """Both cards when the definition stands without the term; else only term -> definition (its own note
    type), whose front shows the term anyway, so nothing is masked (pipeline/practice/term_cards.py)."""
    guid, tags = _guid(place, "term", term.term.casefold()), _tags(place, code, "term")
    if term_cards.one_way_reason(term, place.titles):
        fields = (f.inline_html(term.term), f.block_html(term.definition), place.context, f.context_html(term.term))
        return DeckNote(guid, TERM_ONE_WAY, fields, tags, place.deck)
    # the front that asks for the term hides the asides that name it ("(LoRA)") and any mention in the context line
    context = f.masked_context_html(term.term, term.definition, *place.context_parts)
    fields = (f.inline_html(term.term), f.definition_html(term.term, term.definition), context, f.context_html(term.term))
    return DeckNote(guid, TERM, fields, tags, place.deck)


# The shapes a card can show: those with both a front and a back writer (pipeline/shapes/registry.py).
ANKI = {name: ref for name, ref in registry.writers("anki_back").items() if name in registry.writers("anki_front")}


def question_note(place: _Place, code: str, question: QuestionView, key: str | None = None) -> DeckNote:
    # a generated question says it is a drill, on the card's context line and in its tags
    context = f.context_html(*place.context_parts, "drill") if question.generated else place.context
    fields = (
        f.block_html(question.stem_md), f.instruction(question), f.options_html(question), f.answer_html(question),
        f.model_answer_html(question), f.block_html(question.explanation_md) + f.report_html(report_url(place.feedback, question.id)),
        f.sources_html(question.citations),
        context, f.context_html(key or question.id),
    )
    tags = _tags(place, code, "question", question.type) + ((_tags(place, code, "drill")[1],) if question.generated else ())
    return DeckNote(_guid(place, "question", key or question.id), QUESTION, fields, tags, place.deck)


def check_yourself_note(place: _Place, code: str, objective: ObjectiveView, number: int, prompt: CheckPromptView) -> DeckNote:
    """A self-graded card: the prompt, and on the back what a good answer holds (when the author wrote it) and
    the objective's key points to grade the answer by."""
    points = "".join(f"<li>{f.point_html(cloze.strip(p.text_md))}</li>" for p in objective.key_points)
    fields = (
        f.block_html(prompt.prompt_md), "Answer on your own, aloud or on paper; then grade yourself against the key points on the back.", "", "",
        f.block_html(prompt.answer_md) if prompt.answer_md else "",  # the card's "Model answer": what a good answer holds
        f'<div class="label">Key points of {escape(objective.heading)}</div><ul>{points}</ul>',
        f.sources_html(tuple(c for p in objective.key_points for c in p.citations)), place.context,
        f.context_html(f"{objective.id}-check-yourself-{number}"),
    )
    tags = _tags(place, code, "check_yourself")
    return DeckNote(_guid(place, "check-yourself", f"{objective.id}#{number}"), QUESTION, fields, tags, place.deck)


def cloze_note(place: _Place, code: str, point: KeyPointView) -> DeckNote:
    # the sentences holding the gaps, not the whole point: its other sentences would give a gap away
    fields = (f.cloze_html(cloze.sentences_with_any(point.text_md)), f.quotes_html(point.citations) + f.see_html(point.see), place.context, f.context_html(point.id))
    return DeckNote(_guid(place, "key-point", point.id), CLOZE, fields, _tags(place, code, "key_point"), place.deck)


def example_note(place: _Place, code: str, example: ExampleView) -> DeckNote:
    """"What does it print?": the code on the front, the recorded output and where it last ran on the back."""
    fields = (f.inline_html(example.title), f.code_html(example.code), f.code_html(example.output), f.block_html(example.note_md or ""),
              f.example_run_html(example), place.context, f.context_html(example.id))
    return DeckNote(_guid(place, "example", example.id), EXAMPLE, fields, _tags(place, code, "example"), place.deck)


def notes(view: ExamView, warnings: list[str] | None = None, variants: int = 3) -> list[DeckNote]:
    """Every note of the exam, objective by objective: terms, cloze key points, worked examples, then practice
    questions (those whose shapes a card can show; the others are named in `warnings`). A varied question
    makes a note for each of its first `variants` variants: variant 1 under the question's own GUID (so the
    note a learner already has stays theirs), variant N under `<id>.vN`; new values update them in place."""
    code, found, skipped = view.exam.code, [], [] if warnings is None else warnings
    for objective in view.objectives:
        place = _place(view, objective)
        found += [term_note(place, code, term) for term in objective.terms]
        found += [cloze_note(place, code, kp) for kp in objective.key_points if cloze.marks(kp.text_md)]
        found += [example_note(place, code, e) for e in objective.examples]
        found += [question_note(place, code, part, key) for q in writable(objective.practice, ANKI, "anki", skipped, why=registry.reasons("anki_back"))
                  for shown, variant_key in _variants(q, variants) for key, part in _parts(shown, variant_key)]
        found += [check_yourself_note(place, code, objective, n, prompt) for n, prompt in enumerate(objective.check_yourself, start=1)]
    return found


def _variants(question: QuestionView, most: int) -> list[tuple[QuestionView, str | None]]:
    """(question as shown, its note key) per note: variant 1 keyed as the question itself, then `<id>.vN`."""
    if not question.variants:
        return [(question, None)]
    return [(v.question, None if v.index == 1 else f"{question.id}.v{v.index}") for v in question.variants[:most]]


def _parts(question: QuestionView, variant_key: str | None = None) -> list[tuple[str | None, QuestionView]]:
    """(note key, card) per card of the question: None keys the note by the question's own id."""
    # the shape of a part that cards split (pairs: a long matching) says how; the others are one card
    split = next(((hook, p) for p in question.parts if (hook := registry.hook(p, "anki_cards"))), None)
    if split is None:
        return [(variant_key, question)]
    cards = split[0](question, split[1])  # keyed <id> or <id>#part-N

    def key_of(key: str) -> str | None:
        if variant_key is None:
            return None if key == question.id else key
        return variant_key + key[len(question.id):]
    return [(key_of(key), part) for key, part in cards]


@dataclass(frozen=True)
class ObjectiveDeck:
    deck_id: int  # from the exam and objective ids, so a renamed objective keeps its deck id
    name: str
    description: str  # HTML: the objective's summary


def decks(view: ExamView) -> list[ObjectiveDeck]:
    """One deck per objective; Anki creates the exam and section decks above them from the `::` names."""
    return [
        ObjectiveDeck(stable_id(view.exam.id, "deck", o.id), _place(view, o).deck, f.inline_html(o.summary_md))
        for o in view.objectives
    ]


def notes_by_item(view: ExamView) -> dict[tuple[str, str], DeckNote]:
    """The notes that come from key points and questions, keyed ("key-point", id) or ("question", id):
    which note a learner holds for an item, e.g. for the audit's blast radius."""
    code, found = view.exam.code, {}
    for objective in view.objectives:
        place = _place(view, objective)
        found |= {("key-point", kp.id): cloze_note(place, code, kp) for kp in objective.key_points if cloze.marks(kp.text_md)}
        found |= {("question", q.id): question_note(place, code, q) for q in objective.questions if not q.mock_only and holds(q, ANKI) is None}
        found |= {("example", e.id): example_note(place, code, e) for e in objective.examples}
    return found


def places(view: ExamView) -> dict[tuple[str, str], tuple[tuple[str, str], ...]]:
    """The note a learner holds for each key point and question: ("question", id) -> ((GUID, deck name),).
    The audit's blast radius asks this through the output registry."""
    return {key: ((note.guid, note.deck),) for key, note in notes_by_item(view).items()}

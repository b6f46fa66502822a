"""From what an export calls a question and an answer to the exam's question and option ids.

`ItemKey` is everything this stage knows of a question, taken from the exam view in one place (`key_of`),
so the rest of the stage never reads a question's fields. `QuestionIndex` finds a question by its id, by
a platform name that starts with the id (Moodle's question name, Canvas's item title: the LMS exports
write `<id>: <stem>`), or by its stem's text (Moodle's question summary, Canvas's question text).
Texts are compared as `pipeline.shapes.grading.normalise` does: case, spacing and punctuation aside.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property

from pipeline.shapes import registry
from pipeline.shapes.grading import normalise, rule
from pipeline.text.plaintext import to_plain
from pipeline.view.model import ExamView, QuestionView

_ID_PREFIX = re.compile(r"^\s*([^\s:]+)\s*:")
QTI_PREFIX = "q_"


@dataclass(frozen=True)
class OptionKey:
    id: str
    letter: str
    text: str  # plain text
    correct: bool


@dataclass(frozen=True)
class ItemKey:
    """A question as this stage sees it: its id, type and shape, stem, options in display order, the other
    parts' ids and texts, and its grading rule (`pipeline.shapes.grading.rule`, the one every output uses)."""

    id: str
    type: str
    shape: str  # choices, text, pairs, sequence or numeric (the question's first part; the types have one)
    stem: str  # plain text
    rule: dict  # the part's grading rule, as data
    options: tuple[OptionKey, ...] = ()  # choices
    prompt_texts: tuple[tuple[str, str], ...] = ()  # pairs: (prompt id, plain text)
    answer_texts: tuple[tuple[str, str], ...] = ()  # pairs: (answer id, plain text)
    item_texts: tuple[tuple[str, str], ...] = ()  # sequence: (item id, plain text)
    self_graded: bool = False  # a person judges it (an essay): no score is counted from the response
    option_stats: bool = False  # a response is a set of option ids (the shape's `option_stats` capability)
    source_file: str = ""
    source_line: int = 0

    @property
    def is_choice(self) -> bool:
        return self.option_stats

    @property
    def auto(self) -> bool:
        """Scored without a person: anything but a text part without accepted answers (an essay)."""
        return not self.self_graded

    @cached_property
    def correct(self) -> frozenset[str]:
        return frozenset(o.id for o in self.options if o.correct)

    @cached_property
    def option_ids(self) -> frozenset[str]:
        return frozenset(o.id for o in self.options)

    def option(self, option_id: str) -> OptionKey | None:
        return next((o for o in self.options if o.id == option_id), None)

    @cached_property
    def by_text(self) -> dict[str, str]:
        """Normalized option text -> option id (a statement's options are also found by "true"/"false")."""
        found = {normalise(o.text): o.id for o in self.options}
        found.update({o.id: o.id for o in self.options if o.id in ("true", "false")})
        return found


def key_of(q: QuestionView) -> ItemKey:
    """The one place that reads a question view: its first part (every type has one) and its place."""
    part = q.parts[0]
    fields = registry.writer(part, "stats_key")(part)  # what the shape's reader needs of the part's texts
    spec = registry.of(part)
    return ItemKey(id=q.id, type=q.type, shape=spec.name, stem=to_plain(q.stem_md), rule=rule(part),
                   self_graded=spec.self_graded(part), option_stats=bool(registry.hook(part, "option_stats")), source_file=q.source_file, source_line=q.source_line, **fields)


def no_fields(part: object) -> dict:
    """A typed answer: the rule is all a reader needs."""
    return {}


@dataclass
class QuestionIndex:
    """The exam's questions, found by id, by an id-prefixed name or by stem text."""

    keys: dict[str, ItemKey]
    _stems: list[tuple[str, str]] = field(default_factory=list)  # (normalized stem, id), longest first
    variants: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a varied question's id -> its variants' ids, 1 first
    values: dict[str, dict] = field(default_factory=dict)  # a variant's id -> the values it was built from (for the report)
    _cache: dict[str, tuple[str | None, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, view: ExamView) -> QuestionIndex:
        keys = {q.id: key_of(q) for q in view.questions}
        # a varied question's variants as the LMS exports name them (`<id>.vN`): each matched, and scored, as its own
        # item with its own options; the question's own id stays variant 1's (the site's answers carry `variant`)
        keys |= {f"{q.id}.v{v.index}": replace(key_of(v.question), id=f"{q.id}.v{v.index}") for q in view.questions for v in q.variants}
        firsts = {f"{q.id}.v1" for q in view.questions if q.variants}  # variant 1's stem is the question's own
        stems = sorted(((normalise(k.stem), k.id) for k in keys.values() if k.id not in firsts), key=lambda s: (-len(s[0]), s[1]))
        variants = {q.id: tuple(f"{q.id}.v{v.index}" for v in q.variants) for q in view.questions if q.variants}
        values = {f"{q.id}.v{v.index}": dict(v.values) for q in view.questions for v in q.variants}
        return cls(keys, stems, variants=variants, values=values)

    def counted_as(self, qid: str) -> str:
        """The item an answer to `qid` is counted under: a varied question's own id is its variant 1 (the site's
        answers before variants, a stem matched to variant 1's), so that `<id>` is left for the pooled record."""
        return self.variants[qid][0] if qid in self.variants else qid

    def question_of(self, item: str) -> str | None:
        """The varied question a variant's id belongs to, or None for anything else."""
        head, _, tail = item.rpartition(".v")
        return head if head in self.variants and item in self.variants[head] else None

    def resolve(self, name: str) -> str | None:
        """A question id as the exports write it: the id itself (Moodle's idnumber), or the QTI identifier and
        Canvas ident `q_<id>` (the rule of `pipeline.render.lms.qti21.identifier`; a test keeps the two alike)."""
        if name in self.keys:
            return name
        return name[len(QTI_PREFIX):] if name.startswith(QTI_PREFIX) and name[len(QTI_PREFIX):] in self.keys else None

    def by_name(self, name: str) -> tuple[str | None, str]:
        """A platform name such as "6.1-q1: Which size ..." -> (id, "") or (None, why not)."""
        m = _ID_PREFIX.match(name)
        if m and self.resolve(m.group(1)):
            return self.resolve(m.group(1)), ""
        return None, f"the name {_shown(name)} does not start with a question id of this exam (the LMS exports name questions '<id>: <stem>')"

    def by_stem(self, text: str) -> tuple[str | None, str]:
        """A question's text, or a summary that starts with it (Moodle: '<stem>: <option>; <option>')."""
        if text not in self._cache:
            self._cache[text] = self._find_stem(text)
        return self._cache[text]

    def _find_stem(self, text: str) -> tuple[str | None, str]:
        wanted = normalise(text)
        if not wanted:
            return None, "no question text to match"
        exact = [qid for stem, qid in self._stems if stem == wanted]
        hits = exact or [qid for stem, qid in self._stems if stem and wanted.startswith(stem + " ")]
        if len(hits) == 1 or (hits and not exact and _longest_unique(self._stems, hits)):
            return hits[0], ""
        if hits:
            return None, f"the question text {_shown(text)} matches {len(hits)} questions ({', '.join(sorted(hits)[:4])}); give each a distinct stem"
        return None, f"the question text {_shown(text)} is not the stem of any question of this exam (edited since it was exported?)"


def _longest_unique(stems: list[tuple[str, str]], hits: list[str]) -> bool:
    """Several stems are prefixes of the summary: the longest wins when no other is as long."""
    lengths = {qid: len(stem) for stem, qid in stems if qid in hits}
    best = max(lengths.values())
    return sum(1 for n in lengths.values() if n == best) == 1 and lengths[hits[0]] == best


def _shown(text: str, width: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= width else flat[: width - 1] + "…")

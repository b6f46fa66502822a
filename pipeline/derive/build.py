"""Build the exam view from an exam's inputs (its validated content, its locks, the date): once per exam and
build. Everything is handed in (pipeline/inputs/value.py): nothing here reads a file beside the sources, the
environment or the clock."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from pipeline.derive.citations import Citations
from pipeline.derive.questions import Origin, question_view, varied_view
from pipeline.examples.lock import ExamplesLock, example_hash
from pipeline.examples.requirements import exam_requirements, requirement_set
from pipeline.load.content import ExamContent, ObjectiveFile
from pipeline.practice.coverage import make_coverage
from pipeline.practice.generate import SourcedQuestion, generate
from pipeline.variants.built import built_variants
from pipeline.variants.lock import VariantsLock
from pipeline.view.model import CheckPromptView, ExampleView, ExamView, KeyPointView, ObjectiveView, SectionView, SeeView
from schema.example_status import ExampleStatus
from schema.models import CheckYourself, CrossRef, Exam, Example, Objective, Question, Section

if TYPE_CHECKING:  # the value's shape only: the reader (pipeline/settings/reader.py) sits above this stage
    from pipeline.inputs.value import ExamInputs


def build_view(inputs: ExamInputs, today: dt.date | None = None, when: dt.datetime | None = None) -> ExamView:
    """`today` judges staleness and `when` is the build's date; both default to the source date
    (`ExamInputs.source_date`: SOURCE_DATE_EPOCH, else the latest review date)."""
    content = inputs.content
    when = when or inputs.source_date
    today = today or when.date()
    citations = Citations(content, inputs.citations)
    generated = _Generated(content)
    runs = _Runs(content, inputs.examples, inputs.variants)
    files: dict[int, list[ObjectiveFile]] = {}  # section number -> its objective files, in source order
    for file in content.objective_files:
        if (section := content.section_of(file.objective)) is not None:
            files.setdefault(section.number, []).append(file)
    ordered = sorted(content.exam.sections, key=lambda s: s.number)
    sections = tuple(_section(s, files.get(s.number, []), content, citations, generated, runs, today) for s in ordered)
    questions = [q for s in sections for o in s.objectives for q in (*o.questions, *o.generated)]
    exam, policy = content.exam, content.exam.review_policy.max_age_days
    return ExamView(
        exam=exam, sections=sections, references=citations.references(),
        coverage=make_coverage(content, questions, generated.dropped, generated.notes), today=today, source_date=when,
        source_date_pinned=inputs.dates.epoch is not None, sources_changed_at=inputs.changed_at,
        exam_stale=(today - exam.reviewed).days > policy, exam_age_days=(today - exam.reviewed).days,
        exam_facts=citations.facts(content), media=content.media,
    )


class _Generated:
    """The generated questions of the exam, by objective, and what the generator left out."""

    def __init__(self, content: ExamContent) -> None:
        generation = generate(content)
        self.dropped, self.notes = generation.dropped, generation.notes
        self.by_objective: dict[str, list[SourcedQuestion]] = {}
        for sourced in generation.questions:  # sorted by id
            self.by_objective.setdefault(sourced.objective_id, []).append(sourced)


class _Runs:
    """Each example as the examples lock last saw it: an entry whose hash is not the example's is not-run."""

    def __init__(self, content: ExamContent, lock: ExamplesLock, variants: VariantsLock) -> None:
        self.lock, self.requirements = lock, exam_requirements(content.exam, content.folder)
        self.variants = variants

    def made(self, q: Question) -> list:
        """A varied question's built variants (none for a question that does not vary)."""
        return built_variants(q, self.variants.entries.get(q.id)) if q.variants is not None else []

    def view(self, example: Example) -> ExampleView:
        entry = self.lock.entry(example.id)
        current = entry.hash == example_hash(example, requirement_set(self.requirements, example))
        env = entry.environment if current else None
        return ExampleView(
            example.id, example.title, example.language, example.code, example.output, example.note,
            entry.status if current else ExampleStatus.NOT_RUN, entry.ran if current else None,
            env.python if env else None, env.requested if env else (), example.device,
        )


def _section(section: Section, files: list[ObjectiveFile], content: ExamContent, citations: Citations, generated: _Generated,
             runs: _Runs, today: dt.date) -> SectionView:
    objectives = tuple(_objective(f, section, content, citations, generated, runs, today) for f in files)
    return SectionView(section.number, section.title, section.weight, objectives)


def _objective(file: ObjectiveFile, section: Section, content: ExamContent, citations: Citations, generated: _Generated, runs: _Runs,
               today: dt.date) -> ObjectiveView:
    o, exam = file.objective, content.exam
    path = (exam.code, f"{section.number} {section.title}", f"{o.id} {o.title}")
    authored = [_authored(file, index, q, n, path, exam, content) for n, (index, q) in enumerate(file.indexed("questions"), start=1)]
    made = [_made(s, len(authored) + n, path, exam, content) for n, s in enumerate(generated.by_objective.get(o.id, []), start=1)]
    age = (today - o.reviewed).days
    return ObjectiveView(
        id=o.id, title=o.title, summary_md=o.summary, section=section.number, reviewed=o.reviewed, age_days=age,
        stale=age > exam.review_policy.max_age_days, key_points=_key_points(o, citations, content), terms=tuple(o.terms),
        examples=tuple(runs.view(e) for e in o.examples), labs=tuple(o.labs),
        questions=tuple(_question(q, origin, citations, runs) for q, origin in authored if q.variants is None or runs.made(q)),
        generated=tuple(question_view(q, origin, citations) for q, origin in made),
        see=_see(getattr(o, "see", None), content), check_yourself=tuple(map(_check_prompt, o.check_yourself)),
    )


def _check_prompt(prompt: str | CheckYourself) -> CheckPromptView:
    """Either form of a check-yourself prompt: a line, or {prompt, answer}."""
    return CheckPromptView(prompt) if isinstance(prompt, str) else CheckPromptView(prompt.prompt, prompt.answer)


def _question(q: Question, origin: Origin, citations: Citations, runs: _Runs):
    """A question's view; a varied one's is its variant 1 carrying the others. A varied question with no variant
    yet (never drawn: validate says so, and build never gets here) is left out of the view: only tools that
    derive a view of unchecked content (the audit's blast radius) meet it, and there is nothing to show."""
    built = runs.made(q)
    return varied_view(q, built, origin, citations) if built else question_view(q, origin, citations)


def _key_points(o: Objective, citations: Citations, content: ExamContent) -> tuple[KeyPointView, ...]:
    return tuple(KeyPointView(p.id, p.text, citations.of_point(p.id), _see(p.see, content), p.essential) for p in o.key_points)


def _see(ref: CrossRef | None, content: ExamContent) -> SeeView | None:
    if ref is None:
        return None
    target = content.cross_ref(ref.exam, ref.objective)
    return SeeView(target.exam_id, target.objective, target.exam_id == content.exam.id, target.exam_code, target.title)


def _relative(file: ObjectiveFile, content: ExamContent) -> str:
    # Relative to the exam folder: the same wherever the sources folder lives or whatever it is called.
    return file.path.relative_to(content.folder).as_posix()


def _authored(file: ObjectiveFile, index: int, q: Question, number: int, path: tuple, exam: Exam, content: ExamContent) -> tuple[Question, Origin]:
    origin = Origin(file.objective.id, int(path[1].split()[0]), number, path, _relative(file, content),
                    file.line_of(("questions", index)), None, exam.id)
    return q, origin


def _made(s: SourcedQuestion, number: int, path: tuple, exam: Exam, content: ExamContent) -> tuple[Question, Origin]:
    origin = Origin(s.objective_id, int(path[1].split()[0]), number, path, _relative(s.file, content),
                    s.file.line_of(s.node), s.rule, exam.id)
    return s.question, origin


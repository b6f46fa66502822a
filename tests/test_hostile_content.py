"""What a contributed source can still do to the outputs, each case a file in a fixture exam: titles that
break out of GIFT's category line, terms written as Markdown links, definitions long enough to push a
generated question past the schema's limits, ids too long for a file name or differing only in case,
`:::` in a deck name, and one exam's failure next to another's good build. None exits 3."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys

import pytest

from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render.anki.deck_notes import notes_by_item
from pipeline.render.lms import canvas, gift, moodle, qti21
from pipeline.render.lms.text import block_html, inline_html
from pipeline.settings.reader import exam_inputs
from tests.conftest import FIXTURES, ROOT, TODAY, add_exam, write_found_lock
from tests.kit.lms import parse_gift

EXAM = (FIXTURES / "exams" / "valid.yaml").read_text(encoding="utf-8")
OBJECTIVE = 'id: "1.1"\ntitle: {title}\nsummary: A summary.\nreviewed: 2026-11-01\nkey_points:\n  - id: kp\n    text: A point.\n'
QUESTION = "  - id: {id}\n    type: true_false\n    stem: {stem}\n    answer: true\n    explanation: Because.\n"


def sources_with(tmp_path, objective: str, exam: str = EXAM, name: str = "o.yaml"):
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "exam.yaml").write_text(exam, encoding="utf-8")
    (folder / name).write_text(objective, encoding="utf-8")
    write_found_lock(folder)
    return tmp_path / "sources"


def view_of(sources):
    checked = validate(sources, dt.date.fromisoformat(TODAY))
    assert checked.ok, [d.format() for d in checked.report.errors]
    content = checked.exams[0]
    return build_view(exam_inputs(content))


def test_a_line_break_in_a_title_stays_inside_the_gift_category_line(tmp_path):
    """A section title ending in a line break and a whole GIFT question with raw HTML: one category, one question."""
    injected = '"Basics\\n\\n::evil::[html]<script>alert(1)</script>{TRUE}\\n\\n$CATEGORY: elsewhere"'
    exam = EXAM.replace("{number: 1, title: Basics, weight: 40}", f"{{number: 1, title: {injected}, weight: 40}}")
    objective = OBJECTIVE.format(title='"Line\\u2028separated\\u2029title"') + "questions:\n" + QUESTION.format(id="q1", stem="Is it?")
    view = view_of(sources_with(tmp_path, objective, exam))
    path = tmp_path / "questions.gift"
    path.write_text(gift.gift_text(view.questions), encoding="utf-8")
    code, out = parse_gift(path)
    assert code == 0, out
    parsed = json.loads(out)
    categories = [item["title"] for item in parsed if item["type"] == "Category"]
    questions = [item for item in parsed if item["type"] != "Category"]
    assert len(categories) == 1 and categories[0].startswith("$course$/top/DEMO-1/1 Basics  ::evil::[html]<script>")
    assert categories[0].endswith("/1.1 Line separated title")
    assert [q["title"] for q in questions] == ["q1"]  # nothing injected, nothing moved to another category
    assert "\n" not in moodle.category_path(view.questions[0])


def test_a_term_written_as_a_markdown_link_is_an_error_and_never_a_link(tmp_path):
    objective = OBJECTIVE.format(title="Links") + "terms:\n  - {term: '[x](http:/course/delete.php?id=1)', definition: A trap.}\n"
    sources = sources_with(tmp_path, objective)
    checked = validate(sources, dt.date.fromisoformat(TODAY))
    errors = [d.format(tmp_path) for d in checked.report.errors]
    assert errors == ["sources/demo/o.yaml:9:17: error: terms[0].term: link to 'http:/course/delete.php?id=1' is not allowed: only http://, "
                      "https:// and mailto: links reach the outputs; write the page's full address [link]"]
    for render in (inline_html, block_html):  # even past validate, the exports' Markdown keeps it as text
        assert "href" not in render("[x](http:/course/delete.php?id=1)") and "href" not in render("[x](ftp://host/x)")
    assert 'href="https://example.com/a"' in inline_html("[x](https://example.com/a)")


def test_long_definitions_are_dropped_and_counted_not_a_crash(run_cli, tmp_path):
    long = "A " + "very " * 590 + "long definition."  # 2,969 characters: within the 3,000 an author may write
    terms = "".join(f"  - {{term: Term{i}, definition: '{long} Number {i}.'}}\n" for i in range(5))  # four to match, one left over
    sources = sources_with(tmp_path, OBJECTIVE.format(title="Long terms") + "terms:\n" + terms)
    result = run_cli("build", "--sources", "sources", "--out", "out", "--today", TODAY, "--only", "bank", cwd=tmp_path)
    assert result.code == 0, result.err
    bank = json.loads((tmp_path / "out" / "demo" / "bank.json").read_text(encoding="utf-8"))
    dropped = {d["id"]: d["reason"] for d in bank["coverage"]["dropped"]}
    assert dropped["gen-matching-term0"] == "too_long"  # the explanation: the term left over, then its whole definition
    assert all(dropped[f"gen-which-term-term{i}"] == "too_long" for i in range(5))  # the question, then its definition
    assert bank["coverage"]["dropped_by_reason"]["too_long"] == 6
    assert all(len(q["explanation"]) <= 3000 and len(q["stem"]) <= 3000 for q in bank["questions"])
    assert sources.is_dir()


@pytest.mark.parametrize(("exam_id", "objective_id", "question_id", "error"), [
    ("e" * 65, "1.1", "q1", "sources/demo/exam.yaml:1:5: error: id: 65 characters, over the limit of 64; shorten it [schema]"),
    ("demo", "1." + "1" * 300, "q1", "sources/demo/o.yaml:1:5: error: id: '1.11111111111111111111111"),
    ("demo", "1.1", "q" * 101, "sources/demo/o.yaml:9:9: error: questions[0].id: 101 characters, over the limit of 100; shorten it [schema]"),
])
def test_ids_too_long_for_a_file_name_are_refused_at_validate(run_cli, tmp_path, exam_id, objective_id, question_id, error):
    objective = OBJECTIVE.format(title="Ids").replace('"1.1"', f'"{objective_id}"') + "questions:\n" + QUESTION.format(id=question_id, stem="Is it?")
    sources_with(tmp_path, objective, EXAM.replace("id: demo", f"id: {exam_id}"))
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=tmp_path)
    assert result.code == 1
    assert any(line.startswith(error) for line in result.lines), result.lines


def test_question_ids_that_differ_only_in_case_are_an_error(run_cli, tmp_path):
    objective = OBJECTIVE.format(title="Case") + "questions:\n" + QUESTION.format(id="Q1", stem="One?") + QUESTION.format(id="q1", stem="Two?")
    sources_with(tmp_path, objective)
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=tmp_path)
    assert result.code == 1
    assert "sources/demo/o.yaml:14:9: error: questions[1].id: question id 'q1' differs from 'Q1' at sources/demo/o.yaml:9 only in case; " \
           "give it another id (exports name files by id, and some file systems ignore case) [duplicate-id]" in result.lines


def test_generated_ids_are_unique_regardless_of_case(tmp_path):
    """A key point `KP` and a question `gen-cloze-kp-c1`: the generated fill-in would share its QTI file."""
    objective = (OBJECTIVE.format(title="Case").replace("id: kp\n    text: A point.", "id: KP\n    text: 'It takes {{c1::2}} steps.'")
                 + "questions:\n" + QUESTION.format(id="gen-cloze-kp-c1", stem="Is it?"))
    view = view_of(sources_with(tmp_path, objective))
    names = [qti21.item_href(q).casefold() for q in view.questions]
    assert len(names) == len(set(names)) and "gen-cloze-KP-c1" not in [q.id for q in view.questions]
    assert {"id": "gen-cloze-KP-c1", "reason": "id_taken"}.items() <= next(d for d in view.coverage.model_dump()["dropped"]).items()


def test_colons_in_titles_never_nest_a_deck(tmp_path):
    exam = EXAM.replace("code: DEMO-1", 'code: "DEMO:"').replace("title: Basics", 'title: "::Basics:::more::"')
    view = view_of(sources_with(tmp_path, OBJECTIVE.format(title='"a:::b ::c"') + "questions:\n" + QUESTION.format(id="q1", stem="Is it?"), exam))
    decks = {note.deck for note in notes_by_item(view).values()}
    assert decks == {"DEMO::1 :Basics:more::1.1 a:b :c"}


def test_every_xml_export_is_well_formed_for_any_allowed_character(tmp_path):
    """The characters XML 1.0 allows at its edges (U+FFFD, the last plane, C1 written as escapes is refused)."""
    from lxml import etree

    objective = OBJECTIVE.format(title='"\\uFFFD \\U0010FFFD \\u200F \\uFEFF ]]> &amp; <x>"') + "questions:\n" + QUESTION.format(id="q1", stem='"]]><![CDATA[ \\uFFFD"')
    view = view_of(sources_with(tmp_path, objective))
    etree.fromstring(moodle.moodle_xml(view, view.questions).encode("utf-8"))
    for files in (qti21.package_files(view, view.questions), canvas.package_files(view, view.questions)):
        for name, data in files.items():
            if name.endswith(".xml"):
                etree.fromstring(data)


FAST = {"bank": "bank", "deck": "deck"}  # name -> a registry entry's name (its state files come with it), or a module
DRIVER = ("import sys, pipeline.build as b, pipeline.render as r; b.RENDERERS = {{k: r.RENDERERS.get(v, v) for k, v in {renderers!r}.items()}}; "
          "from pipeline.cli import main; sys.exit(main(sys.argv[1:]))")


def build_two(tmp_path, renderers=FAST) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SOURCE_DATE_EPOCH": "1798156800"}
    return subprocess.run([sys.executable, "-c", DRIVER.format(renderers=renderers), "build", "--sources", "sources", "--out", "out",
                           "--today", TODAY], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def two_exams(tmp_path):
    sources = tmp_path / "sources"
    folder = sources / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    shutil.copy(FIXTURES / "objectives" / "valid.yaml", folder / "valid.yaml")
    write_found_lock(folder)
    add_exam(sources, "other", "valid")
    return sources


def test_a_broken_deck_state_stops_its_exam_alone(tmp_path, two_exams):
    (two_exams / "demo" / "deck.state.json").write_text('{"notes": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    result = build_two(tmp_path)
    assert result.returncode == 2, result.stderr
    assert "sources/demo/deck.state.json:1:" in result.stderr and "deck.state.json cannot be read (nested more than 16 levels deep" in result.stderr
    assert "build: not built: demo: " in result.stderr and "Traceback" not in result.stderr
    assert {p.name for p in (tmp_path / "out" / "other").iterdir()} >= {"bank.json", "deck.apkg"}  # the other exam's outputs
    assert not (tmp_path / "out" / "demo").exists()


def test_a_bug_in_one_exam_leaves_the_others_built(tmp_path, two_exams):
    (two_exams / "demo" / "valid.yaml").write_text((FIXTURES / "objectives" / "valid.yaml").read_text().replace("Basics of things", "BOOM"))
    renderers = {**FAST, "boom": "tests.kit.boomrenderer"}
    result = build_two(tmp_path, renderers)
    assert result.returncode == 3, result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("internal error (a bug in the pipeline, not in your sources): RuntimeError: boom")
    assert (tmp_path / "out" / "other" / "bank.json").is_file() and not (tmp_path / "out" / "demo").exists()


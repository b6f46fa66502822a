"""Property: arbitrary Unicode text in every field of a fixture exam (titles, code, vendor, sections, key
points, citations, terms, every question type's stems, options, pairs, items and explanations) either
stops at `validate` with errors (never an exception), or gives four LMS exports that their independent
parsers read (gift-pegjs under Node for GIFT; lxml, strictly, for Moodle XML, QTI 2.1 and Canvas QTI)
and that hold each field's text as a reader sees it (`to_plain` of the Markdown, whitespace aside).

The text is drawn from every code point but surrogates, so controls, line breaks of every kind, bidi
marks, noncharacters, GIFT's and Markdown's and XML's special characters and astral characters all come
up; PyYAML writes the fixture (escaping what YAML cannot hold raw), the project's own loader reads it.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import unicodedata
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from lxml import etree, html

from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render.lms import canvas, gift, moodle, qti21
from pipeline.render.lms.text import inline_html
from pipeline.render.support import writable
from pipeline.settings.reader import exam_inputs
from pipeline.text.plaintext import to_plain
from tests.conftest import ROOT, TODAY, write_found_lock

FIELDS = ("code", "exam_title", "vendor", "section", "title", "summary", "point", "citation_title", "quote", "publisher",
          "term1", "term2", "term3", "term4", "definition", "stem", "option1", "option2", "option3", "explanation",
          "prompt1", "prompt2", "answer1", "answer2", "extra", "item1", "item2", "item3", "model", "lab")
# Text a field may hold (controls and the two noncharacters are refused at validate, see ANY), and any text.
TEXT = st.text(st.characters(exclude_categories=("Cs", "Cc"), exclude_characters="\ufffe\uffff"), min_size=1, max_size=24).filter(str.strip)
ANY = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=24)
HOSTILE = ("%50% a weight?", "a\nb", "x\u2028y\u2029z", "$CATEGORY: x", "::t::[html]<script>alert(1)</script>{TRUE}", "]]>", "<![CDATA[",
           "~=#{}:\\", "&amp; &#0; &bogus;", "*a* _b_ `c`", "[l](http:/x)", "\u202eevil", "\U0001F600 e\u0301", "\ufeff\u200b",
           "#h\n\n- li", "\ufffd", "--> <!--", "\x85", "\ufffe")
REFUSED = ("[l](http:/x)", "\x85", "\ufffe")  # a link the allow list refuses, a control character, a noncharacter
ACCEPTED = tuple(h for h in HOSTILE if h not in REFUSED)

GIFT_SCRIPT = """
const {parse} = require('gift-pegjs'); const fs = require('fs'); const rl = require('readline').createInterface({input: process.stdin});
rl.on('line', (path) => { let out; try { out = {ok: parse(fs.readFileSync(path, 'utf8'))}; } catch (e) { out = {error: String(e.message)}; }
  process.stdout.write(JSON.stringify(out) + '\\n'); });
"""


@pytest.fixture(scope="module")
def gift_parser():
    """gift-pegjs in one Node process for the whole module: a file path in, its parse (or error) out."""
    assert (ROOT / "node_modules" / "gift-pegjs").is_dir(), "gift-pegjs is not installed: run `make test` (it runs npm ci)"
    node = subprocess.Popen(["node", "-e", GIFT_SCRIPT], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def parse(path: Path) -> dict:
        node.stdin.write(f"{path}\n")
        node.stdin.flush()
        return json.loads(node.stdout.readline())

    yield parse
    node.stdin.close()
    node.wait(timeout=30)


def exam_files(t: dict[str, str]) -> dict[str, dict]:
    """The fixture exam with the text `t` in every field."""
    exam = {"id": "prop", "code": t["code"], "title": t["exam_title"], "vendor": t["vendor"], "exam_page": "https://example.com/exam",
            "reviewed": "2026-11-01", "review_policy": {"max_age_days": 180}, "sections": [{"number": 1, "title": t["section"], "weight": 50}]}
    terms = [{"term": t[f"term{i}"], "definition": f"{t['definition']} number {i} of the four defined here"} for i in range(1, 5)]
    questions = [
        {"id": "q-single", "type": "single", "stem": t["stem"], "options": [t["option1"], t["option2"]], "answer": t["option1"], "explanation": t["explanation"]},
        {"id": "q-multiple", "type": "multiple", "stem": t["stem"] + " (multiple)", "options": [t["option1"], t["option2"], t["option3"]],
         "answer": [t["option1"], t["option3"]], "explanation": t["explanation"]},
        {"id": "q-tf", "type": "true_false", "stem": t["stem"] + " (true or false)", "answer": False, "explanation": t["explanation"]},
        {"id": "q-essay", "type": "short_answer", "stem": t["stem"] + " (essay)", "answer": t["model"], "explanation": t["explanation"]},
        {"id": "q-matching", "type": "matching", "stem": t["stem"] + " (matching)", "pairs": [{"prompt": t["prompt1"], "answer": t["answer1"]},
         {"prompt": t["prompt2"], "answer": t["answer2"]}], "extra_answers": [t["extra"]], "explanation": t["explanation"]},
        {"id": "q-ordering", "type": "ordering", "stem": t["stem"] + " (ordering)", "items": [t["item1"], t["item2"], t["item3"]], "explanation": t["explanation"]},
    ]
    objective = {"id": "1.1", "title": t["title"], "summary": t["summary"], "reviewed": "2026-11-01",
                 "key_points": [{"id": "kp", "text": t["point"] + " and {{c1::the gap}}.", "citations": [
                     {"url": "https://example.com/page", "title": t["citation_title"], "quote": t["quote"], "publisher": t["publisher"]}]}],
                 "terms": terms, "labs": [{"title": t["lab"], "url": "https://example.com/lab"}], "questions": questions}
    return {"exam.yaml": exam, "objective.yaml": objective}


def write_sources(base: Path, t: dict[str, str]) -> Path:
    folder = base / "sources" / "prop"
    folder.mkdir(parents=True)
    for name, data in exam_files(t).items():
        # every non-ASCII character as an escape (\\L, \\u2029, \\U0001F600): raw NEL, LS and PS are refused in a file
        (folder / name).write_text(yaml.safe_dump(data, allow_unicode=False, sort_keys=False, width=10**9), encoding="utf-8")
    write_found_lock(folder)
    return base / "sources"


def words(text: str) -> str:
    """Text as compared: NFC, every run of whitespace (any Unicode space or line break) one space."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def html_text(fragment: str) -> str:
    return html.fragment_fromstring(fragment, create_parent="div").text_content() if fragment.strip() else ""


def holds(exported: str, markdown: str, where: str) -> None:
    assert words(to_plain(markdown)) in words(exported), (where, to_plain(markdown), exported)


def inline(markdown: str) -> str:
    """What a reader sees of a one-line field (an option, a prompt, an item): its inline Markdown's text."""
    return words(html_text(inline_html(markdown)))


def check_gift(view, path: Path, parse) -> None:
    questions = writable(view.questions, gift.WRITERS, "gift", [], why=gift.WHY, max_parts=1)
    path.write_text(gift.gift_text(questions), encoding="utf-8")
    parsed = parse(path)
    assert "ok" in parsed, parsed.get("error")
    items = [item for item in parsed["ok"] if item["type"] != "Category"]
    categories = [item["title"] for item in parsed["ok"] if item["type"] == "Category"]
    assert [item["title"] for item in items] == [q.id for q in questions]  # nothing injected, nothing lost
    assert categories == list(dict.fromkeys(moodle.category_path(q) for q in questions))
    for item, q in zip(items, questions, strict=True):
        holds(html_text(item["stem"]["text"]), q.stem_md, f"gift {q.id} stem")


def check_moodle(view) -> None:
    questions = writable(view.questions, moodle.WRITERS, "moodle", [], max_parts=1)
    root = etree.fromstring(moodle.moodle_xml(view, questions).encode("utf-8"))
    shown = {q.findtext("idnumber"): q for q in root.iter("question") if q.get("type") != "category"}
    assert list(shown) == [q.id for q in questions]
    for q in questions:
        holds(html_text(shown[q.id].findtext("questiontext/text")), q.stem_md, f"moodle {q.id} stem")
        holds(html_text(shown[q.id].findtext("generalfeedback/text")), q.explanation_md, f"moodle {q.id} feedback")
        for o in options(q):
            assert any(inline(o.text_md) in words(html_text(a.findtext("text") or "")) for a in shown[q.id].iter("answer")), (q.id, o)
    categories = [c.findtext("category/text") for c in root.iter("question") if c.get("type") == "category"]
    assert categories == list(dict.fromkeys(moodle.category_path(q) for q in questions))


def options(q) -> list:
    """The choices a reader picks from (not true/false's own two words)."""
    return [o for part in q.parts if part.shape == "choices" and not part.true_false for o in part.options]


def shown_texts(q) -> list[str]:
    """Every one-line text a question shows besides its stem: options, prompts, answers, items."""
    texts = [o.text_md for o in options(q)]
    for part in q.parts:
        texts += [p.text_md for p in getattr(part, "prompts", ())] + [i.text_md for i in getattr(part, "items", ())]
    return texts


def check_qti(view) -> None:
    questions = writable(view.questions, qti21.WRITERS, "qti21", [], max_parts=1)
    files = qti21.package_files(view, questions)
    ns = {"q": qti21.NS}
    for q in questions:
        item = etree.fromstring(files[qti21.item_href(q)])
        stem = item.find("q:itemBody/q:div", ns)
        holds("".join(stem.itertext()), q.stem_md, f"qti {q.id} stem")
        holds("".join(item.find("q:modalFeedback", ns).itertext()), q.explanation_md, f"qti {q.id} feedback")
        choices = ["".join(c.itertext()) for c in item.iter(f"{{{qti21.NS}}}simpleChoice", f"{{{qti21.NS}}}simpleAssociableChoice")]
        for text in shown_texts(q):
            assert any(inline(text) in words(c) for c in choices), (q.id, text, choices)
    etree.fromstring(files["assessment.xml"])
    etree.fromstring(files["imsmanifest.xml"])


def check_canvas(view) -> None:
    questions = writable(view.questions, canvas.WRITERS, "canvas", [], why=canvas.WHY, max_parts=1)
    files = canvas.package_files(view, questions)
    qid = canvas.quiz_id(view)
    root = etree.fromstring(files[f"{qid}/{qid}.xml"])
    ns = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
    items = {i.get("ident"): i for i in root.iter(f"{ns}item")}
    for q in questions:
        stem = items[qti21.identifier(q)].find(f"{ns}presentation/{ns}material/{ns}mattext").text or ""
        holds(html_text(stem), q.stem_md, f"canvas {q.id} stem")
    etree.fromstring(files[f"{qid}/assessment_meta.xml"])
    etree.fromstring(files["imsmanifest.xml"])


def check(base: Path, t: dict[str, str], parse) -> bool:
    """True when the sources validated and every export held; False when validate refused them (with errors)."""
    sources = write_sources(base, t)
    checked = validate(sources, dt.date.fromisoformat(TODAY))
    if not checked.ok:
        assert checked.report.errors  # refused with a reason at a place, never an exception
        return False
    content = checked.exams[0]
    view = build_view(exam_inputs(content))
    assert len(view.questions) >= 6
    check_gift(view, base / "questions.gift", parse)
    check_moodle(view)
    check_qti(view)
    check_canvas(view)
    return True


def _distinct(texts: dict[str, str]) -> dict[str, str]:
    """The texts, made distinct where the schema needs them distinct (options, pairs, items, terms), so that
    most draws are valid sources and the exports are what is tested."""
    out = dict(texts)
    for group in (("option1", "option2", "option3"), ("answer1", "answer2", "extra"), ("item1", "item2", "item3"), ("term1", "term2", "term3", "term4")):
        for n, name in enumerate(group):
            out[name] = f"{out[name]} {n + 1}"
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.fixed_dictionaries({name: st.one_of(TEXT, st.sampled_from(ACCEPTED)) for name in FIELDS}),
       st.sampled_from(FIELDS), st.one_of(ANY, st.sampled_from(HOSTILE)))
@example({name: HOSTILE[i % len(HOSTILE)] for i, name in enumerate(FIELDS)}, "title", "\x1b[31m")
def test_any_text_validates_or_is_refused_and_every_export_parses_and_holds_it(tmp_path_factory, gift_parser, texts, field, anything):
    """Every field gets text a field may hold (or a hostile sample), and one of them anything at all."""
    exported = check(tmp_path_factory.mktemp("prop"), _distinct({**texts, field: anything}), gift_parser)
    event("exported" if exported else "refused by validate")


@pytest.mark.parametrize("hostile", ACCEPTED)
def test_hostile_text_in_every_field_is_exported_whole(tmp_path, gift_parser, hostile):
    """The hostile samples the schema accepts, each in every field at once: they must validate, then export."""
    assert check(tmp_path, _distinct({name: f"{hostile} {name}" for name in FIELDS}), gift_parser)

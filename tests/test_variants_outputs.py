"""A varied question of every type that can vary, built into every output from the lock (nothing drawn by
`build`), and read back with the readers the other outputs' tests use: gift-pegjs, the Moodle importer's
rules, the QTI packages' XML, the bank."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
import zipfile

import pytest

from pipeline.settings.reader import exam_inputs
from tests.conftest import TODAY
from tests.kit.lms import parse_gift
from tests.kit.moodle import importer_problems
from tests.kit.variants import SAFE_RATIO, SINGLE, write_varied

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
Q12 = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"

EVERY_TYPE = [SAFE_RATIO, SINGLE, '''
- id: 1.1-multiple
  type: multiple
  stem: "Which formats take at most {{ limit }} bits a weight?"
  options: ["{{ a }}", "{{ b }}", "FP64"]
  answer: ["{{ a }}", "{{ b }}"]
  explanation: "Both take {{ limit }} bits or fewer."
  key_points: [1.1-size]
  variants:
    count: 2
    combine: zip
    values: {limit: [sixteen, eight], a: [FP16, int8], b: [BF16, FP8]}
''', '''
- id: 1.1-tf
  type: true_false
  stem: "A {{ format }} weight takes two bytes."
  answer: "{{ two }}"
  explanation: "{{ format }} takes {{ bytes }}."
  key_points: [1.1-size]
  variants:
    count: 2
    combine: zip
    values: {format: [FP16, FP32], two: [true, false], bytes: [two bytes, four bytes]}
''', '''
- id: 1.1-short
  type: short_answer
  stem: "Name the {{ width }} floating-point format with FP32's exponent range."
  answer: "{{ name }}"
  accept: ["{{ name }}"]
  explanation: "{{ name }} keeps 8 exponent bits."
  key_points: [1.1-size]
  variants:
    count: 2
    combine: zip
    values: {width: [16-bit, 16-bit brain], name: [BF16, bfloat16]}
''', '''
- id: 1.1-match
  type: matching
  stem: "Match each {{ what }} with its size."
  pairs:
    - {prompt: "{{ p1 }}", answer: "{{ a1 }}"}
    - {prompt: "{{ p2 }}", answer: "{{ a2 }}"}
  extra_answers: ["{{ extra }}"]
  explanation: "Bits over eight, {{ what }} by {{ what }}."
  key_points: [1.1-size]
  variants:
    count: 2
    combine: zip
    values: {what: [format, type], p1: [FP16, int8], a1: [two bytes, one byte], p2: [FP32, int4], a2: [four bytes, half a byte], extra: [eight bytes, two bits]}
''', '''
- id: 1.1-order
  type: ordering
  stem: "Order these {{ what }} from fewest to most bits."
  items: ["{{ i1 }}", "{{ i2 }}", "{{ i3 }}"]
  explanation: "Fewest bits first, for {{ what }}."
  key_points: [1.1-size]
  variants:
    count: 2
    combine: zip
    values: {what: [formats, types], i1: [int4, int8], i2: [FP16, BF16], i3: [FP32, FP64]}
''']
VARIED = {"1.1-ratio": 3, "1.1-single": 3, "1.1-multiple": 2, "1.1-tf": 2, "1.1-short": 2, "1.1-match": 2, "1.1-order": 2}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from pipeline.cli import main
    root = tmp_path_factory.mktemp("varied")
    sources = write_varied(root, *EVERY_TYPE)
    assert main(["variants", "--sources", str(sources), "--today", TODAY]) == 0
    lock = (sources / "demo" / "variants.lock.json").read_bytes()
    assert main(["build", "--sources", str(sources), "--out", str(root / "out"), "--today", TODAY]) == 0
    assert (sources / "demo" / "variants.lock.json").read_bytes() == lock
    return root / "out" / "demo"


def test_the_bank_holds_every_types_variants(built):
    bank = {q["id"]: q for q in json.loads((built / "bank.json").read_text())["questions"]}
    assert {qid: len(bank[qid]["variants"]) for qid in VARIED} == VARIED
    keys = {v["values"]["format"]: next(o["id"] for o in v["parts"][0]["options"] if o["correct"]) for v in bank["1.1-tf"]["variants"]}
    assert keys == {"FP16": "true", "FP32": "false"}  # each variant graded by its own answer
    for v in bank["1.1-order"]["variants"]:
        part, values = v["parts"][0], v["values"]
        by_id = {i["id"]: i["text"] for i in part["items"]}
        assert [by_id[i] for i in part["correct_order"]] == [values["i1"], values["i2"], values["i3"]]
    for v in bank["1.1-ratio"]["variants"]:
        assert v["parts"][0]["value"] == v["values"]["high"] / v["values"]["low"] and f"at {v['values']['low']} bits" in v["stem"]


def test_gift_puts_each_varied_question_in_its_own_category(built):
    text = (built / "questions.gift").read_text()
    code, parsed = parse_gift(built / "questions.gift")
    assert code == 0, parsed
    items = json.loads(parsed)
    checked = 0
    for qid, count in VARIED.items():
        if qid == "1.1-order":
            continue  # GIFT has no ordering question (skipped with a warning, as ever)
        at = next(i for i, item in enumerate(items) if item["type"] == "Category" and item["title"].endswith(f"/{qid} (variants)"))
        following = [item["title"] for item in items[at + 1: at + 1 + count]]
        assert following == [f"{qid}.v{n}" for n in range(1, count + 1)], following
        checked += 1
    assert checked == len(VARIED) - 1
    assert "$CATEGORY: $course$/top/DEMO-1/1 Basics/1.1 Sizes/1.1-ratio (variants)" in text


def test_moodle_files_the_variants_in_a_category_the_importer_takes(built):
    root = ET.parse(built / "moodle.xml").getroot()
    assert importer_problems(root) == []
    questions = list(root)
    checked = 0
    for qid, count in VARIED.items():
        at = next(i for i, q in enumerate(questions) if q.get("type") == "category" and q.findtext("category/text", "").endswith(f"/{qid} (variants)"))
        ids = [q.findtext("idnumber") for q in questions[at + 1: at + 1 + count]]
        assert ids == [f"{qid}.v{n}" for n in range(1, count + 1)], ids
        checked += 1
    assert checked == len(VARIED)


def test_qti_selects_one_variant_per_varied_question(built):
    with zipfile.ZipFile(built / "qti21.zip") as z:
        test = ET.fromstring(z.read("assessment.xml"))
        names = set(z.namelist())
        sections = {s.get("identifier"): s for s in test.iter(f"{QTI}assessmentSection")}
        for qid, count in VARIED.items():
            section = sections[f"v_{qid}"]
            assert section.find(f"{QTI}selection").get("select") == "1"
            refs = [r.get("href") for r in section.findall(f"{QTI}assessmentItemRef")]
            assert refs == [f"items/q_{qid}.v{n}.xml" for n in range(1, count + 1)]
            for href in refs:
                assert href in names and ET.fromstring(z.read(href)).tag == f"{QTI}assessmentItem"


def test_canvas_groups_the_variants_and_picks_one(built):
    with zipfile.ZipFile(built / "canvas-qti.zip") as z:
        quiz = next(n for n in z.namelist() if n.endswith(".xml") and "/" in n and not n.endswith("assessment_meta.xml"))
        root = ET.fromstring(z.read(quiz))
    groups = {s.get("ident"): s for s in root.iter(f"{Q12}section") if s.get("ident", "").startswith("g_")}
    checked = 0
    for qid, count in VARIED.items():
        if qid == "1.1-order":
            continue  # classic Canvas quizzes have no ordering question
        group = groups[f"g_q_{qid}"]
        assert group.findtext(f"{Q12}selection_ordering/{Q12}selection/{Q12}selection_number") == "1"
        assert [i.get("ident") for i in group.findall(f"{Q12}item")] == [f"q_{qid}.v{n}" for n in range(1, count + 1)]
        checked += 1
    assert checked == len(VARIED) - 1


def _imported(apkg, folder):
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
    folder.mkdir()
    col = Collection(str(folder / "collection.anki2"))
    col.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg), options=ImportAnkiPackageOptions()))
    return col


def test_the_deck_holds_at_most_k_notes_per_varied_question_with_stable_guids(built, tmp_path):
    from pipeline.cli import main
    col = _imported(built / "deck.apkg", tmp_path / "learner")
    notes = [col.get_note(n) for n in col.find_notes("")]
    by_key = {}
    for note in notes:
        key = re.sub(r"<[^>]+>", "", note.fields[-1]).strip()  # the card's id field: the question or variant id
        by_key[key] = note
    for qid, count in VARIED.items():
        got = sorted(k for k in by_key if k == qid or k.startswith(qid + ".v") or k.startswith(qid + "#") or k.startswith(qid + ".v"))
        expected = [qid] + [f"{qid}.v{n}" for n in range(2, min(count, 3) + 1)]
        assert sorted(k.split("#")[0] for k in got) == sorted(expected), (qid, got)
    ratio = json.loads((built.parent.parent / "sources" / "demo" / "variants.lock.json").read_text())["questions"][0]["variants"]
    assert f"{ratio[1]['values']['n']} weights" in re.sub(r"<[^>]+>", "", by_key["1.1-ratio.v2"].fields[0])
    guids = {k: n.guid for k, n in by_key.items()}
    col.close()
    # --variants 1: variant 1 alone, under the same GUID as before
    out = tmp_path / "one"
    assert main(["build", "--sources", str(built.parent.parent / "sources"), "--out", str(out), "--only", "deck", "--variants", "1", "--today", TODAY]) == 0
    col = _imported(out / "demo" / "deck.apkg", tmp_path / "learner-one")
    one = {re.sub(r"<[^>]+>", "", col.get_note(n).fields[-1]).strip(): col.get_note(n).guid for n in col.find_notes("")}
    col.close()
    assert not [k for k in one if ".v" in k]
    assert all(one[qid] == guids[qid] for qid in VARIED)


def test_the_guide_prints_variant_1_and_its_answer(built):
    import subprocess
    text = " ".join(subprocess.run(["pdftotext", "-layout", str(built / "study-guide.pdf"), "-"], capture_output=True, text=True,
                                   check=True, timeout=120).stdout.split())
    bank = {q["id"]: q for q in json.loads((built / "bank.json").read_text())["questions"]}
    first, second = bank["1.1-ratio"]["variants"][:2]
    assert f"A layer holds {first['values']['n']} weights" in text
    assert f"A layer holds {second['values']['n']} weights" not in text  # one variant printed, not all
    assert first["explanation"].split(" = ")[0] in text  # the answer key explains variant 1's own numbers
    assert "{{" not in text


def test_stats_match_lms_responses_to_their_variant(built):
    """Moodle and Canvas name each variant `<id>.vN` (idnumber, `q_<id>.vN`, "<id>.vN: stem"): the item statistics
    find it as an item of its own, with that variant's options."""
    import datetime as dt

    from pipeline.check.validate import validate
    from pipeline.derive import build_view
    from pipeline.stats.match import QuestionIndex

    sources = built.parent.parent / "sources"
    content = validate(sources, dt.date.fromisoformat(TODAY)).exams[0]
    index = QuestionIndex.of(build_view(exam_inputs(content)))
    bank = {q["id"]: q for q in json.loads((built / "bank.json").read_text())["questions"]}
    for n, variant in enumerate(bank["1.1-single"]["variants"], start=1):
        vid = f"1.1-single.v{n}"
        assert index.resolve(vid) == vid and index.resolve(f"q_{vid}") == vid and index.by_name(f"{vid}: {variant['stem']}") == (vid, "")
        key = index.keys[vid]
        assert {o.text for o in key.options if o.correct} == {variant["values"]["right"]}
        assert index.by_stem(variant["stem"]) == ("1.1-single" if n == 1 else vid, "")  # variant 1 is the question itself

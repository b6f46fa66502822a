"""`qti21.zip` checked structurally (no installable package ships the IMS QTI 2.1 XSD, see docs/outputs/lms.md):
the manifest lists every item file and nothing else, identifiers are NCNames and unique, each item's
responseDeclaration and correctResponse agree with the view, the test groups items by section and
objective, and every item reads back into the question the view holds."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile

import pytest

from pipeline.shapes.parts import Choices, Numeric, Pairs, Sequence, Text
from tests.kit.lms import LMS_ONLY, blank, build_fixture, expected, number

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
NCNAME = re.compile(r"^[A-Za-z_][A-Za-z0-9._-]*$")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_fixture(tmp_path_factory.mktemp("qti"), only=LMS_ONLY)


@pytest.fixture(scope="module")
def package(built) -> dict[str, ET.Element]:
    with zipfile.ZipFile(built.out / "qti21.zip") as archive:
        return {name: ET.fromstring(archive.read(name)) for name in archive.namelist()}


def _items(package) -> dict[str, ET.Element]:
    return {name: root for name, root in package.items() if name.startswith("items/")}


def test_the_manifest_lists_every_item_file_and_the_test(package):
    resources = package["imsmanifest.xml"].findall(f"{CP}resources/{CP}resource")
    items = {r.get("href") for r in resources if r.get("type") == "imsqti_item_xmlv2p1"}
    assert items == set(_items(package)) and items
    assert all(r.find(f"{CP}file").get("href") == r.get("href") for r in resources)
    test = next(r for r in resources if r.get("type") == "imsqti_test_xmlv2p1")
    assert test.get("href") == "assessment.xml"
    ids = {r.get("identifier"): r.get("href") for r in resources}
    assert {ids[d.get("identifierref")] for d in test.findall(f"{CP}dependency")} == items
    assert set(package) == items | {"imsmanifest.xml", "assessment.xml"}


def test_identifiers_are_ncnames_and_unique(package):
    identifiers = [r.get("identifier") for r in package["imsmanifest.xml"].iter(f"{CP}resource")]
    identifiers += [root.get("identifier") for root in _items(package).values()]
    identifiers += [s.get("identifier") for s in package["assessment.xml"].iter(f"{QTI}assessmentSection")]
    assert all(NCNAME.match(i) for i in identifiers), identifiers
    assert len(identifiers) == len(set(identifiers))
    for root in _items(package).values():
        choices = [c.get("identifier") for c in root.iter() if c.tag in (f"{QTI}simpleChoice", f"{QTI}simpleAssociableChoice")]
        assert all(NCNAME.match(c) for c in choices) and len(choices) == len(set(choices))


def test_the_test_groups_items_by_section_and_objective(built, package):
    placed = {}
    for section in package["assessment.xml"].iter(f"{QTI}assessmentSection"):
        for ref in section.findall(f"{QTI}assessmentItemRef"):
            placed[ref.get("href")] = section.get("title")
    assert built.view.questions and len(placed) == len(built.view.questions)  # every question placed, none twice
    for q in built.view.questions:
        assert placed[f"items/q_{q.id}.xml"] == q.category_path[2]


def _signature(element: ET.Element) -> list[tuple]:
    """Markup compared as tags, attributes and text in document order, whatever the namespace."""
    return [(e.tag.split("}")[-1], dict(e.attrib), (e.text or ""), (e.tail or "")) for e in element.iter()][1:]


def html(fragment: str) -> list[tuple]:
    return _signature(ET.fromstring(f"<div>{fragment}</div>"))


def _response(root: ET.Element) -> ET.Element:
    return root.find(f"{QTI}responseDeclaration")


def _correct(root: ET.Element) -> list[str]:
    return [v.text for v in _response(root).iter(f"{QTI}value")]


def _mapping(root: ET.Element) -> dict[str, float]:
    return {e.get("mapKey"): float(e.get("mappedValue")) for e in _response(root).iter(f"{QTI}mapEntry")}


def _choice(root: ET.Element, interaction: ET.Element) -> dict:
    right = set(_correct(root))
    options = [(html_of(c), c.get("identifier") in right) for c in interaction.findall(f"{QTI}simpleChoice")]
    if interaction.get("maxChoices") == "1":
        ids = [c.get("identifier") for c in interaction.findall(f"{QTI}simpleChoice")]
        return {"kind": "true_false" if ids == ["true", "false"] else "single", "options": options}
    return {"kind": "multiple", "options": options}


def html_of(element: ET.Element) -> list[tuple]:
    return _signature(element)


def _match(root: ET.Element, interaction: ET.Element) -> dict:
    sources, targets = interaction.findall(f"{QTI}simpleMatchSet")
    answer = {t.get("identifier"): "".join(t.itertext()) for t in targets.findall(f"{QTI}simpleAssociableChoice")}
    prompt = {s.get("identifier"): html_of(s) for s in sources.findall(f"{QTI}simpleAssociableChoice")}
    pairs = [v.split() for v in _correct(root)]
    used = {target for _, target in pairs}
    return {"kind": "matching", "pairs": [(prompt[s], answer[t]) for s, t in pairs], "extras": [a for i, a in answer.items() if i not in used]}


def _number(root: ET.Element) -> dict:
    """A float textEntry: the correct value, and the range its response processing scores 1."""
    value = float(_correct(root)[0])
    test = root.find(f"{QTI}responseProcessing/{QTI}responseCondition/{QTI}responseIf/{QTI}and")
    low, high = (float(test.find(f"{QTI}{op}/{QTI}baseValue").text) for op in ("gte", "lte"))
    return {"kind": "numeric", "number": number(value, low, high)}


def _order(root: ET.Element, interaction: ET.Element) -> dict:
    text = {c.get("identifier"): html_of(c) for c in interaction.findall(f"{QTI}simpleChoice")}
    return {"kind": "ordering", "order": [text[i] for i in _correct(root)]}


INTERACTIONS = {
    "choiceInteraction": _choice,
    "textEntryInteraction": lambda root, i: _number(root) if _response(root).get("baseType") == "float" else {"kind": "fill_in", "accepted": list(_mapping(root))},
    "extendedTextInteraction": lambda root, i: {"kind": "essay"},
    "matchInteraction": _match,
    "orderInteraction": _order,
}


def read_item(root: ET.Element) -> dict:
    body = root.find(f"{QTI}itemBody")
    interaction = next(e for e in body.iter() if e.tag.split("}")[-1] in INTERACTIONS)
    parts = INTERACTIONS[interaction.tag.split("}")[-1]](root, interaction)
    return blank(id=root.get("identifier").removeprefix("q_"), stem=_signature(body.find(f"{QTI}div")),
                 feedback=_signature(root.find(f"{QTI}modalFeedback/{QTI}div")), **parts)


def _as_signatures(q: dict) -> dict:
    """The view's expectation with HTML as signatures; matching answers are plain text in every format."""
    return q | {"stem": html(q["stem"]), "feedback": html(q["feedback"]), "options": [(html(t), c) for t, c in q["options"]],
                "pairs": [(html(p), a) for p, a in q["pairs"]], "order": [html(t) for t in q["order"]]}


def test_every_item_reads_back_as_the_view_has_it(built, package):
    items = _items(package)
    got = [read_item(items[f"items/q_{q.id}.xml"]) for q in built.view.questions]
    assert got == [_as_signatures(expected(q)) for q in built.view.questions]


def test_responses_agree_with_the_view(built, package):
    items = _items(package)
    checked = set()
    for q in built.view.questions:
        root, part = items[f"items/q_{q.id}.xml"], q.parts[0]
        declaration = _response(root)
        if isinstance(part, Choices) and not part.multiple:
            assert (declaration.get("cardinality"), _correct(root)) == ("single", [o.id for o in part.correct])
        elif isinstance(part, Choices):
            mapping = _mapping(root)
            assert declaration.get("cardinality") == "multiple" and _correct(root) == [o.id for o in part.correct]
            assert abs(sum(v for v in mapping.values() if v > 0) - 1) < 1e-5
            assert len(mapping) == len(part.options) and all((v > 0) == o.correct for o, v in zip(part.options, mapping.values(), strict=True))
        elif isinstance(part, Pairs):
            assert declaration.get("baseType") == "directedPair" and _correct(root) == [f"{p.id} {p.answer_id}" for p in part.prompts]
        elif isinstance(part, Sequence):
            assert declaration.get("cardinality") == "ordered" and _correct(root) == list(part.correct_order)
        elif isinstance(part, Text) and part.auto:
            assert declaration.get("baseType") == "string" and list(_mapping(root)) == list(part.accepted)
        elif isinstance(part, Numeric):
            assert declaration.get("baseType") == "float" and [float(v) for v in _correct(root)] == [part.value]
        else:
            continue
        checked.add(part.shape)
    assert checked == {"choices", "pairs", "sequence", "text", "numeric"}


def test_a_changed_answer_is_caught(built, package):
    """The read-back can fail: an item whose correct response names another option no longer matches the view."""
    items = _items(package)
    q = next(q for q in built.view.questions if q.id == "1.1-q1")
    root = ET.fromstring(ET.tostring(items["items/q_1.1-q1.xml"]))
    value = next(_response(root).iter(f"{QTI}value"))
    value.text = next(o.id for o in q.parts[0].options if not o.correct)
    assert read_item(root) != _as_signatures(expected(q))

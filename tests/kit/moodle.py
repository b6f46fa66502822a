"""What Moodle's XML importer would refuse, or take silently and score wrong, in a quiz file: the rules of
qformat_xml and each question type's save_question_options, read from Moodle's source."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from tests.kit.lms import is_grade, weight_problems


def text_at(node: ET.Element | None, path: str = "text") -> str:
    found = node.find(path) if node is not None else None
    return (found.text or "") if found is not None else ""


def _fractions(q: ET.Element) -> list[float]:
    return [float(a.get("fraction")) for a in q.findall("answer")]


def _multichoice_problems(qid: str, q: ET.Element) -> list[str]:
    answers = [a for a in q.findall("answer") if text_at(a).strip()]
    problems = [f"{qid}: fewer than two answers (notenoughanswers: the import stops)"] if len(answers) < 2 else []
    problems += [f"{qid}: {f} is not a Moodle grade value" for f in _fractions(q) if not is_grade(f)]
    if text_at(q, ".") and q.findtext("single") in ("false", "0", ""):
        return problems + weight_problems(qid, _fractions(q))
    if max(_fractions(q), default=0) != 100:
        problems.append(f"{qid}: a single-answer question needs one answer at 100 (errfractionsnomax)")
    return problems


def _truefalse_problems(qid: str, q: ET.Element) -> list[str]:
    texts = sorted(text_at(a) for a in q.findall("answer"))
    ok = texts == ["false", "true"] and sorted(_fractions(q)) == [0, 100]
    return [] if ok else [f"{qid}: true/false needs answers 'true' and 'false', one at 100"]


def _shortanswer_problems(qid: str, q: ET.Element) -> list[str]:
    problems = [] if 100 in _fractions(q) else [f"{qid}: no answer at 100 (fractionsnomax)"]
    stars = [t for t in (text_at(a) for a in q.findall("answer")) if "*" in t.replace("\\*", "")]
    return problems + [f"{qid}: {t!r} holds an unescaped * (a wildcard)" for t in stars]


def _matching_problems(qid: str, q: ET.Element) -> list[str]:
    subs = q.findall("subquestion")
    questions = [s for s in subs if text_at(s).strip()]
    problems = [] if len(questions) >= 2 else [f"{qid}: matching needs at least 2 questions"]
    return problems + ([] if len(subs) >= 3 else [f"{qid}: matching needs at least 3 answers"])


def _ordering_problems(qid: str, q: ET.Element) -> list[str]:
    problems = [] if len(q.findall("answer")) >= 2 else [f"{qid}: ordering needs at least 2 items"]
    return problems + ([] if q.findtext("selecttype") == "ALL" else [f"{qid}: selecttype must be ALL (RANDOM shows a subset)"])


def _numerical_problems(qid: str, q: ET.Element) -> list[str]:
    """import_numerical: every answer a number (or *) with a numeric tolerance >= 0, one at 100; the first unit's multiplier 1."""
    problems = [] if 100 in _fractions(q) else [f"{qid}: no answer at 100"]
    for a in q.findall("answer"):
        try:
            float(text_at(a))
            ok = float(a.findtext("tolerance") or "0") >= 0
        except ValueError:
            ok = False
        problems += [] if ok else [f"{qid}: answer {text_at(a)!r} or its tolerance is not a number"]
    units = q.findall("units/unit")
    if units and units[0].findtext("multiplier") not in ("1", "1.0"):
        problems.append(f"{qid}: the first unit's multiplier must be 1")
    return problems


# qtype_multianswer's subquestions in the question text: {weight:TYPE:answers}, answers split on an unescaped ~,
# each =text (100%) or %n%text; its importer makes one subquestion per match and needs at least one.
_SUBQUESTION = re.compile(r"\{(\d*):(SHORTANSWER|SA|MW|SHORTANSWER_C|SAC|MWC):(.*?)(?<!\\)\}")


def _cloze_problems(qid: str, q: ET.Element) -> list[str]:
    found = _SUBQUESTION.findall(text_at(q, "questiontext/text"))
    problems = [] if found else [f"{qid}: a Cloze question's text holds no subquestion (noquestions)"]
    for _weight, _kind, field in found:
        answers = re.split(r"(?<!\\)~", field)
        full = [a for a in answers if a.startswith("=") or a.startswith("%100%")]
        problems += [] if full else [f"{qid}: a subquestion {field!r} has no answer at 100%"]
        problems += [f"{qid}: {a!r} is neither =answer nor %n%answer" for a in answers if not re.match(r"^(=|%-?\d+(\.\d+)?%)", a)]
    return problems


RULES = {"numerical": _numerical_problems, "cloze": _cloze_problems, "multichoice": _multichoice_problems, "truefalse": _truefalse_problems, "shortanswer": _shortanswer_problems,
         "matching": _matching_problems, "ordering": _ordering_problems, "essay": lambda qid, q: []}


def importer_problems(root: ET.Element) -> list[str]:
    """What Moodle's importer would refuse, or take silently and score wrong, in a quiz file."""
    problems, ids = [], set()
    for q in root.findall("question"):
        if q.get("type") == "category":
            problems += [] if text_at(q, "category/text").startswith("$course$/top/") else [f"category {text_at(q, 'category/text')!r}"]
            continue
        qid = q.findtext("idnumber") or "?"
        problems += [] if text_at(q, "name/text").strip() else [f"{qid}: no name (xmlimportnoname)"]
        problems += [] if qid not in ids else [f"{qid}: idnumber used twice (the second is dropped)"]
        ids.add(qid)
        problems += RULES[q.get("type")](qid, q) if q.get("type") in RULES else [f"{qid}: unknown type {q.get('type')}"]
    return problems

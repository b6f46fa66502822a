"""Cloze marks: Anki's {{c1::phrase::hint}} syntax, found, validated and stripped."""

from __future__ import annotations

from pipeline.text import cloze


def test_marks_found_in_order():
    found = cloze.marks("A {{c1::first}} and {{c2::second::a hint}}.")
    assert [(m.number, m.answer, m.hint) for m in found] == [(1, "first", None), (2, "second", "a hint")]


def test_strip():
    text = "Use {{c1::BF16}} for {{c2::range}}."
    assert cloze.strip(text) == "Use BF16 for range."


def test_problems():
    assert cloze.problems("fine {{c1::x}}") == []
    assert cloze.problems("{{c0::x}}") == ["cloze numbers go from 1 to 100, got c0"]
    assert cloze.problems("{{c1:: }}") == ["cloze c1 hides nothing; write {{c1::phrase}}"]
    assert cloze.problems("{{c1::open") == ["unbalanced or malformed cloze mark; expected {{c1::phrase}} or {{c1::phrase::hint}}"]

"""Field HTML: cloze marks survive Markdown rendering and escaping; options and answers are lettered."""

from __future__ import annotations

import datetime as dt

from pipeline.questions import TYPES, make_question
from pipeline.render.anki.card_fields import answer_html, cloze_html, options_html, sources_html
from pipeline.text import cloze
from pipeline.view.model import CitationView, QuestionView
from schema.citation_status import Status
from tests.kit.view import view_of


def test_cloze_marks_survive_markdown():
    assert cloze_html("Use `bf16` for {{c1::range}}.") == "Use <code>bf16</code> for {{c1::range}}."
    assert cloze_html("{{c1::*wide* range::a `hint`}} and {{c2::x}}") == "{{c1::<em>wide</em> range::a <code>hint</code>}} and {{c2::x}}"


def test_markdown_cannot_split_a_mark():
    # an emphasis opened outside a mark and closed inside it would nest badly if rendered as one text
    html = cloze_html("a *b {{c1::c* d}} e")
    assert [(m.number, m.answer) for m in cloze.marks(html)] == [(1, "c* d")]


def test_html_in_a_mark_is_text():
    html = cloze_html("x {{c1::<script>alert(1)</script>::<b>hint</b>}} <i>y</i>")
    assert html == "x {{c1::&lt;script&gt;alert(1)&lt;/script&gt;::&lt;b&gt;hint&lt;/b&gt;}} &lt;i&gt;y&lt;/i&gt;"


def test_text_without_marks_is_plain_inline_markdown():
    assert cloze_html("no *marks* here") == "no <em>marks</em> here"


def _question(**kw) -> QuestionView:
    keep_order = {"shuffle": False} if "shuffle" in TYPES[kw["type"]].model.model_fields else {}
    return view_of(make_question(id="q", stem="s", explanation="e", **keep_order, **kw))


def test_options_and_answers_are_lettered():
    single = _question(type="single", options=["a", "`b`", "c"], answer="`b`")
    assert options_html(single) == '<ol type="A"><li>a</li><li><code>b</code></li><li>c</li></ol>'
    # the back marks the answer where the front showed it, the rest dimmed
    assert answer_html(single) == '<ol type="A" class="marked"><li class="dim">a</li><li class="right"><code>b</code> ✓</li><li class="dim">c</li></ol>'
    multiple = _question(type="multiple", options=["a", "b", "c"], answer=["a", "c"])
    assert answer_html(multiple) == '<ol type="A" class="marked"><li class="right">a ✓</li><li class="dim">b</li><li class="right">c ✓</li></ol>'
    assert answer_html(_question(type="true_false", answer=False)) == "False"
    short = _question(type="short_answer", answer="x")
    assert (options_html(short), answer_html(short)) == ("", "")


def test_letters_follow_the_display_order():
    shuffled = view_of(make_question(id="6.1-q1", type="single", stem="s", explanation="e", options=["a", "b", "c", "d"], answer="b"))
    options = shuffled.parts[0].options
    marked = [("right" if o.correct else "dim", o.text_md) for o in options]
    assert answer_html(shuffled) == '<ol type="A" class="marked">' + "".join(f'<li class="{c}">{t}{" ✓" if c == "right" else ""}</li>' for c, t in marked) + "</ol>"
    assert [o.id for o in options] != ["a", "b", "c", "d"]  # this id's seed does reorder them


def test_matching_and_ordering_show_their_parts():
    pairs = [{"prompt": "one", "answer": "1"}, {"prompt": "two", "answer": "2"}]
    matching = _question(type="matching", pairs=pairs, extra_answers=["3"])
    assert options_html(matching) == '<ol class="prompts" type="1"><li>one</li><li>two</li></ol><div class="label">Answers</div><ol type="A"><li>1</li><li>2</li><li>3</li></ol>'
    assert answer_html(matching) == "<ul><li>1. one → A. 1</li><li>2. two → B. 2</li></ul>"
    ordering = view_of(make_question(id="ord", type="ordering", stem="s", explanation="e", items=["x", "y", "z"]))
    items = ordering.parts[0].items
    shown = [i.text_md for i in items]
    assert shown != ["x", "y", "z"] and sorted(shown) == ["x", "y", "z"]
    expected = "".join(f"<li>{next(i.letter for i in items if i.text_md == t)}. {t}</li>" for t in "xyz")
    assert answer_html(ordering) == f"<ol>{expected}</ol>"


def _citation(**kw) -> CitationView:
    base = {"key_point": "k", "url": "https://e.example/a?x=1&y=2", "title": "A <page>", "quote": "q", "speaker": "V",
            "publisher": None, "status": Status.UNCHECKED, "checked": None, "ref": 1}
    return CitationView(**{**base, **kw})


def test_sources_are_listed_once_each_with_their_check_and_escaped():
    cite, again = _citation(), _citation(quote="other", status=Status.FOUND, checked=dt.date(2026, 11, 20))
    assert sources_html((cite, again)) == (
        '<ul><li><a href="https://e.example/a?x=1&amp;y=2">A &lt;page&gt;</a> (V): '
        '<span class="check check-unchecked">not yet checked</span>; <span class="check check-found">found on the page, 2026-11-20</span></li></ul>'
    )
    assert sources_html(()) == ""

"""Field HTML: cloze marks survive Markdown rendering and escaping; options and answers are lettered."""

from __future__ import annotations

from pipeline.render.anki.card_fields import answer_html, cloze_html, option_htmls, options_html, sources_html
from pipeline.text import cloze
from schema.models import Citation, Question


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


def _question(**kw) -> Question:
    return Question(id="q", stem="s", explanation="e", **kw)


def test_options_and_answers_are_lettered():
    single = _question(type="single", options=["a", "`b`", "c"], answer="`b`")
    assert options_html(option_htmls(single)) == '<ol type="A"><li>a</li><li><code>b</code></li><li>c</li></ol>'
    assert answer_html(single, option_htmls(single)) == "B. <code>b</code>"
    multiple = _question(type="multiple", options=["a", "b", "c"], answer=["a", "c"])
    assert answer_html(multiple, option_htmls(multiple)) == "<ul><li>A. a</li><li>C. c</li></ul>"
    assert answer_html(_question(type="true_false", answer=False), []) == "False"
    short = _question(type="short_answer", answer="x")
    assert (options_html(option_htmls(short)), answer_html(short, [])) == ("", "")


def test_sources_are_listed_once_each_and_escaped():
    cite = Citation(url="https://e.example/a?x=1&y=2", title="A <page>", quote="q")
    again = Citation(url="https://e.example/a?x=1&y=2", title="A <page>", quote="other", publisher="P")
    assert sources_html([cite, again], "V") == '<ul><li><a href="https://e.example/a?x=1&amp;y=2">A &lt;page&gt;</a> (V)</li></ul>'
    assert sources_html([], "V") == ""

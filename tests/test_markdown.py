"""Markdown from sources never becomes markup it should not: raw HTML is text, images and script links are dropped."""

from __future__ import annotations

from pipeline.text.markdown import to_html, to_inline_html


def test_inline_markup_renders():
    assert to_inline_html("Use `torch.autocast` for *mixed* precision") == "Use <code>torch.autocast</code> for <em>mixed</em> precision"


def test_raw_html_is_text():
    html = to_inline_html('<script>alert(1)</script> <img src="file:///etc/hostname">')
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_script_links_and_images_are_not_rendered():
    assert "href" not in to_inline_html("[x](javascript:alert(1))")
    assert "<img" not in to_html("![x](https://example.com/a.png)")


def test_fenced_code_block():
    assert to_html("```python\nx = 1 < 2\n```") == '<pre><code class="language-python">x = 1 &lt; 2\n</code></pre>\n'

"""Visible text only: scripts, styles, templates, noscript, comments, head and attributes are not the page's words."""

from __future__ import annotations

from pipeline.citations.pagetext import media_type, visible_text

PAGE = """<!DOCTYPE html><html><head><title>Title words</title><meta name="description" content="meta words">
<style>.x { content: "style words" }</style><script>var s = "script words";</script></head>
<body><div>Block one<b>bold</b>joined</div><p>Block two</p><!-- comment words -->
<template>template words</template><noscript>noscript words</noscript><img alt="alt words" src="x.png">
<table><tr><td>cell one</td><td>cell two</td></tr></table><ul><li>item one</li><li>item two</li></ul>
<p>line<br>break</p><span hidden>hidden words</span><p>a &amp; b &gt; c&nbsp;d</p></body></html>"""


def test_only_visible_text():
    text = visible_text(PAGE)
    for hidden in ("Title", "meta", "style", "script", "comment", "template", "noscript", "alt", "hidden"):
        assert hidden not in text, hidden
    assert " ".join(text.split()) == "Block oneboldjoined Block two cell one cell two item one item two line break a & b > c d"


def test_blocks_are_separated_inline_joined():
    lines = [line for line in visible_text(PAGE).splitlines() if line.strip()]
    assert lines[:4] == ["Block oneboldjoined", "Block two", "cell one", "cell two"]


def test_media_type_from_header_or_body():
    assert media_type("text/html; charset=utf-8", b"") == "text/html"
    assert media_type(None, b"%PDF-1.7") == "application/pdf"
    assert media_type(None, b"  <html>") == "text/html"
    assert media_type(None, b"plain words") == "text/plain"

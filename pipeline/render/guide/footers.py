"""The footers of a guide printed in chunks ("Page N of M"), written into each page's content stream.

M is known only once every chunk is laid out, and a chunk's layout is not kept (holding one chunk's boxes
at a time is the point of chunks), so the chunks are printed without footers and these are added after.
Laying out M pages of footers alone with weasyprint and merging each over its page cost about 15 ms a page
(the 100x guide's page 1.13x a 1x guide's). Here weasyprint lays out one sample footer, once, in the
guide's own style, holding every glyph a footer needs ("Page 0123456789 of"); each page then gets a few
bytes drawing its own footer with the sample's font: glyphs from the font's ToUnicode map, advances from
its /W widths, kerning from the sample's TJ array, centred and placed where the sample's footer is.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject

SAMPLE = "Page 0123456789 of"
FONT = NameObject("/GuideFooter")  # the name of the sample's font in every page's resources
_NUMBER = r"-?[\d.]+"
_CM = re.compile(rf"({_NUMBER}) ({_NUMBER}) ({_NUMBER}) ({_NUMBER}) ({_NUMBER}) ({_NUMBER}) cm")
_TM = re.compile(rf"({_NUMBER}) ({_NUMBER}) ({_NUMBER}) ({_NUMBER}) ({_NUMBER}) ({_NUMBER}) Tm")
_COLOUR = re.compile(rf"({_NUMBER} {_NUMBER} {_NUMBER}) rg")
_TF = re.compile(rf"/(\S+) ({_NUMBER}) Tf")
_TJ = re.compile(r"\[(.*?)\]\s*TJ", re.S)
_BFCHAR = re.compile(rb"<([0-9a-fA-F]{4})>\s*<([0-9a-fA-F]{4})>")


@dataclass(frozen=True)
class Style:
    """What drawing a footer takes, read from the sample: its font, glyphs, advances, size, colour, place."""

    font: DictionaryObject
    glyphs: dict[str, int]  # character -> glyph id (Identity-H: the code is the glyph id)
    advances: dict[int, float]  # glyph id -> advance, in 1/1000 of the font size
    kerning: dict[tuple[str, str], float]  # pairs of the sample's characters -> TJ adjustment
    size: float  # points
    colour: str
    centre: float  # x of the footer's middle, in points
    baseline: float  # y of its baseline, in points from the page's foot

    def width(self, text: str) -> float:
        advance = sum(self.advances.get(self.glyphs[c], 0.0) for c in text)
        kern = sum(self.kerning.get(pair, 0.0) for pair in zip(text, text[1:], strict=False))
        return (advance - kern) * self.size / 1000

    def ops(self, text: str) -> bytes:
        """The content drawing `text` centred at the sample's place, the graphics state left as it was."""
        shown = []
        for before, char in zip((None, *text), text, strict=False):
            if before is not None and self.kerning.get((before, char)):
                shown.append(f"{self.kerning[(before, char)]:g}")
            shown.append(f"<{self.glyphs[char]:04x}>")
        x = self.centre - self.width(text) / 2
        return (f"q {self.colour} rg BT {FONT} {self.size:g} Tf 1 0 0 1 {x:.3f} {self.baseline:.3f} Tm "
                f"[{''.join(shown)}] TJ ET Q\n").encode("ascii")


def sample_html(paper: str) -> str:
    """One page in the guide's style holding nothing but a footer of every glyph a footer needs."""
    return (f'<!DOCTYPE html><html><head><link rel="stylesheet" href="guide.css"><style>@page {{ size: {paper}; '
            f'@top-left {{ content: none; }} @top-right {{ content: none; }} @bottom-center {{ content: "{SAMPLE}"; }} }}'
            "</style></head><body><div></div></body></html>")


def _matrix(values: tuple[str, ...]) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def _times(m: tuple[float, ...], n: tuple[float, ...]) -> tuple[float, ...]:
    """The PDF matrix product m x n (m applied first)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _advances(widths: list) -> dict[int, float]:
    """A CID font's /W array: `c [w1 w2 ...]` or `c_first c_last w`."""
    out, i = {}, 0
    while i < len(widths):
        first = int(widths[i])
        if isinstance(widths[i + 1], list):
            out.update({first + k: float(w) for k, w in enumerate(widths[i + 1])})
            i += 2
        else:
            out.update({code: float(widths[i + 2]) for code in range(first, int(widths[i + 1]) + 1)})
            i += 3
    return out


def style(sample_pdf: bytes) -> Style:
    """The footer's style, read from the sample (`sample_html` laid out by weasyprint)."""
    page = PdfReader(io.BytesIO(sample_pdf)).pages[0]
    content = page.get_contents().get_data().decode("latin-1")
    text_at = content.index("BT")
    ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for found in _CM.finditer(content, 0, text_at):
        ctm = _times(_matrix(found.groups()), ctm)
    tm = _times(_matrix(_TM.search(content, text_at).groups()), ctm)
    name, size = _TF.search(content, text_at).groups()
    font = page["/Resources"]["/Font"][f"/{name}"].get_object()
    unicode = {chr(int(u, 16)): int(g, 16) for g, u in _BFCHAR.findall(font["/ToUnicode"].get_object().get_data())}
    advances = _advances(font["/DescendantFonts"][0].get_object()["/W"])
    kerning = _kerning(_TJ.search(content, text_at).group(1), {g: c for c, g in unicode.items()})
    points = float(size) * (tm[0] ** 2 + tm[1] ** 2) ** 0.5  # Tf's size times the text matrix's scale
    colour = _COLOUR.search(content, 0, text_at + 200).group(1)
    placed = Style(font, unicode, advances, kerning, points, colour, 0.0, tm[5])
    return Style(font, unicode, advances, kerning, points, colour, tm[4] + placed.width(SAMPLE) / 2, tm[5])


def _kerning(shown: str, chars: dict[int, str]) -> dict[tuple[str, str], float]:
    """The adjustments between the sample's glyphs, by the characters either side."""
    out, before, pending = {}, None, 0.0
    for glyph, adjust in re.findall(rf"<([0-9a-fA-F]+)>\s*({_NUMBER})?", shown):
        char = chars[int(glyph, 16)]
        if before is not None and pending:
            out[(before, char)] = pending
        before, pending = char, float(adjust) if adjust else 0.0
    return out


def stamp(writer: PdfWriter, footer: Style) -> None:
    """Each page of `writer` gets "Page N of M" drawn after its own content, with the sample's font."""
    font = writer._add_object(footer.font.clone(writer))
    opened = writer._add_object(_stream(b"q\n"))  # the page's own content may leave its transformation set
    total = len(writer.pages)
    for number, page in enumerate(writer.pages, start=1):
        resources = page.setdefault(NameObject("/Resources"), DictionaryObject()).get_object()
        fonts = resources.setdefault(NameObject("/Font"), DictionaryObject()).get_object()
        fonts[FONT] = font
        drawn = writer._add_object(_stream(b"Q\n" + footer.ops(f"Page {number} of {total}")))
        contents = page.get(NameObject("/Contents"))
        held = contents.get_object() if contents is not None else None
        earlier = list(held) if isinstance(held, ArrayObject) else [contents] if contents is not None else []
        page[NameObject("/Contents")] = ArrayObject([opened, *earlier, drawn])


def _stream(data: bytes) -> DecodedStreamObject:
    stream = DecodedStreamObject()
    stream.set_data(data)
    return stream

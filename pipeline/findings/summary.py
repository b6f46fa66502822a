"""What `audit` shows in the terminal: a progress bar while pages arrive, then a table of counts by
status and every problem with file:line, URL, and for drifted quotes the closest passage and a word diff,
then the blast radius as a list that fits 80 columns (a nine-column table took 200).

Problem lines are printed unwrapped, so they stay `path:line: ...` lines that editors and CI jump to.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape as _escape_markup
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pipeline.citations.audit import AuditResult, CitationRef
from pipeline.citations.status import Status
from pipeline.citations.verdict import CitationResult
from pipeline.citations.worddiff import rich_markup, with_markers, word_diff
from pipeline.findings.audit_report import counts, healing_lines
from pipeline.findings.blast import Blast, blast_radius
from pipeline.text.terminal import for_terminal


def escape_markup_only(text: str) -> str:
    """Text already made inert for a terminal (`for_terminal`), its markup made inert for rich."""
    return _escape_markup(text)


def escape(text: str) -> str:
    """Text for the console: control characters and bidi overrides made visible (`for_terminal`), markup inert."""
    return _escape_markup(for_terminal(text))


@contextmanager
def progress(total: int) -> Iterator[Callable[[str], None]]:
    """A callback to call once per page; a progress bar on stderr when it is a terminal, else nothing."""
    if not sys.stderr.isatty():
        yield lambda url: None
        return
    columns = (TextColumn("checking quotes"), BarColumn(), MofNCompleteColumn(), TextColumn("pages"), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("pages", total=total)
        yield lambda url: bar.advance(task)


def _problem(console: Console, ref: CitationRef, result: CitationResult) -> None:
    where = f"{ref.place.file}:{ref.place.position.line}:{ref.place.position.col}"
    status = escape(", ".join([result.status.value, *result.warnings]))
    console.print(f"{escape(where)}: {status}: {escape(ref.url)}", soft_wrap=True, highlight=False)
    if result.detail:
        console.print(f"    {escape(result.detail)}", soft_wrap=True, highlight=False)
    elif result.closest and result.status is not Status.ARCHIVED:
        console.print(f"    closest passage ({result.score:.0%} alike): {escape(result.closest)}", soft_wrap=True, highlight=False)
    for line in healing_lines(result):
        console.print(f"    {escape(line)}", soft_wrap=True, highlight=False)
    if result.status is Status.DRIFTED and result.closest:
        console.print(f"    diff: {diff_text(console, word_diff(result.quote, result.closest))}", soft_wrap=True, highlight=False)
    if result.passage_diff:
        console.print(f"    passage changed since review: {escape(result.passage_diff)}", soft_wrap=True, highlight=False)


def diff_text(console: Console, segments: list[tuple[str, str]]) -> str:
    """Colour on a terminal that allows it; elsewhere (a pipe, a CI log, NO_COLOR) the `[-old-]{+new+}`
    markers, which say the same without colour (rich would drop the styles and, with them, the diff)."""
    if console.is_terminal and not console.no_color:
        return rich_markup(segments)
    return escape(with_markers(segments))


BLAST_WIDTH = 80  # a terminal's classic width: the blast radius is listed, wrapped at words, never cut


def blast_lines(blasts: list[Blast], width: int = BLAST_WIDTH) -> list[str]:
    """The blast radius, one block per citation not found: where its quote is, then what depends on it, one
    kind per line, each wrapped at words within `width` (a long name stays whole on a line of its own)."""
    lines = ["blast radius: what depends on each citation not found"]
    for b in blasts:
        guide = ", ".join(g.split("#")[-1] for g in b.guide)
        lines += _wrapped(f"{b.where}: {b.status}: objective {b.objective} {b.objective_title}", "", width)
        for label, text in (("key points", ", ".join(b.key_points)), ("questions", ", ".join(b.questions)),
                            ("generated questions", str(len(b.generated))), ("deck notes", str(len(b.notes))),
                            ("guide", guide), ("site", ", ".join(b.site))):
            lines += _wrapped(f"{label}: {text or '-'}", "    ", width)
    return lines


def _wrapped(text: str, indent: str, width: int) -> list[str]:
    return textwrap.wrap(for_terminal(text), width, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_long_words=False, break_on_hyphens=False) or [indent]


def show(result: AuditResult, console: Console | None = None, blasts: list[Blast] | None = None) -> None:
    console = console or Console(highlight=False, width=None if sys.stdout.isatty() else 200)  # CI logs: no folding
    table = Table(title="citations", title_justify="left")
    table.add_column("status")
    table.add_column("quotes", justify="right")
    for status, n in counts(result).items():
        table.add_row(status, str(n))
    console.print(table)
    for ref, citation in sorted(result.problems + result.warned, key=lambda item: (item[0].place.file, item[0].place.position)):
        _problem(console, ref, citation)
    for review in result.stale_reviews:
        where = f"{review.place.file}:{review.place.position.line}:{review.place.position.col}"
        when = "is after today" if review.status == "future" else f"is {review.age_days} days old, past the review policy"
        console.print(f"{escape(where)}: review {review.status}: reviewed {review.reviewed} {when}", soft_wrap=True, highlight=False)
    if blasts := blast_radius(result) if blasts is None else blasts:
        for line in blast_lines(blasts):
            console.print(escape_markup_only(line), soft_wrap=True, highlight=False)

"""The audit's report file: JSON (the fields in DESIGN.md and a few more), or Markdown when the name ends
in `.md`, for a CI comment. Entries in source order (file, then line), so reports diff cleanly. Both end
with the blast radius (`blast`): what depends on each citation that is not found, by objective."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from pipeline.citations import address
from pipeline.citations.audit import AuditResult, CitationRef, Place, ReviewResult
from pipeline.citations.netpolicy import Refused
from pipeline.citations.status import Status
from pipeline.citations.verdict import CitationResult
from pipeline.citations.worddiff import with_markers, word_diff
from pipeline.findings.blast import Blast, blast_radius
from pipeline.text.linebreaks import one_line
from pipeline.text.terminal import for_terminal


def diff_of(result: CitationResult) -> str | None:
    """The word diff from the quote to the closest passage, for drifted quotes."""
    if result.status is Status.DRIFTED and result.closest:
        return with_markers(word_diff(result.quote, result.closest))
    return None


def citation_json(ref: CitationRef, result: CitationResult, new: bool | None = None) -> dict:
    return {
        "file": ref.place.file, "line": ref.place.position.line, "url": ref.url, "quote": ref.quote,
        "status": result.status.value, "match": result.match, "score": result.score, "closest": result.closest,
        "diff": diff_of(result), "detail": result.detail or None, "http_status": result.http_status, "final_url": result.final_url,
        "objective": ref.objective_id, "key_point": ref.key_point_id, "archive_url": result.archive_url,
        "archive_timestamp": result.archive_timestamp, "archive_detail": result.archive_detail or None, "moved_to": result.moved_to,
        "warnings": list(result.warnings), "passage_diff": result.passage_diff, "new": new,
    }


def blast_json(blast: Blast) -> dict:
    return {"exam": blast.exam, "objective": blast.objective, "objective_title": blast.objective_title, "where": blast.where,
            "url": blast.url, "quote": blast.quote, "status": blast.status, "key_points": list(blast.key_points),
            "questions": list(blast.questions), "generated_questions": list(blast.generated),
            "notes": [{"guid": guid, "deck": deck} for guid, deck in blast.notes], "guide": list(blast.guide),
            "site": list(blast.site), "counts": blast.counts()}


def review_json(review: ReviewResult) -> dict:
    return {"file": review.place.file, "line": review.place.position.line, "reviewed": review.reviewed.isoformat(),
            "status": review.status, "age_days": review.age_days}


def counts(result: AuditResult) -> dict[str, int]:
    found = Counter(r.status.value for _, r in result.citations)
    return {status.value: found[status.value] for status in Status if status is not Status.UNCHECKED}  # an audit checks every quote


def _ordered(result: AuditResult) -> tuple[list, list]:
    citations = sorted(result.citations, key=lambda item: (item[0].place.file, item[0].place.position))
    reviews = sorted(result.reviews, key=lambda r: (r.place.file, r.place.position))
    return citations, reviews


def to_json(result: AuditResult, today: str, new: set[Place] | None = None, blasts: list[Blast] | None = None) -> str:
    """`new`: the places of the quotes whose problem is not in the committed lock (--new-only); None: not compared.
    `blasts`: the blast radius when already computed (it builds each exam's view)."""
    citations, reviews = _ordered(result)
    document = {
        "today": today, "ok": result.ok, "summary": counts(result),
        "citations": [citation_json(ref, r, None if new is None else ref.place in new) for ref, r in citations],
        "reviews": [review_json(r) for r in reviews],
        "blast_radius": [blast_json(b) for b in (blast_radius(result) if blasts is None else blasts)],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character: CommonMark lets each be escaped


def _md(text: str) -> str:
    """Text from a page, a header or a source, shown as text in Markdown: on one line (it cannot start a
    block), control and bidi characters visible, and every punctuation character backslash-escaped, so no
    link, image, HTML tag, entity, emphasis or table cell can come of it."""
    return _PUNCTUATION.sub(r"\\\1", for_terminal(one_line(text)))


def _md_url(url: str | None) -> str:
    """An address as a Markdown autolink, in its normal form (percent-encoded: no `<`, `>` or space can end
    it early); one that has no normal form is shown as escaped text, never as a link."""
    try:
        return f"<{address.canonical(url or '')}>"
    except Refused:
        return _md(url or "")


def _md_problem(ref: CitationRef, result: CitationResult) -> list[str]:
    warned = "".join(f", {w}" for w in result.warnings)
    lines = [f"- {code(f'{ref.place.file}:{ref.place.position.line}')} **{_md(result.status.value + warned)}** {_md_url(ref.url)}", f"  > {_md(ref.quote)}"]
    if result.detail:
        lines.append(f"  {_md(result.detail)}")
    elif result.closest and result.status is not Status.ARCHIVED:
        lines.append(f"  closest passage ({result.score:.0%} alike): {_md(result.closest)}")
    lines += [f"  {line}" for line in _md_healing(result)]
    if diff := diff_of(result):
        lines.append(f"  diff: {code(diff)}")
    if result.passage_diff:
        lines.append(f"  passage changed since review: {code(result.passage_diff)}")
    return lines


def _md_healing(result: CitationResult) -> list[str]:
    """`healing_lines` in Markdown: the archive's and the redirect's addresses as autolinks, the rest as text."""
    lines = []
    if result.archive_url:
        lines.append(f"archived copy of {archive_day(result.archive_timestamp)}: {_md_url(result.archive_url)}")  # a checked timestamp: digits
    elif result.archive_detail:
        lines.append(f"archive: {_md(result.archive_detail)}")
    if result.moved_to:
        lines.append(f"moved to {_md_url(result.moved_to)} (audit \\-\\-fix\\-moves rewrites the address)")
    return lines


def healing_lines(result: CitationResult) -> list[str]:
    """What moves and the archive said, in words: the same in the terminal and the Markdown report."""
    lines = []
    if result.archive_url:
        lines.append(f"archived copy of {archive_day(result.archive_timestamp)}: {result.archive_url}")
    elif result.archive_detail:
        lines.append(f"archive: {result.archive_detail}")
    if result.moved_to:
        lines.append(f"moved to {result.moved_to} (audit --fix-moves rewrites the address)")
    return lines


def archive_day(timestamp: str | None) -> str:
    """YYYYMMDDhhmmss as YYYY-MM-DD."""
    stamp = timestamp or ""
    return f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]}" if len(stamp) >= 8 else stamp


def _md_blast(blasts: list[Blast]) -> list[str]:
    """The blast radius grouped by objective, each group headed by its counts."""
    lines = ["", "### Blast radius: what depends on each citation not found", ""]
    by_objective: dict[tuple[str, str, str], list[Blast]] = {}
    for blast in blasts:
        by_objective.setdefault((blast.exam, blast.objective, blast.objective_title), []).append(blast)
    for (exam, objective, title), group in by_objective.items():
        total = Counter()
        for blast in group:
            total.update(blast.counts())
        tally = ", ".join(f"{n} {kind}" for kind, n in total.items())
        lines += [f"#### {_md(objective)} {_md(title)} ({_md(exam)}): {len(group)} citation(s); {tally}", ""]
        lines += [line for blast in group for line in _md_blast_item(blast)]
        lines.append("")
    return lines


def code(text: str) -> str:
    """A Markdown code span that holds any text, backticks included (Anki GUIDs may have them), on one line
    with control and bidi characters visible (a code span shows HTML and Markdown as they are)."""
    text = for_terminal(one_line(text))
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{fence} {text} {fence}" if "`" in text else f"`{text}`"


def _md_blast_item(blast: Blast) -> list[str]:
    def listed(items) -> str:
        return ", ".join(code(item) for item in items) or "none"

    return [
        f"- {code(blast.where)} **{_md(blast.status)}** {_md_url(blast.url)}",
        f"  - key points: {listed(blast.key_points)}",
        f"  - questions: {listed(blast.questions)}; generated: {listed(blast.generated)}",
        f"  - deck notes: {', '.join(f'{code(guid)} ({_md(deck)})' for guid, deck in blast.notes) or 'none'}",
        f"  - guide: {listed(blast.guide)}; site: {listed(blast.site)}",
    ]


def to_markdown(result: AuditResult, today: str, new: set[Place] | None = None, blasts: list[Blast] | None = None) -> str:
    citations, reviews = _ordered(result)
    lines = [f"## Citation audit, {today}", "", "| status | quotes |", "| --- | --- |"]
    lines += [f"| {status} | {n} |" for status, n in counts(result).items()]
    problems = [(ref, r) for ref, r in citations if r.status is not Status.FOUND or r.warnings]
    if problems:
        lines += ["", "### Quotes that need an author", ""]
        for ref, r in problems:
            item = _md_problem(ref, r)
            if new is not None and ref.place in new:
                item[0] += " (new)"
            lines += item
    stale = [r for r in reviews if r.status != "fresh"]
    if stale:
        lines += ["", "### Review dates", ""]
        lines += [f"- {code(f'{r.place.file}:{r.place.position.line}')} {r.status}: reviewed {r.reviewed} ({r.age_days} days ago)" for r in stale]
    if blasts := blast_radius(result) if blasts is None else blasts:
        lines += _md_blast(blasts)
    return "\n".join(lines).rstrip("\n") + "\n"


def write_report(path: Path, result: AuditResult, today: str, new: set[Place] | None = None, blasts: list[Blast] | None = None) -> None:
    text = to_markdown(result, today, new, blasts) if path.suffix.lower() == ".md" else to_json(result, today, new, blasts)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")

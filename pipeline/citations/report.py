"""The audit's report file: JSON (the fields in DESIGN.md and a few more), or Markdown when the name ends
in `.md`, for a CI comment. Entries in source order (file, then line), so reports diff cleanly."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from pipeline.citations.audit import AuditResult, CitationRef, ReviewResult
from pipeline.citations.status import Status
from pipeline.citations.verdict import CitationResult
from pipeline.citations.worddiff import plain, word_diff


def diff_of(result: CitationResult) -> str | None:
    """The word diff from the quote to the closest passage, for drifted quotes."""
    if result.status is Status.DRIFTED and result.closest:
        return plain(word_diff(result.quote, result.closest))
    return None


def citation_json(ref: CitationRef, result: CitationResult) -> dict:
    return {
        "file": ref.place.file, "line": ref.place.position.line, "url": ref.url, "quote": ref.quote,
        "status": result.status.value, "match": result.match, "score": result.score, "closest": result.closest,
        "diff": diff_of(result), "detail": result.detail or None, "http_status": result.http_status, "final_url": result.final_url,
    }


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


def to_json(result: AuditResult, today: str) -> str:
    citations, reviews = _ordered(result)
    document = {
        "today": today, "ok": result.ok, "summary": counts(result),
        "citations": [citation_json(ref, r) for ref, r in citations],
        "reviews": [review_json(r) for r in reviews],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("_", "\\_").replace("`", "\\`")


def _md_problem(ref: CitationRef, result: CitationResult) -> list[str]:
    lines = [f"- `{ref.place.file}:{ref.place.position.line}` **{result.status.value}** <{ref.url}>", f"  > {_md(ref.quote)}"]
    if result.detail:
        lines.append(f"  {_md(result.detail)}")
    elif result.closest:
        lines.append(f"  closest passage ({result.score:.0%} alike): {_md(result.closest)}")
    if diff := diff_of(result):
        lines.append(f"  diff: `{diff.replace('`', '')}`")
    return lines


def to_markdown(result: AuditResult, today: str) -> str:
    citations, reviews = _ordered(result)
    lines = [f"## Citation audit, {today}", "", "| status | quotes |", "| --- | --- |"]
    lines += [f"| {status} | {n} |" for status, n in counts(result).items()]
    problems = [(ref, r) for ref, r in citations if r.status is not Status.FOUND]
    if problems:
        lines += ["", "### Quotes that need an author", ""]
        lines += [line for ref, r in problems for line in _md_problem(ref, r)]
    stale = [r for r in reviews if r.status != "fresh"]
    if stale:
        lines += ["", "### Review dates", ""]
        lines += [f"- `{r.place.file}:{r.place.position.line}` {r.status}: reviewed {r.reviewed} ({r.age_days} days ago)" for r in stale]
    return "\n".join(lines) + "\n"


def write_report(path: Path, result: AuditResult, today: str) -> None:
    text = to_markdown(result, today) if path.suffix.lower() == ".md" else to_json(result, today)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")

"""Fixture sources for the mock exam: questions held out for it (mock_only) and an exam fact cited from a page."""

from __future__ import annotations

from pathlib import Path

HELD = ("1.1-q2", "2.1-q.single")
FACT = "The exam lasts two minutes."


def hold_out(folder: Path, ids=HELD) -> None:
    """Mark `ids` mock_only in the copied sources."""
    for path in folder.glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        for qid in ids:
            text = text.replace(f"  - id: {qid}\n", f"  - id: {qid}\n    mock_only: true\n")
        path.write_text(text, encoding="utf-8")


def cite_minutes(folder: Path, url: str) -> None:
    path = folder / "exam.yaml"
    path.write_text(path.read_text(encoding="utf-8") + f'exam_facts:\n  minutes:\n    url: {url}\n    title: The exam page\n    quote: "{FACT}"\n',
                    encoding="utf-8")

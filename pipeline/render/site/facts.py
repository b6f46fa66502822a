"""The mock exam's numbers (questions, minutes, pass mark) with where each comes from: a quote of the vendor's
page (exam.yaml's `exam_facts:`, checked by the audit) or, without one, the author's choice, said as such. A
number is shown as the real exam's only beside the quote that says so, with its check."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.view.model import CitationView, ExamView


@dataclass(frozen=True)
class MockFact:
    key: str  # questions | minutes | pass
    value: str  # "50 questions", "60 minutes", "70% to pass"
    citation: CitationView | None  # None: the author's choice

    @property
    def choice(self) -> str:
        """How an uncited number is labelled."""
        what = "pass mark" if self.key == "pass" else "number of " + self.key if self.key == "questions" else "time"
        return f"this guide's choice: no published {what} is cited for the real exam."


def mock_facts(view: ExamView) -> list[MockFact]:
    mock, cited = view.exam.mock_exam, dict(view.exam_facts)
    values = {"questions": f"{mock.questions} questions", "minutes": f"{mock.minutes} minutes", "pass": f"{mock.pass_mark}% to pass"}
    return [MockFact(key, values[key], cited.get(key)) for key in ("questions", "minutes", "pass")]

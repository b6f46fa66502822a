"""One exam being served: each build of its chosen outputs, one at a time, its problems kept for the page.

A build here is the ordinary build (validate, then `pipeline.build.build`, incremental): serve only decides
when to run it and what to show. Whatever goes wrong, content errors, a broken pipeline.toml, a full disk or
a bug, is printed and kept as the page's banner; the server never stops for it.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.build import Plan, build
from pipeline.check.validate import validate
from pipeline.console import say
from pipeline.console.crash import environment_message
from pipeline.diagnostics import Severity
from pipeline.errors import PipelineError
from pipeline.serve.last_build import LastBuild
from pipeline.settings import project as config

if TYPE_CHECKING:
    from pipeline.settings.reader import Reader

SITE_OUTPUTS = ("site",)
GUIDE_OUTPUTS = ("guide",)


@dataclass
class Session:
    sources: Path
    exam: str
    out: Path
    plan: Callable[[config.Settings, str, tuple[str, ...]], Plan]  # settings, exam id, outputs -> what to build
    strict: Callable[[config.Settings, str], bool]
    # Each rebuild is a new run, its inputs read again, once, by the command line's reader (pipeline/settings/reader.py):
    # pipeline.toml's settings and a Reader (today, SOURCE_DATE_EPOCH, each exam's locks). Handed in: serve reads none itself.
    settings: Callable[[], config.Settings]
    read: Callable[[], Reader]
    status: LastBuild = field(default_factory=LastBuild)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def site(self) -> Path:
        return self.out / self.exam / "site"

    @property
    def guide_file(self) -> Path:
        return self.out / self.exam / "study-guide.pdf"

    def build(self, outputs: tuple[str, ...] = SITE_OUTPUTS, *, announce: bool = True) -> list[str]:
        """Build `outputs`; the problems that stopped it (empty when it succeeded). `announce` updates the
        page's status: a built site reloads open pages, a failure shows the banner."""
        with self._lock:
            title, problems, written = self._attempt(outputs)
        if problems:
            say.summary(f"serve: {title}; the last good build stays up")
            if announce:
                self.status.failed(title, problems)
        elif announce and (written or not self.status.ok):
            self.status.succeeded()
        return problems

    def _attempt(self, outputs: tuple[str, ...]) -> tuple[str, list[str], bool]:
        """(title, problem lines, whether anything was written)."""
        try:
            settings, reader = self.settings(), self.read()
            result = validate(self.sources, reader.dates.today, strict=lambda exam: self.strict(settings, exam), inputs=reader, exams=[self.exam])
            for diagnostic in result.report.sorted():
                say.problem(diagnostic.format())
            errors = [d.format() for d in result.report.sorted() if d.severity is Severity.ERROR]
            if errors:
                return f"{len(errors)} error(s) in the sources of {self.exam}", errors, False
            built = build([reader(content) for content in result.buildable], self.out, plans=lambda exam: self.plan(settings, exam, outputs))
        except PipelineError as exc:  # a broken pipeline.toml, a busy output folder, missing sources
            return "the build could not run", str(exc).splitlines(), False
        except OSError as exc:
            return "the build could not write its outputs", [environment_message(exc)], False
        except Exception:  # a bug: say so, keep serving (the traceback is the report to file)
            lines = traceback.format_exc().strip().splitlines()
            return "internal error (a bug in the pipeline, not in your sources)", lines[-1:], False
        names = ", ".join(f"{name} {outcome}" for name, outcome in built.outcomes.get(self.exam, {}).items())
        say.info(f"serve: {self.exam}: {names or 'nothing to build'}")
        return "", [], bool(built.written)

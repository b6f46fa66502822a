"""Derive the exam view: validated content + the locks + "today" -> one read-only `ExamView` per exam and build.

This is the one stage that reads the citation lock, the clock and the generated questions together, so
that `pipeline.view` (the view's shapes) can stay plain data that every renderer imports without loading
YAML, locks, the clock or the network (tests/test_architecture.py checks it).
"""

from pipeline.derive.build import build_view

__all__ = ["build_view"]

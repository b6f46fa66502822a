"""The package timestamp: SOURCE_DATE_EPOCH, else the newest input's time, never older than a changed build needs."""

from __future__ import annotations

import datetime as dt
import os

from pipeline.check.validate import validate
from pipeline.derive import build_view
from pipeline.render.anki import deck_timestamp
from pipeline.settings.reader import exam_inputs


def test_newest_input_time_when_nothing_forces_more():
    assert deck_timestamp.choose(1000, previous=None, changed=True) == 1000
    assert deck_timestamp.choose(1000, previous=900, changed=True) == 1000
    assert deck_timestamp.choose(1000, previous=2000, changed=False) == 1000  # nothing to update: no need to be newer


def test_changed_notes_are_always_newer_than_the_previous_build():
    assert deck_timestamp.choose(1000, previous=1000, changed=True) == 1001  # an edit in the same second
    assert deck_timestamp.choose(1000, previous=5000, changed=True) == 5001  # old file times, a clock set back


def test_source_date_epoch_wins(make_sources, monkeypatch):
    sources = make_sources()
    for path in sources.rglob("*"):
        os.utime(path, (1000, 1000))
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    content = validate(sources, dt.date(2026, 11, 29)).exams[0]
    assert deck_timestamp.package_timestamp(build_view(exam_inputs(content)), previous=None, changed=False) == 1000
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798156800")
    assert deck_timestamp.package_timestamp(build_view(exam_inputs(content)), previous=5000, changed=True) == 1798156800

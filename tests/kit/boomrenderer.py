"""A renderer with a bug that only one exam's content triggers (an objective titled BOOM), for the tests
that one exam's failure leaves the other exams' outputs built."""

from __future__ import annotations


def render(ctx):
    if any(o.title == "BOOM" for o in ctx.view.objectives):
        raise RuntimeError("boom")
    return []

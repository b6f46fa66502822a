"""The one vocabulary of worked-example statuses, used by the examples lock, the `examples` report, the
offline checks, and the guide, deck and site.

A status says what the last run of an example in the sandbox found; `not-run` means never run (or not
since its code, output or environment changed).
"""

from __future__ import annotations

from enum import StrEnum


class ExampleStatus(StrEnum):
    REPRODUCED = "reproduced"  # printed what the source records (after normalising line ends and trailing space)
    DRIFTED = "drifted"  # ran and exited 0, but printed something else: the lock keeps the actual output
    FAILED = "failed"  # exited non-zero, was killed by a limit, or printed past the output cap
    TIMEOUT = "timeout"  # still running at the wall-clock limit: its process group was killed
    NEEDS_DEVICE = "needs-device"  # declares a device (cuda) this machine does not have: not run
    NOT_RUN = "not-run"  # never run, or changed since its last run


# What each status means to a reader, in a few words: the guide, the deck and the site print these.
LABELS: dict[ExampleStatus, str] = {
    ExampleStatus.REPRODUCED: "output reproduced",
    ExampleStatus.DRIFTED: "output has changed since it was recorded",
    ExampleStatus.FAILED: "failed when last run",
    ExampleStatus.TIMEOUT: "did not finish when last run",
    ExampleStatus.NEEDS_DEVICE: "not run: needs a GPU",
    ExampleStatus.NOT_RUN: "not yet run by the pipeline",
}

"""Entry point: `python -m pipeline` (the installed command `exam-prep` calls the same `entry`)."""

from pipeline.cli.entry import entry
from pipeline.text.prog import started_as

started_as("python -m pipeline")
entry()

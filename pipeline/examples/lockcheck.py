"""What the committed examples lock says about each worked example, as diagnostics on its lines: offline,
for `validate` and `build` (nothing is run here).

drifted, failed or timed out at the last run: an error (`output` line for a drift, with the diff under
it; `code` line for a failure, with the last lines of stderr). Never run, changed since the last run
(its hash differs), or not run for want of a device: a warning, an error under --strict. Each has its
code, which `checks:` in exam.yaml may lower; the outputs then mark the example. The requirements file
named in exam.yaml is checked here too, lock or no lock.
"""

from __future__ import annotations

from pipeline.diagnostics import Position, Report
from pipeline.examples.compare import unified_diff
from pipeline.examples.lock import ExamplesLock, LockEntry, example_hash
from pipeline.examples.requirements import exam_requirements, read_requirements_file, requirement_set
from pipeline.load.content import ExamContent
from pipeline.load.schema_errors import field_label
from pipeline.text.prog import command
from schema.example_status import ExampleStatus
from schema.models import Example


def _ran(entry: LockEntry) -> str:
    env = entry.environment
    where = f" with Python {env.python}" if env else ""
    return f"at its last run ({entry.ran.isoformat() if entry.ran else 'undated'}{where})"


def problem(entry: LockEntry, example: Example, current_hash: str) -> tuple[str, tuple, str, str, str] | None:
    """(severity, field, message, code, details) for one example's lock entry, or None when all is well."""
    example_id = example.id
    if entry.status is ExampleStatus.NOT_RUN and entry.hash is None:
        return "warning", ("code",), f"example '{example_id}' has never been run; run `{command('examples')}` to run it and record the result", "example-not-run", ""
    if entry.hash != current_hash:
        return "warning", ("code",), f"example '{example_id}' changed since its last run ({entry.ran or 'never run'}); run `{command('examples')}` to run it again", "example-not-run", ""
    if entry.status is ExampleStatus.DRIFTED:
        fix = f"fix the code, or record what it prints now: `{command('examples', '--example', example_id, '--update')}`"
        return "error", ("output",), f"example '{example_id}' printed something else {_ran(entry)}; {fix}", "example-drifted", unified_diff(example.output, entry.actual or "")
    if entry.status is ExampleStatus.FAILED:
        return "error", ("code",), f"example '{example_id}' failed {_ran(entry)}: {entry.detail or 'failed'}", "example-failed", entry.stderr or ""
    if entry.status is ExampleStatus.TIMEOUT:
        return "error", ("code",), f"example '{example_id}' timed out {_ran(entry)}: {entry.detail}; make it faster or raise its `timeout`", "example-timeout", ""
    if entry.status is ExampleStatus.NEEDS_DEVICE:
        return "warning", ("device",), f"example '{example_id}' was not run: {entry.detail}; run `{command('examples')}` where one is present", "example-needs-device", ""
    if entry.status is ExampleStatus.NOT_RUN:
        return "warning", ("code",), f"example '{example_id}' was not run: {entry.detail or 'never run'}", "example-not-run", ""
    return None


def check_requirements_file(content: ExamContent, report: Report) -> None:
    name = content.exam.examples.requirements_file
    if not name:
        return
    for found in read_requirements_file(content.folder, name)[1]:
        if found.line is None:  # the file as a whole: said where exam.yaml names it
            where = content.exam_file.position(("examples", "requirements_file"))
            report.error(content.exam_file.path, where, f"examples.requirements_file: {found.message}", "example-requirements")
        else:
            report.error(found.path, Position(found.line, 1), found.message, "example-requirements")


def check_examples_lock(content: ExamContent, lock: ExamplesLock, report: Report) -> None:
    """A diagnostic on the line of every example whose lock entry needs an author (the lock as pipeline/settings/reader.py read it)."""
    exam_reqs = exam_requirements(content.exam, content.folder)
    for file in content.objective_files:
        for i, example in file.indexed("examples"):
            found = problem(lock.entry(example.id), example, example_hash(example, requirement_set(exam_reqs, example)))
            if found:
                severity, field, message, code, details = found
                path = ("examples", i, *field)
                add = report.error if severity == "error" else report.warning
                add(file.path, file.position(path), f"{field_label(path)}: {message}", code, details)

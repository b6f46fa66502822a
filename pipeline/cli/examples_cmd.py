"""`examples`: run every worked example in the sandbox, compare what it prints, update each exam's examples lock.

Exit 0 when every example that ran (or was frozen) is reproduced, 1 when one drifted, failed or timed
out; 2 when the machine cannot give the examples a sandbox (bubblewrap, with a user namespace: unless
`--unsafe-no-sandbox`) or an environment folder. With `--update`, a
drifted example's output is written into its source (its diff printed first) and counts as reproduced.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

from pipeline.check.validate import validate
from pipeline.cli.common import add_exam_option, refused
from pipeline.errors import UsageError
from pipeline.examples.environments import Environments, devices
from pipeline.examples.lock import ExamplesLock, example_hash
from pipeline.examples.requirements import exam_requirements, requirement_set
from pipeline.examples.runner import ExampleRun, Runner, example_refs
from pipeline.examples.sandbox import Sandbox
from pipeline.settings.reader import Reader, environ
from pipeline.text.terminal import for_terminal
from schema.example_status import ExampleStatus
from schema.models import Example

PROBLEMS = frozenset({ExampleStatus.DRIFTED, ExampleStatus.FAILED, ExampleStatus.TIMEOUT})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
    add_exam_option(parser, "run the examples of")
    parser.add_argument("--example", action="append", metavar="ID", help="run only this example (repeatable)")
    parser.add_argument("--update", action="store_true", help="write what a drifted example printed into its source (only its output lines change)")
    parser.add_argument("--force", action="store_true", help="run every example, even those whose hash is unchanged since the lock")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="wall-clock limit per example (default: the example's, else exam.yaml's examples.timeout)")
    parser.add_argument("--envs", type=Path, default=Path("build") / "examples" / "envs", metavar="DIR", help="where environments are cached (default: build/examples/envs)")
    parser.add_argument("--today", metavar="YYYY-MM-DD", help="the date recorded for each run (default: SOURCE_DATE_EPOCH, else the clock)")
    parser.add_argument("--unsafe-no-sandbox", action="store_true",
                        help="where bubblewrap cannot make a user namespace here, run the examples as plain processes anyway (only code you trust)")


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    reader = Reader(args.today)  # the locks are read here, once, before the run rewrites them
    today = reader.dates.today
    checked = validate(args.sources, today, exams=args.exam)
    if refused(checked, "examples"):
        return 1
    _check_ids(args.example, checked.exams)
    sandbox = Sandbox(unsafe=args.unsafe_no_sandbox)
    if args.unsafe_no_sandbox and sandbox.isolation.network == "none":
        _say(f"examples: warning: --unsafe-no-sandbox: {sandbox.unsafe_reason}; the examples run as plain processes, with limits but "
             "no sandbox: their code can read what this user can and reach the network")
    runner = Runner(sandbox, Environments(args.envs, sandbox.python, _say, environ()), devices(), today, force=args.force, timeout=args.timeout, progress=_say)
    runs, written = [], []
    for content in checked.exams:
        lock = reader(content).examples
        exam_runs = runner.run_exam(content, lock, args.example)
        if args.update:
            exam_runs = _updated(exam_runs)
        runs += exam_runs
        if _record(lock, exam_runs, content, only=args.example):
            written.append(lock.path)
    blasts = _Blasts(reader)
    for one in runs:
        _show(one, blasts)
    if any(r.ran for r in runs):
        _say(f"examples: sandbox: {sandbox.isolation.text}; Python {sandbox.python.version} ({sandbox.python.path})")
    _summary(runs, runner, written)
    return 1 if any(r.entry.status in PROBLEMS for r in runs) else 0


def _check_ids(wanted: list[str] | None, exams) -> None:
    known = {ref.example.id for content in exams for ref in example_refs(content)}
    for example_id in wanted or []:
        if example_id not in known:
            guess = difflib.get_close_matches(example_id, sorted(known), n=1)
            raise UsageError(f"error: --example {example_id}: no example has this id" + (f"; did you mean '{guess[0]}'?" if guess else ""))


def _record(lock: ExamplesLock, runs: list[ExampleRun], content, only: list[str] | None) -> bool:
    """The exam's lock with these runs' entries: examples no longer in the sources leave it (unless only
    some examples were run, when the others' entries stay as they were)."""
    entries = {r.entry.id: r.entry for r in runs}
    if only:
        entries = {**lock.entries, **entries}
    else:
        known = {ref.example.id for ref in example_refs(content)}
        entries = {k: v for k, v in entries.items() if k in known}
    lock.entries = entries
    return lock.save()


def _updated(runs: list[ExampleRun]) -> list[ExampleRun]:
    """Each drifted example's actual output written into its source; its entry then says reproduced."""
    from pipeline.examples.update import OutputUpdate, update_outputs  # ruamel.yaml: only when editing
    drifted = [r for r in runs if r.entry.status is ExampleStatus.DRIFTED and r.entry.actual]
    for one in drifted:
        _say(f"{_where(one)}: updating the output of {one.ref.example.id}:")
        for line in (one.diff or "").splitlines():
            _say(f"    {for_terminal(line)}")
    done = update_outputs([OutputUpdate(r.ref.file.path, r.ref.index, r.entry.actual) for r in drifted])
    for update, line in done:
        _say(f"{os.path.relpath(update.path)}:{line}: updated: the example's output")
    fixed = {}
    for one in drifted:
        example = Example.model_validate({**one.ref.example.model_dump(), "output": one.entry.actual})
        reqs = requirement_set(exam_requirements(one.ref.content.exam, one.ref.content.folder), example)
        entry = replace(one.entry, status=ExampleStatus.REPRODUCED, actual=None, hash=example_hash(example, reqs))
        fixed[id(one)] = replace(one, entry=entry, ref=replace(one.ref, example=example))
    return [fixed.get(id(r), r) for r in runs]


def _where(one: ExampleRun) -> str:
    position = one.ref.position("output" if one.entry.status is ExampleStatus.DRIFTED else "code")
    return f"{os.path.relpath(one.ref.file.path)}:{position.line}:{position.col}"


def _show(one: ExampleRun, blasts: _Blasts) -> None:
    entry = one.entry
    if not one.ran and entry.status is ExampleStatus.REPRODUCED:
        return  # frozen and fine: counted in the summary
    how = f" ({one.seconds:.1f} s)" if one.ran else " (unchanged since its run of " + (entry.ran.isoformat() if entry.ran else "?") + ")"
    detail = f": {for_terminal(entry.detail)}" if entry.detail else ""
    print(f"{_where(one)}: {entry.status.value}: {entry.id}{how}{detail}")
    extra = one.diff if entry.status is ExampleStatus.DRIFTED else entry.stderr if entry.status is ExampleStatus.FAILED else None
    for line in (extra or "").splitlines():  # what the example printed: escaped, as validate shows it
        print(f"    {for_terminal(line)}")
    if entry.status in PROBLEMS:
        for line in blasts.of(one.ref).lines():
            print(f"    affects {line}")


class _Blasts:
    """The examples' blast radii, made on the first broken example: it derives the view and asks the outputs."""

    def __init__(self, reader: Reader) -> None:
        self._made, self._reader = None, reader

    def of(self, ref):
        if self._made is None:
            from pipeline.findings.example_blast import ExampleBlasts
            self._made = ExampleBlasts(self._reader)
        return self._made.of(ref)


def _summary(runs: list[ExampleRun], runner: Runner, written: list[Path]) -> None:
    counts = Counter(r.entry.status.value for r in runs)
    ran = sum(r.ran for r in runs)
    tally = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "none"
    lock = f"lock updated: {', '.join(os.path.relpath(p) for p in written)}" if written else "locks unchanged"
    _say(f"examples: {len(runs)} example(s): {tally}; {ran} run, {len(runs) - ran} not run again (unchanged; --force runs them); "
         f"{runner.environments.built} environment(s) built; {lock}")

"""Run an exam's worked examples, compare what each printed with its source, and give each a status.

Per example: when its hash is what the lock recorded and the recorded result is a result (reproduced,
drifted, failed), it is not run again (the freeze; `force` runs it). Otherwise: an example that is not
Python, or asks for a device this machine lacks, is not run and says why; the others run in the sandbox
in the environment of their requirement set, and get `reproduced`, `drifted` (the lock keeps what it
printed), `failed` (exit status and the last lines of stderr) or `timeout`.
"""

from __future__ import annotations

import datetime as dt
import signal
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

from pipeline.diagnostics import Position
from pipeline.examples.compare import matches, tidy_output, unified_diff
from pipeline.examples.environments import Environment, EnvironmentFailed, Environments, requirement_name
from pipeline.examples.lock import ExamplesLock, LockEntry, RunEnvironment, example_hash
from pipeline.examples.requirements import exam_requirements, requirement_set
from pipeline.examples.sandbox import Interpreter, Limits, Outcome, Sandbox
from pipeline.load.content import ExamContent, ObjectiveFile
from schema.example_status import ExampleStatus
from schema.models import Example

FROZEN = frozenset({ExampleStatus.REPRODUCED, ExampleStatus.DRIFTED, ExampleStatus.FAILED})
TAIL_LINES = 12  # of stderr, kept for a failed example


@dataclass(frozen=True)
class ExampleRef:
    """One example where it is written: its exam, its objective file and its index there."""

    content: ExamContent
    file: ObjectiveFile
    index: int
    example: Example

    @property
    def objective_id(self) -> str:
        return self.file.objective.id

    def position(self, *key: str | int) -> Position:
        return self.file.position(("examples", self.index, *key))


@dataclass(frozen=True)
class ExampleRun:
    ref: ExampleRef
    entry: LockEntry
    ran: bool  # False: frozen (its hash unchanged), or not runnable here
    seconds: float = 0.0

    @property
    def diff(self) -> str | None:
        if self.entry.status is ExampleStatus.DRIFTED and self.entry.actual is not None:
            return unified_diff(self.ref.example.output, self.entry.actual)
        return None


def example_refs(content: ExamContent, only: Collection[str] | None = None) -> list[ExampleRef]:
    return [ExampleRef(content, file, i, example) for file in content.objective_files for i, example in file.indexed("examples")
            if not only or example.id in only]


class Runner:
    """Runs examples with one sandbox and one cache of environments, judging devices and dates as given."""

    def __init__(self, sandbox: Sandbox, environments: Environments, devices: frozenset[str], today: dt.date,
                 *, force: bool = False, timeout: float | None = None, progress: Callable[[str], None] | None = None) -> None:
        self.sandbox, self.environments, self.devices, self.today = sandbox, environments, devices, today
        self.force, self.timeout = force, timeout
        self.progress = progress or (lambda line: None)
        self._exam_requirements: tuple[str, ...] = ()  # of the exam being run, as declared

    def run_exam(self, content: ExamContent, lock: ExamplesLock, only: Collection[str] | None = None) -> list[ExampleRun]:
        self._exam_requirements = exam_reqs = exam_requirements(content.exam, content.folder)
        return [self.run_one(ref, lock, requirement_set(exam_reqs, ref.example)) for ref in example_refs(content, only)]

    def run_one(self, ref: ExampleRef, lock: ExamplesLock, requirements: tuple[str, ...]) -> ExampleRun:
        example, python = ref.example, self.sandbox.python
        digest = example_hash(example, requirements)
        previous = lock.entries.get(example.id)
        if not self.force and previous and previous.hash == digest and previous.status in FROZEN and _same_machine(previous, python):
            return ExampleRun(ref, previous, ran=False)
        if example.language != "python":
            return ExampleRun(ref, LockEntry(example.id, ExampleStatus.NOT_RUN, digest, detail=f"only python examples are run, not {example.language}"), False)
        if example.device not in self.devices:
            detail = f"needs a {example.device} device, and this machine has none"
            return ExampleRun(ref, LockEntry(example.id, ExampleStatus.NEEDS_DEVICE, digest, detail=detail), False)
        self.sandbox.isolation  # noqa: B018  (probed before the first run is announced: SandboxError when there is none)
        self.progress(f"examples: running {example.id}")
        started = time.monotonic()
        entry = self._run(example, requirements, digest, self._limits(ref))
        return ExampleRun(ref, entry, ran=True, seconds=time.monotonic() - started)

    def _run(self, example: Example, requirements: tuple[str, ...], digest: str, limits: Limits) -> LockEntry:
        base = LockEntry(example.id, ExampleStatus.FAILED, digest, self.today)
        try:
            environment = self.environments.get(requirements)
        except EnvironmentFailed as exc:
            return replace(base, detail=str(exc).splitlines()[0], stderr=str(exc))
        record = self._record(environment, example, (*self._exam_requirements, *example.requirements))
        outcome = self.sandbox.run(example.code, environment.path, merge_stderr=example.stderr == "show", limits=limits)
        return judge(replace(base, environment=record), example, outcome, limits)

    def _limits(self, ref: ExampleRef) -> Limits:
        """The sandbox's limits with the exam's memory and time: `--timeout`, else the example's, else the exam's."""
        config = ref.content.exam.examples
        timeout = self.timeout or ref.example.timeout or config.timeout
        return replace(self.sandbox.limits, timeout=float(timeout), memory_mb=config.memory_mb)

    def _record(self, environment: Environment, example: Example, declared: tuple[str, ...]) -> RunEnvironment:
        """Where it ran; the requirements named in the order the author declared them (the exam's first)."""
        python = self.sandbox.python
        names = tuple(dict.fromkeys(requirement_name(r) for r in declared))
        return RunEnvironment(python.version, python.platform, example.device, self.sandbox.isolation.record,
                              environment.versions_of(names), environment.packages)


def _same_machine(entry: LockEntry, python: Interpreter) -> bool:
    env = entry.environment
    return env is not None and (env.python, env.platform) == (python.version, python.platform)


def judge(base: LockEntry, example: Example, outcome: Outcome, limits: Limits) -> LockEntry:
    """The status of one run, from what the sandbox saw."""
    printed = _text(outcome.stdout)
    errors = _text(outcome.stderr)
    if outcome.timed_out:
        return replace(base, status=ExampleStatus.TIMEOUT, detail=f"still running after {limits.timeout:g} s: its processes were killed",
                       actual=printed or None)
    if outcome.capped:
        return replace(base, detail=f"printed more than {limits.output_bytes} bytes: stopped", actual=printed[-2000:] or None)
    if outcome.out_of_memory:
        return replace(base, exit=outcome.returncode, detail=f"its processes together passed the memory limit ({limits.memory_mb} MiB): one was killed",
                       stderr="\n".join((errors or printed).rstrip().splitlines()[-TAIL_LINES:]) or None, actual=printed or None)
    if outcome.returncode != 0:
        tail = "\n".join((errors or printed).rstrip().splitlines()[-TAIL_LINES:])
        return replace(base, exit=outcome.returncode, stderr=tail or None, detail=_exit_text(outcome.returncode), actual=printed or None)
    if matches(example.output, printed, example.tolerance):
        return replace(base, status=ExampleStatus.REPRODUCED)
    return replace(base, status=ExampleStatus.DRIFTED, actual=tidy_output(printed))


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        name = signal.Signals(-code).name
        why = {"SIGXCPU": "its CPU time limit", "SIGKILL": "a limit or the sandbox", "SIGXFSZ": "its file size limit"}.get(name, "a signal")
        return f"killed by {name} ({why})"
    return f"exit status {code}"

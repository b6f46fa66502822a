"""`variants`: run every varied question's `generate(seed)` in the examples' sandbox, stress-test what it
returns, and record each built variant's values in the exam's variants lock.

Seeds come from the question's id, its `variants.seed` and the variant's number (pipeline/variants/seeds.py).
Every run draws max(count, --stress N) seeds (default 20): the first `count` are the built variants, all of
them are stress-tested. The code runs through `Sandbox.run`, exactly as worked examples do: the exam's
environment (`examples.requirements`), its memory limit, the sandbox's isolation. A question whose hash is
unchanged since the lock is not run again unless `--force` or a larger `--stress` is asked for.
Exit 0 when no question has findings, 1 when one has (they are printed at the question's line).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

from pipeline.check.validate import validate
from pipeline.cli.common import add_exam_option, refused
from pipeline.errors import UsageError
from pipeline.examples.environments import EnvironmentFailed, Environments, requirement_name
from pipeline.examples.requirements import exam_requirements
from pipeline.examples.sandbox import Sandbox
from pipeline.text.terminal import for_terminal
from pipeline.today import resolve_today
from pipeline.variants.draw import draw
from pipeline.variants.lock import LockedVariant, QuestionEntry, VariantsLock, variants_hash
from pipeline.variants.lockcheck import varied
from pipeline.variants.seeds import seed_of
from pipeline.variants.stress import Draw, stress

STRESS_DEFAULT = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sources", type=Path, default=Path("sources"), metavar="DIR", help="the sources folder (default: sources)")
    add_exam_option(parser, "draw the variants of")
    parser.add_argument("--stress", type=int, default=STRESS_DEFAULT, metavar="N",
                        help=f"seeds each question's stress test draws (default {STRESS_DEFAULT}; at least its count)")
    parser.add_argument("--force", action="store_true", help="draw every question again, even those unchanged since the lock")
    parser.add_argument("--envs", type=Path, default=Path("build") / "examples" / "envs", metavar="DIR", help="where environments are cached (default: build/examples/envs)")
    parser.add_argument("--today", metavar="YYYY-MM-DD", help="the date the checks judge by (default: SOURCE_DATE_EPOCH, else the clock)")
    parser.add_argument("--unsafe-no-sandbox", action="store_true", help="where bubblewrap cannot make a user namespace, run the code as plain processes anyway (only code you trust)")


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.stress <= 2000:
        raise UsageError(f"error: --stress {args.stress}: give 1 to 2000 seeds")
    checked = validate(args.sources, resolve_today(args.today), lock=False, exams=args.exam)
    if refused(checked, "variants"):
        return 1
    sandbox = Sandbox(unsafe=args.unsafe_no_sandbox)
    environments = Environments(args.envs, sandbox.python, _say)
    bad, written, total = 0, [], 0
    for content in checked.exams:
        lock = VariantsLock.load(content.folder)
        exam_reqs = exam_requirements(content.exam, content.folder)
        entries = {}
        for file, i, q in varied(content):
            if q.variants.code is None:
                continue
            total += 1
            requirements = exam_reqs if q.variants.environment == "exam" else ()
            entry, findings = _question(q, lock.entries.get(q.id), requirements, sandbox, environments, content, args)
            entries[q.id] = entry
            where = f"{os.path.relpath(file.path)}:{file.position(('questions', i)).line}:{file.position(('questions', i)).col}"
            for finding in findings:
                print(f"{where}: error: questions[{i}] ({q.id}): {for_terminal(finding.message)} [{finding.code}]")
            bad += bool(findings)
        lock.entries = entries
        if lock.save():
            written.append(lock.path)
    lock_text = f"lock updated: {', '.join(os.path.relpath(p) for p in written)}" if written else "locks unchanged"
    _say(f"variants: {total} varied question(s) with code, {bad} with findings; {lock_text}")
    return 1 if bad else 0


def _question(q, previous, requirements, sandbox, environments, content, args):
    v = q.variants
    digest = variants_hash(q, requirements)
    draws_wanted = max(v.count, args.stress)
    if previous and previous.hash == digest and previous.draws >= draws_wanted and not args.force:
        return previous, list(previous.findings)
    indexes = range(1, draws_wanted + 1)
    seeds = [seed_of(q.id, v.seed, i) for i in indexes]
    try:
        environment = environments.get(requirements)
    except EnvironmentFailed as exc:
        raise UsageError(f"error: variants: {q.id}: its environment ({' '.join(requirements)}) cannot be built: {str(exc).splitlines()[0]}; "
                         "variants.environment: stdlib runs code that needs no package without one") from None
    limits = replace(sandbox.limits, timeout=float(content.exam.examples.timeout), memory_mb=content.exam.examples.memory_mb)
    runs = []
    started = time.monotonic()
    drawn = draw(sandbox, v.code, seeds, timeout=v.timeout, limits=limits, env_dir=environment.path, runs=lambda: runs.append(1))
    seconds = time.monotonic() - started
    by_seed = {d.seed: d for d in drawn}
    draws = [Draw(i, s, by_seed[s].values, by_seed[s].error, by_seed[s].timeout) for i, s in zip(indexes, seeds, strict=True)]
    result = stress(q, draws, v.count)
    answers = sorted(result.answers)
    span = f"answers {answers[0]:g} to {answers[-1]:g}" if answers else "no numeric answer"
    _say(f"variants: {q.id}: {len(draws)} seed(s) drawn in {seconds:.2f} s ({len(runs)} sandbox run(s)); {span}; {len(result.findings)} finding(s)")
    built = tuple(LockedVariant(i, d.seed, dict(d.values)) for i, d in ((d.index, d) for d in draws[: v.count]) if i in result.valid)
    python = sandbox.python
    environment_record = {"python": python.version, "platform": python.platform, "isolation": sandbox.isolation.record,
                          "requested": [list(p) for p in environment.versions_of(tuple(requirement_name(r) for r in requirements))]}
    return QuestionEntry(q.id, digest, environment_record, built, tuple(result.findings), len(draws)), result.findings

"""`variants`: run every varied question's `generate(seed)` in the examples' sandbox, stress-test what it
returns, and record each built variant's values in the exam's variants lock.

Seeds come from the question's id, its `variants.seed` and the variant's number (pipeline/variants/seeds.py).
Every run draws max(count, --stress N) seeds (default 20): the first `count` are the built variants, all of
them are stress-tested. The code runs through `Sandbox.run`, exactly as worked examples do: the exam's
environment (`examples.requirements`), its memory limit, the sandbox's isolation. A question whose hash is
unchanged since the lock (and drawn on this Python and platform) is not run again unless `--force` or a
larger `--stress` is asked for. Before any of that, the bytes the run reads are hashed
(pipeline/variants/unchanged.py): when they and the settings are those a clean run left, it says again what
such a run says (the locks' findings) and stops, with nothing loaded, validated or started.
Exit 0 when no question has findings, 1 when one has (they are printed at the question's line).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

from pipeline.cli.common import add_exam_option
from pipeline.errors import UsageError
from pipeline.examples.sandbox import interpreter
from pipeline.settings.reader import Reader, environ
from pipeline.text.terminal import for_terminal
from pipeline.variants import unchanged

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
    parser.set_defaults(checks_settings_later=True)  # pipeline.toml is checked past the no-op test (cli/main.py)


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.stress <= 2000:
        raise UsageError(f"error: --stress {args.stress}: give 1 to 2000 seeds")
    reader = Reader(args.today)  # today, SOURCE_DATE_EPOCH; the locks once validated (the run rewrites them)
    today = reader.dates.today
    records = args.envs.resolve()
    try:
        python = interpreter()  # what the lock's entries record: another Python draws again (a probe, no sandbox)
    except UsageError:  # no Python the sandbox can run: the full path validates first, then says so
        return _full(args, reader, {}, records, None)
    epoch = str(int(reader.dates.epoch.timestamp())) if reader.dates.epoch else ""
    chosen = unchanged.settings(args, today.isoformat(), python, epoch)
    before = None if args.force else unchanged.key(args.sources, chosen)
    if before and (record := unchanged.recall(records, before)) is not None:
        for line in record["out"]:
            print(for_terminal(line))  # as printed then; the cache is a file anyone may have edited
        _say(_summary(record["total"], 0, 0, record["bad"], []) + "; nothing read changed since a run that left these locks "
             "(sources, code, settings): nothing validated or drawn again (--force does both)")
        return record["code"]
    return _full(args, reader, chosen, records, before)


def _full(args: argparse.Namespace, reader: Reader, chosen: dict, records: Path, before: unchanged.Key | None) -> int:
    """Validate, then draw each question whose hash or machine is not the lock's; remember what a run
    over the bytes left behind prints (when the sources validated and were not edited meanwhile)."""
    from pipeline.check.validate import validate  # past the no-op check: pydantic, the loader and the checks
    from pipeline.settings import project as config

    args.settings = config.checked(args.settings)  # pipeline.toml, checked here (cli/main.py): a broken setting stops the run
    from pipeline.cli.common import refused
    from pipeline.examples.environments import Environments
    from pipeline.examples.requirements import exam_requirements
    from pipeline.examples.sandbox import Sandbox
    from pipeline.variants.lockcheck import varied

    checked = validate(args.sources, reader.dates.today, exams=args.exam)
    if refused(checked, "variants"):
        return 1
    sandbox = Sandbox(unsafe=args.unsafe_no_sandbox)
    environments = Environments(args.envs, sandbox.python, _say, environ())
    bad, written, total, drawn, runs, out = 0, [], 0, 0, [], []
    for content in checked.exams:
        lock = reader(content).variants
        exam_reqs = exam_requirements(content.exam, content.folder)
        entries = {}
        for file, i, q in varied(content):
            if q.variants.code is None:
                continue
            total += 1
            requirements = exam_reqs if q.variants.environment == "exam" else ()
            entry, findings, ran = _question(q, lock.entries.get(q.id), requirements, sandbox, environments, content, args, runs)
            entries[q.id] = entry
            drawn += ran
            where = f"{os.path.relpath(file.path)}:{file.position(('questions', i)).line}:{file.position(('questions', i)).col}"
            for finding in findings:
                out.append(f"{where}: error: questions[{i}] ({q.id}): {for_terminal(finding.message)} [{finding.code}]")
                print(out[-1])
            bad += bool(findings)
        lock.entries = entries
        if lock.save():
            written.append(lock.path)
    _say(_summary(total, drawn, len(runs), bad, written))
    code = 1 if bad else 0
    after = unchanged.key(args.sources, chosen) if before else None
    if after and after.sources == before.sources:  # only the locks changed while it ran: the record describes what is there
        unchanged.remember(records, after, {"out": out, "total": total, "bad": bad, "code": code})
    return code


def _summary(total: int, drawn: int, runs: int, bad: int, written: list[Path]) -> str:
    lock_text = f"lock updated: {', '.join(os.path.relpath(p) for p in written)}" if written else "locks unchanged"
    return f"variants: {total} varied question(s) with code, {drawn} drawn ({runs} sandbox run(s)), {bad} with findings; {lock_text}"


def _same_machine(entry, python) -> bool:
    """The entry was drawn on this Python and platform (as the examples' freeze asks, pipeline/examples/runner.py)."""
    return (entry.environment.get("python"), entry.environment.get("platform")) == (python.version, python.platform)


def _question(q, previous, requirements, sandbox, environments, content, args, runs):
    """The question's entry and findings, and whether it was drawn (its hash, draws or machine not the lock's)."""
    from pipeline.examples.environments import EnvironmentFailed, requirement_name
    from pipeline.variants.draw import draw
    from pipeline.variants.lock import LockedVariant, QuestionEntry, variants_hash
    from pipeline.variants.seeds import seed_of
    from pipeline.variants.stress import Draw, stress

    v = q.variants
    digest = variants_hash(q, requirements)
    draws_wanted = max(v.count, args.stress)
    if (previous and previous.hash == digest and previous.draws >= draws_wanted and _same_machine(previous, sandbox.python)
            and not args.force):
        return previous, list(previous.findings), False
    indexes = range(1, draws_wanted + 1)
    seeds = [seed_of(q.id, v.seed, i) for i in indexes]
    try:
        environment = environments.get(requirements)
    except EnvironmentFailed as exc:
        raise UsageError(f"error: variants: {q.id}: its environment ({' '.join(requirements)}) cannot be built: {str(exc).splitlines()[0]}; "
                         "variants.environment: stdlib runs code that needs no package without one") from None
    limits = replace(sandbox.limits, timeout=float(content.exam.examples.timeout), memory_mb=content.exam.examples.memory_mb)
    before = len(runs)
    started = time.monotonic()
    drawn = draw(sandbox, v.code, seeds, timeout=v.timeout, limits=limits, env_dir=environment.path, runs=lambda: runs.append(1))
    seconds = time.monotonic() - started
    by_seed = {d.seed: d for d in drawn}
    draws = [Draw(i, s, by_seed[s].values, by_seed[s].error, by_seed[s].timeout) for i, s in zip(indexes, seeds, strict=True)]
    result = stress(q, draws, v.count)
    answers = sorted(result.answers)
    span = f"answers {answers[0]:g} to {answers[-1]:g}" if answers else "no numeric answer"
    _say(f"variants: {q.id}: {len(draws)} seed(s) drawn in {seconds:.2f} s ({len(runs) - before} sandbox run(s)); {span}; {len(result.findings)} finding(s)")
    built = tuple(LockedVariant(i, d.seed, dict(d.values)) for i, d in ((d.index, d) for d in draws[: v.count]) if i in result.valid)
    python = sandbox.python
    environment_record = {"python": python.version, "platform": python.platform, "isolation": sandbox.isolation.record,
                          "requested": [list(p) for p in environment.versions_of(tuple(requirement_name(r) for r in requirements))]}
    return QuestionEntry(q.id, digest, environment_record, built, tuple(result.findings), len(draws)), result.findings, True

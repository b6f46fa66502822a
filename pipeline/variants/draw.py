"""Run a varied question's `generate(seed)` in the examples' sandbox, once per seed, and read back what
each seed returned: the same `Sandbox.run` as `examples`, with the exam's environment and limits.

The author's code and a small driver run as one program in one sandbox run: the driver calls `generate`
for each seed under a per-seed alarm (`variants.timeout`), sends what the code prints to stderr, and
writes one JSON line per seed to stdout: its values, or the error it raised. When a seed is stuck beyond
the alarm's reach (a loop in C, a signal ignored), the sandbox's wall clock ends the run; the seed it was
on is a timeout and the seeds after it run again in a run of their own.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pipeline.examples.sandbox import Limits, Outcome, Sandbox

MAX_SEEDS_PER_RUN = 2000
MAX_RESTARTS = 5  # runs ended by the wall clock, after which the seeds left are reported as not drawn
_MARK = "\x1evariant "

DRIVER = r'''
import json as _json, signal as _signal, sys as _sys, traceback as _tb
_out = _sys.stdout
_sys.stdout = _sys.stderr  # what the author's code prints is not a result
class _Alarm(BaseException):
    pass
def _ring(*_):
    raise _Alarm()
_signal.signal(_signal.SIGALRM, _ring)
for _seed in _json.loads(__SEEDS__):
    _out.write("\x1evariant " + _json.dumps({"seed": _seed, "start": True}) + "\n"); _out.flush()
    _signal.setitimer(_signal.ITIMER_REAL, __TIMEOUT__)
    try:
        _got = generate(_seed)
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _line = {"seed": _seed, "values": _got}
        _text = _json.dumps(_line, allow_nan=True)
    except _Alarm:
        _line = {"seed": _seed, "timeout": True}; _text = _json.dumps(_line)
    except BaseException as _exc:
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _last = _tb.extract_tb(_exc.__traceback__)[-1:]
        _where = f" (line {_last[0].lineno})" if _last and _last[0].filename == __file__ else ""
        _line = {"seed": _seed, "error": f"{type(_exc).__name__}: {_exc}"[:300] + _where}; _text = _json.dumps(_line)
    _out.write("\x1evariant " + _text + "\n"); _out.flush()
'''


@dataclass(frozen=True)
class Drawn:
    """What one seed gave: its values, or why it gave none (`error`, `timeout`)."""

    seed: int
    values: dict[str, Any] | None = None
    error: str | None = None
    timeout: bool = False


def program(code: str, seeds: list[int], timeout: float) -> str:
    """The author's code, then the driver that calls its `generate` for each seed."""
    driver = DRIVER.replace("__SEEDS__", repr(json.dumps(seeds))).replace("__TIMEOUT__", repr(float(timeout)))
    return f"{code.rstrip()}\n\n\n# --- the pipeline's driver (pipeline/variants/draw.py) ---\n{driver}"


def draw(sandbox: Sandbox, code: str, seeds: list[int], *, timeout: float, limits: Limits, env_dir=None,
         runs: Callable[[], None] = lambda: None) -> list[Drawn]:
    """Each seed's result, in the order given. `runs` is called per sandbox run (for the report's count)."""
    results: dict[int, Drawn] = {}
    left = list(seeds)[:MAX_SEEDS_PER_RUN]
    for _ in range(MAX_RESTARTS + 1):
        if not left:
            break
        runs()
        # the wall clock: every seed's alarm, and as much again for starting the interpreter
        wall = replace(limits, timeout=min(limits.timeout, timeout * len(left) + 10.0))
        outcome = sandbox.run(program(code, left, timeout), env_dir, merge_stderr=False, limits=wall)
        done, stuck = _read(outcome)
        results.update(done)
        if stuck is None and all(s in results for s in left):
            break
        if not done and stuck is None:  # it ended before the first seed: the code itself fails (a syntax error, a raise at import)
            results.update({s: Drawn(s, timeout=outcome.timed_out, error=None if outcome.timed_out else _died(outcome)) for s in left})
            break
        cut = stuck if stuck is not None else next(s for s in left if s not in results)
        results[cut] = Drawn(cut, timeout=outcome.timed_out, error=None if outcome.timed_out else _died(outcome))
        left = [s for s in left if s not in results]
    for s in left:
        results.setdefault(s, Drawn(s, error="not drawn: the code was stopped too many times"))
    return [results[s] for s in seeds if s in results]


def _read(outcome: Outcome) -> tuple[dict[int, Drawn], int | None]:
    """The seeds that finished, and the seed started but not finished (None when every started one finished)."""
    done: dict[int, Drawn] = {}
    started = None
    for line in outcome.stdout.decode("utf-8", "replace").split("\n"):  # not splitlines(): it splits at the mark's \x1e
        if not line.startswith(_MARK):
            continue
        try:
            raw = json.loads(line[len(_MARK):], parse_constant=lambda c: {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[c])
        except (ValueError, KeyError):
            continue
        seed = raw.get("seed")
        if not isinstance(seed, int):
            continue
        if raw.get("start"):
            started = seed
            continue
        started = None
        done[seed] = Drawn(seed, raw.get("values"), raw.get("error"), bool(raw.get("timeout")))
    return done, started


def _died(outcome: Outcome) -> str:
    if outcome.capped:
        return "printed past the output cap: stopped"
    if outcome.out_of_memory:
        return "passed the memory limit: killed"
    tail = outcome.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
    code = outcome.returncode
    return f"the program ended (exit status {code})" + (f": {tail[0][:200]}" if tail else "")

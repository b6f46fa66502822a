"""A build reads variants from the lock in time proportional to their number (issue 33 item 6), counted in
work, not timed: the Python lines that validating and building the text outputs run, for one varied
question of 10, 20 and 100 variants (drawn by the real `variants` command), grow by the same amount per
variant over 10..20 as over 20..100. A step quadratic in the variants (a pairwise comparison, a lookup by
scanning the lock) would make the second slope several times the first."""

from __future__ import annotations

import datetime as dt
import json
import sys

from pipeline.settings.reader import exam_inputs
from tests.conftest import TODAY
from tests.kit.variants import PLAIN, write_varied

# Not the guide (it prints variant 1) nor the deck (at most `--variants` notes): the outputs that hold them all.
OUTPUTS = ("bank", "site", "moodle", "gift", "qti21", "canvas")
SCALED = '''
- id: 1.1-scaled
  type: numeric
  stem: "A layer holds {{ a }} weights at 16 bits. How many bytes is that?"
  answer: "{{ answer }}"
  explanation: "{{ a }} x 2 = {{ answer }}."
  key_points: [1.1-size]
  variants:
    count: COUNT
    environment: stdlib
    code: |
      def generate(seed):
          a = seed % 900_000_000 + 100_000_000
          return {"a": a, "answer": a * 2}
'''


def steps(sources, out) -> int:
    """Python lines run (trace 'line' events: a loop's every turn counts, not only each call) while validating
    the sources and building OUTPUTS from them."""
    from pipeline.build import build
    from pipeline.check.validate import validate

    count = 0

    def trace(frame, event, arg):
        nonlocal count
        count += event == "line"
        return trace

    sys.settrace(trace)
    try:
        result = validate(sources, dt.date.fromisoformat(TODAY))
        built = build([exam_inputs(c) for c in result.buildable], out, only=OUTPUTS, force=True)
    finally:
        sys.settrace(None)
    assert result.ok and not built.failed, (result.report.sorted(), built.failed)
    return count


def test_a_build_reads_variants_in_work_proportional_to_their_number(tmp_path, run_cli):
    counts = {}
    for n in (10, 10, 20, 100):  # the first 10 warms what a process loads once (imports, compiled templates)
        root = tmp_path / f"n{n}"
        sources = write_varied(root, SCALED.replace("COUNT", str(n)), PLAIN)
        drawn = run_cli("variants", "--sources", str(sources), "--today", TODAY, cwd=root)
        assert drawn.code == 0, drawn.out + drawn.err
        counts[n] = steps(sources, root / "out")
        bank = json.loads((root / "out" / "demo" / "bank.json").read_text())
        assert len(next(q for q in bank["questions"] if q["id"] == "1.1-scaled")["variants"]) == n  # every variant was read
    first, second = (counts[20] - counts[10]) / 10, (counts[100] - counts[20]) / 80
    assert first > 0, counts
    assert 0.8 < second / first < 1.25, f"lines per variant over 10..20: {first:.0f}, over 20..100: {second:.0f} ({counts})"

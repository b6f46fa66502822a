"""Fixture exams with varied questions (`variants:`), written as an author would, for the variants tests.

Each test builds its own exam under tmp_path (never sources/): exam.yaml of tests/kit/examples.py, and one objective
whose questions are the YAML blocks given.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from tests.kit.examples import EXAM

HEAD = """\
id: "1.1"
title: Sizes
summary: How big a model is.
reviewed: 2026-11-01
key_points:
  - id: 1.1-size
    text: A weight of b bits takes b/8 bytes.
    citations:
      - {url: "https://example.com/size", title: Sizes, quote: "A weight of b bits takes b/8 bytes."}
questions:
"""


def block(text: str) -> str:
    """A question's YAML, indented under `questions:`."""
    return textwrap.indent(textwrap.dedent(text).strip("\n"), "  ") + "\n"


def write_varied(root: Path, *questions: str, exam_extra: str = "") -> Path:
    folder = root / "sources" / "demo"
    (folder / "1-basics").mkdir(parents=True, exist_ok=True)
    (folder / "exam.yaml").write_text(EXAM + exam_extra, encoding="utf-8")
    objective(root).write_text(HEAD + "".join(block(q) for q in questions), encoding="utf-8")
    return root / "sources"


def objective(root: Path) -> Path:
    return root / "sources" / "demo" / "1-basics" / "1.1-sizes.yaml"


def line_of(root: Path, text: str) -> int:
    """The 1-based line of the first line holding `text` in the objective file."""
    return next(n for n, line in enumerate(objective(root).read_text().splitlines(), 1) if text in line)


RATIO = '''
- id: 1.1-ratio
  type: numeric
  stem: "A layer holds {{ n }} weights. How many times smaller is it at {{ low }} bits than at {{ high }} bits?"
  answer: "{{ answer }}"
  tolerance: "{{ tol }}"
  explanation: "{{ high }} / {{ low }} = {{ answer }}."
  key_points: [1.1-size]
  variants:
    count: 3
    code: |
      import random
      def generate(seed):
          r = random.Random(seed)
          high = r.choice([16, 32])
          low = r.choice([b for b in (2, 4, 8) if b < high])
          return {"n": r.randint(100, 999) * 1000, "high": high, "low": low, "answer": high / low, "tol": 0.01}
'''


SAFE_RATIO = RATIO.replace("(2, 4, 8)", "(2, 8)")  # 16/4 = 4 would be a number the stem shows

# a single choice drawn from `values:` lists, zipped (one variant per position)
SINGLE = '''
- id: 1.1-single
  type: single
  stem: "A weight of {{ bits }} bits takes how many bytes?"
  options: ["{{ right }}", "{{ wrong }}", "{{ other }}"]
  answer: "{{ right }}"
  explanation: "{{ bits }} / 8 = {{ right }}."
  key_points: [1.1-size]
  variants:
    count: 3
    combine: zip
    values: {bits: [16, 32, 64], right: ["two", "four", "eight"], wrong: ["sixteen", "thirty-two", "sixty-four"], other: ["one", "three", "five"]}
'''

# a numeric question from zipped `values:`, none of whose answers the stem shows
ZIP = '''
- id: 1.1-zip
  type: numeric
  stem: "A model of {{ params }} billion weights at {{ bits }} bits: how many GB?"
  answer: "{{ gb }}"
  explanation: "{{ params }} x {{ bits }} / 8."
  key_points: [1.1-size]
  variants:
    count: 2
    combine: zip
    values: {params: [7, 13, 70], bits: [4, 4, 16], gb: [3.5, 6.5, 140]}
'''

PLAIN = """
- id: 1.1-plain
  type: true_false
  stem: A weight of 8 bits takes one byte.
  answer: true
  explanation: Eight bits make a byte.
  key_points: [1.1-size]
"""

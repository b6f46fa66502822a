"""`python -m bench` (`make bench`): run every part's benchmark, print a table, end with one `bench:` line.

Each part's module (bench/<part>.py) exposes `measure() -> list[Measure]`. A part that has not landed
yet is listed as such and its keys are left out of the closing line. The closing line is exactly
`bench: key=value key=value ...`, for scripts and CI to read.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time

from bench import Measure

# part -> the keys it reports, in the order of the closing line
PARTS: dict[str, tuple[str, ...]] = {
    "citations": ("audit_vs_bound", "audit_speedup_vs_sequential", "audit_cpu_share", "reaudit_bytes_ratio", "match_vs_parse"),
    "pdf": ("pdf_overhead",),
    "build": ("noop_rebuild_ratio", "code_edit_rebuilds", "guide_100x_peak_gib", "guide_100x_vs_1x_per_page"),
    "scaling": ("validate_scaling",),
    "anki": ("anki_overhead",),
    "hostile": ("deep_extract_vs_parse", "deep_vs_flat", "many_questions_per_item", "many_objectives_per_item"),
    "lms": ("lms_export_vs_bank",),
    "examples": ("examples_noop_vs_cold",),  # issue 21: the examples run with nothing changed over a cold one
    # issue 23: item statistics of 100 items x 10,000 responses over csv.reader; issue 36: 10 M rows on the engine
    "stats": ("stats_vs_csv_read", "stats_vs_engine_read", "stats_10m_peak_gib", "stats_scaling"),
    "variants": ("variants_noop_vs_cold",),  # issue 33: the variants run with nothing changed over a cold one
}


def _run_part(part: str) -> list[Measure] | str:
    """The part's measures, or a sentence saying why there are none."""
    try:
        module = importlib.import_module(f"bench.{part}")
    except ModuleNotFoundError as exc:
        if exc.name == f"bench.{part}":
            return "not landed yet"
        raise
    return module.measure()


def _print_table(rows: list[tuple[str, str, str, str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", metavar="PART", help=f"parts to run: {', '.join(PARTS)} (default: all)")
    args = parser.parse_args(argv)
    unknown = [part for part in args.parts if part not in PARTS]
    if unknown:
        parser.error(f"unknown part(s): {', '.join(unknown)}; expected some of: {', '.join(PARTS)}")
    rows = [("key", "value", "goal", "detail"), ("---", "-----", "----", "------")]
    found: dict[str, float] = {}
    for part in args.parts or PARTS:
        start = time.perf_counter()
        result = _run_part(part)
        print(f"[{part}: {time.perf_counter() - start:.1f} s]", file=sys.stderr)
        if isinstance(result, str):
            rows.extend((key, "-", "", f"{part}: {result}") for key in PARTS[part])
            continue
        for measure in result:
            rows.append((measure.key, f"{measure.value:.3g}", measure.goal, measure.detail))
            found[measure.key] = measure.value
    _print_table(rows)
    ordered = [key for keys in PARTS.values() for key in keys if key in found]
    sys.stderr.flush()
    print(" ".join(["bench:", *(f"{key}={found[key]:.3g}" for key in ordered)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

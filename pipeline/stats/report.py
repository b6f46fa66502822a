"""The report per exam: `report.md` and `report.json`, worst items first, with the figures beside them.

Worst first means: likely mis-keyed items (negative discrimination, lowest first), then items with more
findings, then the weakest discrimination. The Markdown links each figure; the JSON holds the same
rows for tools. Both name each item's source file and line, where the author fixes it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.check.thresholds import threshold
from pipeline.stats import figures, intake
from pipeline.stats.itemhash import answered_hash
from pipeline.stats.judge import VARIANTS, Finding, findings
from pipeline.stats.match import ItemKey, QuestionIndex
from pipeline.stats.records import Unmatched
from pipeline.stats.store import ItemRecord, ItemStatsFile
from pipeline.stats.variant_pooling import TEST, Homogeneity, homogeneity

MAX_UNMATCHED_LISTED = 200
# One sentence per statistic, where it first appears: an author is not assumed to know classical test theory.
ALPHA = ("alpha is how consistently the items measure one thing, from 0 to 1; about 0.7 or more is usual for a test that "
         "ranks learners")
COLUMNS = (
    ("facility", "the share of the learners' marks the item earned, from 0 (nobody right) to 1 (everybody right)."),
    ("point-biserial", "the correlation between a learner's mark on the item and their score on the rest of the test, from -1 "
                       "to +1: above about +0.2 the item tells stronger learners from weaker ones, below 0 it favours the weaker "
                       "(often a wrong key)."),
    ("D (27%)", "the facility among the 27% of learners with the highest total minus the facility among the 27% with the "
                "lowest, from -1 to +1; above about 0.3 the item discriminates well."),
    ("alpha without", "Cronbach's alpha of the test with this item left out: higher than the test's alpha means the item lowers "
                      "the test's consistency."),
    ("options", "a bar chart of the share choosing each option among the weakest 27% of learners, all learners and the "
                "strongest 27%."),
)
POOLED = ("A varied question's row (pooled) counts every answer to any of its variants: n is their number, facility their mean score "
          "(the variants' facilities weighted by their answers), point-biserial the correlation between an answer's score and its "
          "learner's score without the question's variants; its variants follow it (↳), each an item of its own with its own options. "
          "Pearson's chi-square on the variants x (full marks, not) table, over the variants with enough answers, says whether one variant is "
          "easier or harder than the others beyond chance.")
OPTIONS = ("In the option tables, **chosen** and **share** are how many learners picked the option and their part of all who "
           "answered; **upper 27%** and **lower 27%** count the picks among the strongest and the weakest learners by total; "
           "**point-biserial** is the correlation between picking the option and the learner's score on the rest (the key's "
           "should be positive, a wrong option's negative).")


@dataclass(frozen=True)
class Row:
    key: ItemKey
    record: ItemRecord
    found: list[Finding]

    @property
    def sort_key(self) -> tuple:
        negative = any(f.code == "item-negative-discrimination" for f in self.found)
        r = self.record.point_biserial
        return (not negative, -len(self.found), r if r is not None else 2.0, self.key.id)


def rows(data: ItemStatsFile, index: QuestionIndex, checks: dict) -> list[Row]:
    """Every item with statistics, worst first; a varied question's variants follow it, in their order."""
    found = [Row(index.keys[qid], rec, findings(index.keys[qid], rec, answered_hash(index, qid), checks, data.date.isoformat()))
             for qid, rec in data.items.items() if qid in index.keys]
    by_id = {r.key.id: r for r in found}
    ranked = []
    for row in sorted((r for r in found if index.question_of(r.key.id) is None), key=lambda row: row.sort_key):
        ranked += [row, *(by_id[v] for v in index.variants.get(row.key.id, ()) if v in by_id)]
    return ranked


def _f(value: float | None, fmt: str = ".2f") -> str:
    return "–" if value is None else format(value, fmt)


def write(out: Path, data: ItemStatsFile, index: QuestionIndex, checks: dict, unmatched: list[Unmatched]) -> list[Path]:
    """Write the report and its figures into `out` (a fresh folder); return every file written."""
    ranked = rows(data, index, checks)
    fig_dir = out / "figures"
    fig_dir.mkdir(parents=True)
    written = [figures.scatter(fig_dir / "facility-discrimination.png", [(r.key.id, r.record, [f.code for f in r.found]) for r in ranked],
                               threshold(checks, "item-too-easy").value, threshold(checks, "item-too-hard").value,
                               threshold(checks, "item-negative-discrimination").value)]
    bars = {}
    for row in ranked:
        if row.key.is_choice and row.record.options:
            bars[row.key.id] = figures.option_bars(fig_dir / f"options-{row.key.id}.png", row.key, row.record)
            written.append(bars[row.key.id])
    varied = _varied(ranked, index, threshold(checks, VARIANTS))
    (out / "report.md").write_text(_markdown(data, ranked, bars, unmatched, index, varied), encoding="utf-8")
    (out / "report.json").write_text(json.dumps(_json(data, ranked, unmatched, index, varied), indent=2, sort_keys=True, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    return [out / "report.md", out / "report.json", *written]


def _where(key: ItemKey) -> str:
    return f"{key.source_file}:{key.source_line}"


def _varied(ranked: list[Row], index: QuestionIndex, rule) -> dict[str, tuple[Homogeneity, float]]:
    """Per varied question with answers: its homogeneity test over the variants with the exam's least answers, and the
    p-value below which it warns."""
    return {r.key.id: (homogeneity(r.record.variants, rule.min_responses), rule.value) for r in ranked
            if r.record.variants and r.key.id in index.variants}


def _markdown(data: ItemStatsFile, ranked: list[Row], bars: dict[str, Path], unmatched: list[Unmatched], index: QuestionIndex,
              varied: dict[str, tuple[Homogeneity, float]]) -> str:
    flagged = [r for r in ranked if r.found]
    lines = [f"# Item statistics: {data.exam}", "",
             f"Answers of {data.learners} learners, {data.answers} counted ({'first attempts' if data.first_attempts_only else 'all attempts'}; "
             f"{data.later_attempts} later attempts set aside"
             + (f"; only attempts since {data.since.isoformat()}, {data.before_since} older or undated left out" if data.since else "")
             + f"), gathered up to {data.date.isoformat()}. "
             f"Cronbach's alpha {_f(data.alpha)} over the {data.alpha_learners} learners who answered every item ({ALPHA}). "
             f"{data.irt_note}".rstrip(), "",
             "| file | format | rows | mapped | unmatched |", "| --- | --- | ---: | ---: | ---: |"]
    lines += [f"| {_md_escape(f.name)} | {_md_escape(f.format)} | {f.rows} | {f.answers} | {f.unmatched} |" for f in data.files]
    lines += ["", f"{len(flagged)} of {len(ranked)} items have findings. Worst first:", "",
              "[![Facility against discrimination](figures/facility-discrimination.png)](figures/facility-discrimination.png)", "",
              *(f"- **{name}**: {sentence}" for name, sentence in COLUMNS), "",
              "| # | item | source | n | facility | point-biserial | D (27%) | alpha without | findings | options |",
              "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    number = 0
    for r in ranked:
        codes = ", ".join(sorted({f.code for f in r.found})) or "–"
        figure = f"[figure](figures/{bars[r.key.id].name})" if r.key.id in bars else "–"
        variant = index.question_of(r.key.id) is not None
        number += 0 if variant else 1
        shown = f"↳ {r.key.id}" if variant else r.key.id + (" (pooled)" if r.record.variants else "")
        lines.append(f"| {'' if variant else number} | {shown} | {_where(r.key)} | {r.record.n} | {_f(r.record.facility)} | "
                     f"{_f(r.record.point_biserial, '+.2f')} | {_f(r.record.discrimination_index, '+.2f')} | {_f(r.record.alpha_if_deleted)} | "
                     f"{codes} | {figure} |")
    if varied:
        lines += ["", f"## Varied questions ({len(varied)})", "", POOLED]
        for r in (r for r in ranked if r.key.id in varied):
            lines += ["", *_varied_lines(r, index, *varied[r.key.id], {row.key.id: row.record for row in ranked})]
    explained = False
    for r in flagged:
        lines += ["", f"## {r.key.id} ({_where(r.key)})", "", _md_escape(r.key.stem), ""]
        lines += [f"- **{f.code}**: {_md_escape(f.message)}" for f in r.found]
        if r.key.id in bars:
            lines += ["", f"[![Options of {r.key.id}](figures/{bars[r.key.id].name})](figures/{bars[r.key.id].name})", ""]
            lines += [] if explained else [OPTIONS, ""]
            lines.append(_option_table(r))
            explained = True
    total = sum(f.unmatched for f in data.files)
    if unmatched:
        lines += ["", f"## Unmatched rows ({total})", ""]
        lines += [f"- {_md_escape(u.path.name)}: row {u.row}: {_md_escape(u.reason)}" for u in unmatched[:MAX_UNMATCHED_LISTED]]
        if total > MAX_UNMATCHED_LISTED:
            lines.append(f"- and {total - MAX_UNMATCHED_LISTED} more: report.json lists the first {intake.MAX_UNMATCHED_KEPT:,} of each file")
    return "\n".join(lines) + "\n"


def _varied_lines(r: Row, index: QuestionIndex, test: Homogeneity, limit: float, records: dict[str, ItemRecord]) -> list[str]:
    """A varied question: its pooled figures, the test across its variants, and a row per variant with its values."""
    head = (f"**{r.key.id}** ({_where(r.key)}): {r.record.n} answers over {len(r.record.variants)} variants, facility "
            f"{_f(r.record.facility)}, point-biserial {_f(r.record.point_biserial, '+.2f')} (pooled). ")
    if test.p is None:
        head += "Not tested across variants: fewer than two to compare."
    else:
        verdict = "their facilities differ beyond chance" if test.p < limit else "no difference beyond chance"
        head += (f"{TEST} across {', '.join(test.tested)}: {test.chi_square:.2f}, df {test.df}, p = {test.p:.2g} "
                 f"({'below' if test.p < limit else 'not below'} {limit:g}: {verdict}).")
    head += "".join(f" {v} not tested ({why})." for v, why in test.untested)
    out = [head, "", "| variant | values | n | right | facility | point-biserial | D (27%) |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for v, share in r.record.variants.items():
        own = records.get(v)
        values = ", ".join(f"{k} = {val if isinstance(val, str) else json.dumps(val)}" for k, val in sorted(index.values.get(v, {}).items()))
        out.append(f"| {v} | {_md_escape(values) or '–'} | {share.n} | {'–' if share.right is None else share.right} | {_f(share.facility)} | "
                   f"{_f(own.point_biserial if own else None, '+.2f')} | {_f(own.discrimination_index if own else None, '+.2f')} |")
    return out


def _option_table(r: Row) -> str:
    out = ["| option | text | chosen | share | upper 27% | lower 27% | point-biserial |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for o in r.key.options:
        s = (r.record.options or {}).get(o.id)
        if s:
            mark = " (key)" if o.correct else ""
            out.append(f"| {o.letter}{mark} | {_md_escape(o.text)} | {s.count} | {s.share:.0%} | {_weight(s.upper)} | {_weight(s.lower)} | {_f(s.point_biserial, '+.2f')} |")
    return "\n".join(out)


def _weight(value: float) -> str:
    """A group's count: whole unless learners tied at the cut made it a fraction (then two decimals)."""
    return f"{value:.0f}" if value == int(value) else f"{value:.2f}"


def _md_escape(text: str) -> str:
    """Source and learner text, and upload file names, printed as text: no markup, no table breaks, no links, no
    terminal escapes (a control or format character is shown as its code, e.g. <U+001B>, as `validate` shows it)."""
    flat = " ".join(_CONTROL.sub(lambda m: f"U+{ord(m[0]):04X}", text).split())
    for ch in "\\`*_[]<>|#!&":
        flat = flat.replace(ch, "\\" + ch)
    return flat


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def _json(data: ItemStatsFile, ranked: list[Row], unmatched: list[Unmatched], index: QuestionIndex,
          varied: dict[str, tuple[Homogeneity, float]]) -> dict:
    return {
        "exam": data.exam, "date": data.date.isoformat(), "learners": data.learners, "answers": data.answers,
        "first_attempts_only": data.first_attempts_only, "later_attempts": data.later_attempts, "alpha": data.alpha,
        "alpha_learners": data.alpha_learners, "irt_note": data.irt_note, "files": [f.model_dump() for f in data.files],
        "items": [{"id": r.key.id, "source": _where(r.key), "stem": r.key.stem, **r.record.model_dump(exclude_none=True),
                   "letters": {o.id: o.letter for o in r.key.options}, **_variant_json(r, index, varied),
                   "findings": [{"code": f.code, "message": f.message, **({"option": f.option} if f.option else {})} for f in r.found]}
                  for r in ranked],
        "unmatched": [{"file": u.path.name, "row": u.row, "reason": u.reason} for u in unmatched],
    }


def _variant_json(r: Row, index: QuestionIndex, varied: dict[str, tuple[Homogeneity, float]]) -> dict:
    """A variant's row names its question; a varied question's row holds the homogeneity test."""
    question = index.question_of(r.key.id)
    if question is not None:
        return {"question": question, "values": index.values.get(r.key.id, {})}
    if r.key.id not in varied:
        return {}
    test, limit = varied[r.key.id]
    return {"homogeneity": {"test": TEST, "tested": list(test.tested), "untested": [{"variant": v, "why": why} for v, why in test.untested],
                            "chi_square": None if test.chi_square is None else round(test.chi_square, 4), "df": test.df,
                            "p": None if test.p is None else float(f"{test.p:.4g}"), "threshold": limit}}

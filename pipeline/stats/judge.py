"""What an item's statistics say to its author: the warnings `validate` prints and the report lists.

One function for both, so the report and the source line never disagree. An item whose answers came
from an earlier version of it (its content hash differs) is reported stale and judged no further.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.check.thresholds import threshold
from pipeline.stats.match import ItemKey
from pipeline.stats.store import ItemRecord
from pipeline.stats.variant_pooling import TEST, homogeneity

STALE = "item-stats-stale"
VARIANTS = "item-variants-differ"


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    option: str | None = None  # the option it is about (a dead distractor), for its line


def _option_text(key: ItemKey, option_id: str | None) -> str:
    option = key.option(option_id) if option_id else None
    if option is None:
        return "?"
    text = " ".join(option.text.split())
    return f"{option.letter} ({text[:60]!r})"


def findings(key: ItemKey, record: ItemRecord, current_hash: str, checks: dict, date: str) -> list[Finding]:
    """Every warning the item's statistics raise, worst first."""
    if record.hash != current_hash:
        return [Finding(STALE, f"answers: item-stats.json ({date}) holds answers to an earlier version of this item; its statistics "
                               "are not applied until `stats` runs on answers to this version")]
    source = "" if record.source == "responses" else f", from {record.source}"
    who = f"{record.n} answers to its {len(record.variants)} variants" if record.variants else f"{record.n} learners"
    where = f"over {who} (item-stats.json of {date}{source})"
    found = []
    for code, check in (("item-negative-discrimination", _negative), ("item-too-hard", _too_hard), ("item-too-easy", _too_easy),
                        ("item-dead-distractor", _dead)):
        rule = threshold(checks, code)
        if record.n >= rule.min_responses:
            found.extend(check(key, record, rule.value, where))
    if record.variants:
        found.extend(_variants_differ(record, threshold(checks, VARIANTS), date))
    return found


def _variants_differ(record: ItemRecord, rule, date: str) -> list[Finding]:
    """A varied question whose variants' facilities differ beyond chance (`pipeline.stats.variant_pooling.homogeneity`)."""
    test = homogeneity(record.variants, rule.min_responses)
    if test.p is None or test.p >= rule.value:
        return []
    shares = "; ".join(f"{v} {record.variants[v].facility:.2f} ({record.variants[v].right} of {record.variants[v].n} right)" for v in test.tested)
    untested = "".join(f"; {v} not tested ({why})" for v, why in test.untested)
    return [Finding(VARIANTS, f"answers: its variants are not equally hard: facility {shares} (item-stats.json of {date}); {TEST} "
                              f"{test.chi_square:.1f}, df {test.df}, p = {test.p:.2g}, below {rule.value:g}{untested}; look at what "
                              "differs between the variants' values (a round number, a ratio the stem shows, a larger case): draw values "
                              "alike in difficulty, or make the hard ones a question of their own")]


def _negative(key: ItemKey, record: ItemRecord, limit: float, where: str) -> list[Finding]:
    r = record.point_biserial
    if r is None or r >= limit:
        return []
    keyed = ", ".join(_option_text(key, o.id) for o in key.options if o.correct) or "?"
    if record.variants:  # pooled over variants whose options differ: each variant's own row names the options
        who = "each variant's row in the stats report names the option its strongest learners chose, and its key"
    elif record.strongest_choice:
        who = f"the strongest learners (upper 27%) chose {_option_text(key, record.strongest_choice)} most; the key is {keyed}"
    else:
        wrong = _most_chosen_wrong(record)
        who = (f"the most chosen wrong option is {_option_text(key, wrong)}; the key is {keyed}" if wrong else f"the key is {keyed}")
    return [Finding("item-negative-discrimination", f"answers: corrected point-biserial {r:+.2f} {where}: stronger learners get it wrong "
                                                    f"more often, likely mis-keyed or ambiguous; {who}; check the answer")]


def _most_chosen_wrong(record: ItemRecord) -> str | None:
    wrong = [(o.count, oid) for oid, o in (record.options or {}).items() if not o.correct]
    return max(wrong)[1] if wrong else None


def _too_hard(key: ItemKey, record: ItemRecord, limit: float, where: str) -> list[Finding]:
    if record.facility is None or record.facility >= limit:
        return []
    return [Finding("item-too-hard", f"answers: facility {record.facility:.2f} {where}, below {limit:g}: few get it right; check the key "
                                     "and the wording, and whether the objective teaches it")]


def _too_easy(key: ItemKey, record: ItemRecord, limit: float, where: str) -> list[Finding]:
    if record.facility is None or record.facility <= limit:
        return []
    return [Finding("item-too-easy", f"answers: facility {record.facility:.2f} {where}, above {limit:g}: nearly everyone gets it right, "
                                     f"so it tells little; {_easier_fix(key)}")]


def _easier_fix(key: ItemKey) -> str:
    """What makes an item harder, for its type: a true/false or typed answer has no options to make plausible."""
    if key.type == "true_false":
        return ("state a misconception learners hold, so that the statement's truth needs the objective's knowledge, "
                "or ask it as a single-choice question with plausible wrong options")
    if not key.is_choice:
        return "ask for something the objective teaches that a guess or the stem's wording does not give away"
    return "make the wrong options more plausible or ask about something harder"


def _dead_fix(key: ItemKey) -> str:
    """A true/false item's wrong answer is the other truth value: it cannot be replaced, the statement can."""
    if key.type == "true_false":
        return ("a true/false item's only wrong answer cannot be replaced: rewrite the statement around a misconception learners "
                "hold, so that the other answer looks right to someone who has not learnt it, or ask it as a single-choice question")
    return "replace it with a wrong answer learners believe"


def _dead(key: ItemKey, record: ItemRecord, limit: float, where: str) -> list[Finding]:
    found = []
    for option in key.options:
        stats = (record.options or {}).get(option.id)
        if stats is None or option.correct or stats.share >= limit:
            continue
        found.append(Finding("item-dead-distractor", f"answers: option {_option_text(key, option.id)} chosen by {stats.count} of "
                                                     f"{record.n} learners ({stats.share:.0%}, below {limit:.0%}; {where[where.index('(') + 1:-1]}): "
                                                     f"it distracts no one; {_dead_fix(key)}", option.id))
    return found

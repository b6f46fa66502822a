"""The forms a term goes by, and masking them: so a definition never gives its own term away.

A definition may name its term outright ("Tensor Cores are..."), by acronym ("... method (LoRA)",
"Also written BF16") or by expansion ("KV cache" defined as "the key-value cache ..."). Asking
"which term is this?" over such a definition answers itself. The forms are found by rule, no list:

- the term itself, with a plural ending;
- an acronym-like word of the definition (two or more capitals, or capitals and digits) whose letters
  appear in order in the term, starting with its first letter (LoRA in Low-Rank Adaptation, BF16 in
  bfloat16, PEFT in Parameter-efficient fine-tuning);
- when the term holds an acronym word, a run of words in the definition whose initials spell it
  (key-value for KV), with the rest of the term after it when present (key-value cache).

Masking puts a real blank (`BLANK`, plain underscores that Markdown prints as they are) in place of every
form; `words_left` tells whether the masked text still says enough to identify anything.
"""

from __future__ import annotations

import re
from functools import lru_cache

BLANK = "_____"  # five underscores between spaces or punctuation: Markdown shows them as a line, never as emphasis
_WORD = re.compile(r"[A-Za-z0-9]+")


def is_acronym(word: str) -> bool:
    """`KV`, `BF16`, `LoRA`, `PEFT`: at least two capitals (or a capital and a digit) in one word."""
    return sum(c.isupper() for c in word) >= 2 or (any(c.isupper() for c in word) and any(c.isdigit() for c in word))


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.casefold())


def abbreviates(short: str, long: str) -> bool:
    """Whether `short` (an acronym) can stand for `long`: its letters in order in `long`, same first letter."""
    s, w = _letters(short), _letters(long)
    if not s or not w or s == w or s[0] != w[0] or len(s) >= len(w):
        return False
    at = 0
    for ch in w:
        if at < len(s) and ch == s[at]:
            at += 1
    return at == len(s)


def _expansions(term: str, text: str) -> set[str]:
    """Runs of words in `text` whose initials spell an acronym word of `term` (key-value for KV), plus the rest of the term."""
    found: set[str] = set()
    words = term.split()
    for i, word in enumerate(words):
        if not is_acronym(word) or not word.isalpha():
            continue
        rest = " ".join(words[i + 1 :])
        for match in _runs(text, len(word)):
            parts = _WORD.findall(match)
            if any(is_acronym(p) for p in parts):  # "them as ONNX" is no expansion of TAO
                continue
            if "".join(p[0] for p in parts).casefold() == word.casefold():
                found.add(match)
                if rest:
                    found.add(f"{match} {rest}")
    return found


def _runs(text: str, n: int) -> list[str]:
    """Every run of `n` words of `text` (hyphenated parts count as words), as written."""
    spans = [m.span() for m in _WORD.finditer(text)]
    return [text[spans[i][0] : spans[i + n - 1][1]] for i in range(len(spans) - n + 1)]


def forms(term: str, *texts: str) -> frozenset[str]:
    """The term, its acronyms and expansions found in `texts` (typically its definition), lower-cased."""
    found = {term.casefold()}
    own_words = {w.casefold() for w in _WORD.findall(term)}  # NVIDIA alone is not NVIDIA TAO
    for text in texts:
        found |= {a.casefold() for a in _WORD.findall(text) if is_acronym(a) and abbreviates(a, term) and a.casefold() not in own_words}
        found |= {e.casefold() for e in _expansions(term, text)}
    return frozenset(f for f in found if _letters(f))


@lru_cache(maxsize=4096)
def pattern(variants: frozenset[str]) -> re.Pattern[str]:
    # Longest first, so "key-value cache" is masked whole rather than as "key-value" and a stray "cache".
    alternatives = "|".join(re.escape(v).replace(r"\ ", r"[\s-]+") for v in sorted(variants, key=lambda v: (-len(v), v)))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?:e?s)?(?![\w-])", re.IGNORECASE)


def mentions(variants: frozenset[str], text: str) -> bool:
    return bool(variants) and bool(pattern(variants).search(text))


def mask(variants: frozenset[str], text: str, blank: str = BLANK) -> str:
    """`text` with every form in `variants` replaced by `blank`."""
    return pattern(variants).sub(blank, text) if variants else text


def words_left(masked: str, blank: str = BLANK) -> int:
    """Words of `masked` besides the blanks: what a reader has to go on."""
    return len(_WORD.findall(masked.replace(blank, " ")))

"""Varied questions: a question written as a template (`{{ name }}`) whose `variants:` say where each
variant's values come from (code run in the examples' sandbox by `variants`, or `values:` lists), how many
are built, and the stress test that must pass before any variant is shown.

template.py (the syntax, rendering), seeds.py (a variant's seed), made.py (a variant from its values),
draw.py (running `generate(seed)` in the sandbox), lock.py (variants.lock.json), stress.py (the findings),
lockcheck.py (what validate and build say from the lock, offline).
"""

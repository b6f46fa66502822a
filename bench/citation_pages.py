"""Synthetic pages and quotes for the citations benchmark, generated at run time from a fixed seed."""

from __future__ import annotations

import random

WORDS = ["tensor", "core", "batch", "size", "memory", "bandwidth", "precision", "gradient", "optimizer", "kernel", "latency", "throughput", "layer", "activation", "checkpoint", "sequence", "packing", "parallelism", "pipeline", "model", "data", "shard", "expert", "token", "adapter", "rank", "matrix", "float", "bfloat", "quantization", "pruning", "inference", "engine", "backend", "server", "cache", "schedule"]


def sentences(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(12, 24))).capitalize() + f" {rng.randint(2, 999)}." for _ in range(count)]


def page_html(seed: int, paragraphs: int = 24) -> str:
    """A documentation-like page of about 8 KB: a head, a script, paragraphs and a table."""
    body = "".join(f"<p>{s} <em>{s}</em></p>\n" for s in sentences(seed, paragraphs))
    return (f"<!DOCTYPE html><html><head><title>Page {seed}</title><script>var page = {seed};</script></head>"
            f"<body><main><h1>Page {seed}</h1>{body}<table><tr><td>cell {seed}</td></tr></table></main></body></html>")


def quote_for(seed: int) -> str:
    """The quote citing page `seed`: on it, except on every tenth page, where one of its words was
    changed (drifted), as in an audit where most quotes hold and a few need an author."""
    sentence = sentences(seed, 24)[17]
    if seed % 10:
        return sentence
    words = sentence.split()
    words[len(words) // 2] = "reworded"
    return " ".join(words)

"""Citations benchmark: `measure() -> list[Measure]`, printing nothing.

- audit_vs_bound: a full `audit` (load sources, fetch, match, write the lock) of 300 citations on 300
  pages over 10 loopback hosts (127.0.0.2-11), each response delayed 50 ms, against the lower bound the politeness
  rules set (2 requests at once per host, starts 50 ms apart): the slowest host's schedule.
- audit_speedup_vs_sequential: the same pages fetched one request at a time, over the audit.
- reaudit_bytes_ratio: bytes the servers send for a second audit of unchanged pages (304s) over the first.
- audit_cpu_share: the share of that audit's wall time its process spends on CPU (user + system, every
  thread; the page servers run in a child process of their own), so that matching never becomes what an
  audit of many hosts waits for.
- match_vs_parse: normalizing a 1 MB page and matching 100 quotes on it (found, drifted, missing), over
  reading that page's visible text with lxml.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from bench import Measure, median_seconds
from bench.citation_pages import quote_for, sentences
from pipeline.citations.normalize import NormalizedPage
from pipeline.citations.pagetext import visible_text
from pipeline.citations.quote_match import find_all
from pipeline.cli import main as pipeline_main

HOSTS, PAGES_PER_HOST, DELAY = 10, 30, 0.05
PER_HOST, INTERVAL = 2, 0.05
ROOT = Path(__file__).resolve().parent.parent
EXAM = "id: bench\ncode: B-1\ntitle: Bench\nvendor: Acme\nexam_page: https://example.com/exam\nreviewed: 2026-11-01\nreview_policy: {max_age_days: 180}\nsections:\n  - {number: 1, title: Bench, weight: 100}\n"


class Hosts:
    """The page servers, in a child process (see bench/citation_hosts.py)."""

    def __enter__(self) -> Hosts:
        command = [sys.executable, "-m", "bench.citation_hosts", str(HOSTS), str(PAGES_PER_HOST), str(DELAY)]
        self.process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.urls: list[str] = json.loads(self.process.stdout.readline())
        return self

    def sent_bytes(self) -> int:
        self.process.stdin.write("bytes\n")
        self.process.stdin.flush()
        return int(self.process.stdout.readline())

    def __exit__(self, *exc: object) -> None:
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        self.process.wait(timeout=10)


def politeness_bound(requests_per_host: int) -> float:
    """The least time the rules allow for one host's requests: spaced starts, limited concurrency."""
    spaced = (requests_per_host - 1) * INTERVAL + DELAY
    batched = math.ceil(requests_per_host / PER_HOST) * DELAY
    return max(spaced, batched)


def write_sources(folder: Path, urls: list[str]) -> Path:
    exam = folder / "sources" / "bench"
    exam.mkdir(parents=True)
    (exam / "exam.yaml").write_text(EXAM, encoding="utf-8")
    points = []
    for i, url in enumerate(urls):
        points.append(f"  - id: p{i}\n    text: A point.\n    citations:\n      - {{url: '{url}', title: Page, quote: '{quote_for(i)}'}}\n")
    objective = 'id: "1.1"\ntitle: Bench\nsummary: Many citations.\nreviewed: 2026-11-01\nkey_points:\n' + "".join(points)
    (exam / "bench.yaml").write_text(objective, encoding="utf-8")
    return folder / "sources"


def run_audit(sources: Path, cache: Path) -> tuple[float, float]:
    """The audit's wall time and the CPU time this process spent in it."""
    args = ["audit", "--sources", str(sources), "--today", "2026-11-29", "--per-host", str(PER_HOST),
            "--interval", str(INTERVAL), "--retries", "0", "--cache", str(cache), "--no-archive",
            *(arg for h in range(HOSTS) for arg in ("--allow-host", f"127.0.0.{2 + h}"))]  # the loopback hosts of citation_hosts
    started, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        pipeline_main(args)
    return time.perf_counter() - started, time.process_time() - cpu


def sequential_fetch(urls: list[str]) -> float:
    started = time.perf_counter()
    with requests.Session() as session:
        for url in urls:
            session.get(url, timeout=10).raise_for_status()  # the body is read: stream is off
    return time.perf_counter() - started


def measure_audit(folder: Path) -> list[Measure]:
    with Hosts() as hosts:
        sources = write_sources(folder, hosts.urls)
        runs = []
        for n in range(3):
            cache = folder / f"cache-{n}"
            runs.append(run_audit(sources, cache))
        before = hosts.sent_bytes()
        run_audit(sources, folder / "cache-0")  # pages unchanged since cache-0 was filled
        reaudit = hosts.sent_bytes() - before
        first = before // len(runs)  # each first audit sent the same pages
        sequential = sequential_fetch(hosts.urls)
    audit, cpu = sorted(runs)[1]
    bound = politeness_bound(PAGES_PER_HOST)
    citations = len(hosts.urls)
    setup = f"{citations} citations, {len(hosts.urls)} pages, {HOSTS} hosts, {PER_HOST} at once per host, {INTERVAL * 1000:.0f} ms apart, {DELAY * 1000:.0f} ms per response"
    return [
        Measure("audit_vs_bound", audit / bound, "<= 1.3", f"audit {audit:.2f} s, politeness bound {bound:.2f} s ({setup})"),
        Measure("audit_speedup_vs_sequential", sequential / audit, ">= 8", f"one request at a time {sequential:.2f} s, audit {audit:.2f} s"),
        Measure("audit_cpu_share", cpu / audit, "<= 0.25", f"audit CPU {cpu:.2f} s (user + system, every thread) in {audit:.2f} s of wall time"),
        Measure("reaudit_bytes_ratio", reaudit / first, "<= 0.05", f"re-audit {reaudit:,} bytes, first audit {first:,} bytes (sent by the servers)"),
    ]


def big_page() -> tuple[str, list[str]]:
    """A page of about 1 MB and 100 quotes on it: 50 found, 30 drifted, 20 missing."""
    paragraphs = sentences(7, 6000)
    html = "<html><body>" + "".join(f"<p>{s} <b>{s[:20]}</b></p>\n" for s in paragraphs) + "</body></html>"
    found = [paragraphs[i * 97] for i in range(50)]
    drifted = [" ".join(w if k != 5 else "reworded" for k, w in enumerate(paragraphs[i * 131 + 1].split())) for i in range(30)]
    missing = [" ".join(s.split()[::-1]) + " nowhere" for s in sentences(99, 20)]
    return html, found + drifted + missing


def measure_matching() -> Measure:
    html, quotes = big_page()
    text = visible_text(html)
    parse = median_seconds(lambda: visible_text(html), repeat=3)

    def match_all() -> None:  # as an audit does: the page normalized once, its quotes matched together
        find_all(quotes, NormalizedPage.of(text))

    match = median_seconds(match_all, repeat=3)
    return Measure("match_vs_parse", match / parse, "<= 2.5", f"match 100 quotes {match:.3f} s, parse {len(html) / 1e6:.1f} MB page {parse:.3f} s")


def measure() -> list[Measure]:
    folder = Path(tempfile.mkdtemp(prefix="bench-citations-"))
    try:
        return [*measure_audit(folder), measure_matching()]
    finally:
        shutil.rmtree(folder, ignore_errors=True)

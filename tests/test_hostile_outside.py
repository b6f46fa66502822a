"""What a cited site or an archive controls, sent back at the audit from a real loopback server: redirect
`Location` headers and meta refreshes with YAML, line breaks of every kind, terminal escapes, Markdown
and HTML, over-long and non-ASCII paths; CDX answers naming another page or an impossible time.

Each address is normalised and checked before anything keeps it: refused ones leave the source and
the lock as they were (`blocked`), accepted ones are written by `--fix-moves` in their normal form, and
a diff of the source shows the URL lines alone. No output line, report or lock holds a raw control
character, and no run exits 3."""

from __future__ import annotations

import difflib
import json
import re
import shutil

import pytest

from pipeline.citations.lock import LOCK_NAME, CitationLock
from pipeline.load.yamlsource import load_yaml
from tests.conftest import FIXTURES, TODAY
from tests.kit.fakearchive import FakeArchive, allow_loopback
from tests.kit.pageserver import PageServer, Reply

QUOTE = "Tensor Cores are most efficient when key parameters of the operation are multiples of 8"
PAGE = f"<html><body><p>{QUOTE}.</p></body></html>"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")  # what no output may hold raw


def sent(data: bytes) -> str:
    """A header value carrying these exact bytes (http.server writes header values as Latin-1)."""
    return data.decode("latin-1")


# name -> (the Location's bytes, the normalised address's path (the request path, then any fragment), or None: refused)
MOVES = {
    "flow-key": (b"/a, publisher: X", "/a,%20publisher:%20X"),
    "space": (b"/new page", "/new%20page"),
    "hash": (b"/b #not-a-comment", "/b%20#not-a-comment"),
    "utf8": ("/café/naïve".encode(), "/caf%C3%A9/na%C3%AFve"),
    "markup": (b"/c![t](http://e.example/t.png)<img src=x>", "/c!%5Bt%5D(http://e.example/t.png)%3Cimg%20src=x%3E"),
    "nel": (b"/d\xc2\x85  - id: injected\xc2\x85    text: Injected.", None),
    "line-separator": ("/e\u2028x".encode(), None),
    "escape": (b"/f\x1b]0;owned\x07\x1b[2J", None),
    "vertical-tab": (b"/g\x0bx", None),
    "long": (b"/" + b"p" * 3000, None),
}
BLOCK = "  - id: p-{name}\n    text: A point.\n    citations:\n      - url: {url}   # cited\n        title: A page\n        quote: \"{quote}\"\n"
FLOW = "  - id: p-{name}\n    text: A point.\n    citations:\n      - {{url: {url}, title: A page, quote: \"{quote}\"}}   # cited\n"
HEAD = 'id: "1.1"\ntitle: Moved pages\nsummary: Quotes whose pages moved.\nreviewed: 2026-11-01\nkey_points:\n'


@pytest.fixture
def site():
    with PageServer() as server:
        for name, (location, target) in MOVES.items():
            server.add(f"/{name}", Reply(301, headers={"Location": sent(location)}))
            if target:
                server.add(target.split("#")[0], Reply(body=PAGE))
        server.add("/refresh", Reply(body=f'<meta http-equiv="refresh" content="0; url=/h\x1b[31m">{PAGE}'))
        yield server


def make_sources(tmp_path, server) -> tuple:
    folder = tmp_path / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    points = [(FLOW if name == "flow-key" else BLOCK).format(name=name, url=server.url(f"/{name}"), quote=QUOTE) for name in MOVES]
    points.append(BLOCK.format(name="refresh", url=server.url("/refresh"), quote=QUOTE))
    (folder / "moved.yaml").write_text(HEAD + "".join(points), encoding="utf-8")
    return tmp_path / "sources", folder / "moved.yaml"


def audit(run_cli, sources, *extra):
    return run_cli("audit", "--sources", "sources", "--today", TODAY, "--retries", "0", "--interval", "0", "--timeout", "2",
                   *allow_loopback(), "--cache", "cache", "--no-archive", "--report", "report.json", "--report", "report.md",
                   *extra, cwd=sources.parent)


def test_fix_moves_writes_only_checked_addresses_and_only_the_url_lines(run_cli, tmp_path, site):
    sources, path = make_sources(tmp_path, site)
    before = path.read_text(encoding="utf-8")
    result = audit(run_cli, sources, "--fix-moves")
    assert result.code == 1, result.err  # the refused redirects stay blocked: an author looks at them
    after = path.read_text(encoding="utf-8")
    removed = [line[1:] for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0) if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0) if line.startswith("+") and not line.startswith("+++")]
    moved = {name: target for name, (_, target) in MOVES.items() if target}
    assert len(removed) == len(added) == len(moved)
    for name, target in moved.items():
        old = next(line for line in removed if site.url(f"/{name}") in line)
        new = added[removed.index(old)]
        assert site.url(target) in new, (name, new)
        assert new.replace(f'"{site.url(target)}"', site.url(target)) == old.replace(site.url(f"/{name}"), site.url(target))
    data = load_yaml(path).data  # what validate reads: no key injected, every URL where it was
    assert [p["id"] for p in data["key_points"]] == [f"p-{name}" for name in MOVES] + ["p-refresh"]
    assert all(set(p["citations"][0]) == {"url", "title", "quote"} for p in data["key_points"])
    assert run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent).code == 0


def test_refused_addresses_are_blocked_and_nothing_keeps_them(run_cli, tmp_path, site):
    sources, _ = make_sources(tmp_path, site)
    result = audit(run_cli, sources)
    assert result.code == 1
    statuses = {c["url"].rsplit("/", 1)[1]: (c["status"], c["moved_to"], c["detail"]) for c in json.loads((sources.parent / "report.json").read_text())["citations"]}
    refused = [name for name, (_, target) in MOVES.items() if target is None] + ["refresh"]
    for name in refused:
        status, moved_to, detail = statuses[name]
        assert (status, moved_to) == ("blocked", None), name
        assert "points to an address that is refused" in detail, (name, detail)
    assert "the control character U+001B" in statuses["escape"][2] and "U+0085" in statuses["nel"][2]
    assert "over the 2,000 a source may hold" in statuses["long"][2]
    for name, (_, target) in MOVES.items():
        if target:
            assert statuses[name][:2] == ("moved", site.url(target)), name
    lock = (sources / "demo" / LOCK_NAME).read_text(encoding="utf-8")
    for text in (result.out, result.err, lock, (sources.parent / "report.md").read_text(encoding="utf-8")):
        assert not RAW.search(text), RAW.search(text)
    markdown = (sources.parent / "report.md").read_text(encoding="utf-8")
    assert "<img" not in markdown and "![" not in markdown
    validated = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=sources.parent)
    assert validated.code == 0 and not RAW.search(validated.out + validated.err)


QUOTE_PAGE = f"<html><body><p>{QUOTE}.</p></body></html>"


@pytest.mark.parametrize(("listing", "why"), [
    ("20261030120000 http://other.example/gone\n", "the archive's capture is of another page than the one asked for"),
    ("99991231235959 {url}\n", "the archive's capture has a time outside 1996 to today (99991231235959)"),
    ("20261399000000 {url}\n", "the archive's capture has an impossible time (20261399000000)"),
    ("19000101000000 {url}\n", "the archive's capture has a time outside 1996 to today (19000101000000)"),
    ("20261030120000 http://reader:hunter2@127.0.0.1/gone\n", "the archive's capture has an address that is refused (the address holds credentials"),
    ("20261030120000 {url}\x1b[2J\n", "the archive's answer is not a CDX listing"),  # the escape ends the address: a line of three fields
])
def test_an_archive_answer_is_checked_before_it_is_believed(run_cli, tmp_path, listing, why):
    with PageServer() as pages, FakeArchive() as archive:
        gone = pages.add("/gone", Reply(404, "gone"))
        other = "http://other.example/gone"
        archive.listings[gone] = listing.format(url=gone)
        archive.add("/web/20261030120000id_/" + other, Reply(body=QUOTE_PAGE))
        for stamp in ("99991231235959", "20261399000000", "19000101000000"):
            archive.add(f"/web/{stamp}id_/{gone}", Reply(body=QUOTE_PAGE))
        folder = tmp_path / "sources" / "demo"
        folder.mkdir(parents=True)
        shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
        (folder / "gone.yaml").write_text(HEAD + BLOCK.format(name="gone", url=gone, quote=QUOTE), encoding="utf-8")
        result = run_cli("audit", "--sources", "sources", "--today", TODAY, "--retries", "0", "--interval", "0", "--timeout", "2",
                         *allow_loopback(), "--cache", "cache", "--archive-url", archive.base, "--report", "report.json", cwd=tmp_path)
        assert result.code == 1, result.err
        [citation] = json.loads((tmp_path / "report.json").read_text())["citations"]
        assert (citation["status"], citation["archive_url"]) == ("dead", None)
        assert citation["archive_detail"].startswith(why), citation["archive_detail"]
        assert not any("/web/" in r.path and "id_/" in r.path for r in archive.requests)  # no snapshot was read
        assert CitationLock.load(folder).entry(gone, QUOTE).archive_url is None
        validated = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=tmp_path)
        assert "archived copy of" not in validated.out and not RAW.search(result.out + result.err)

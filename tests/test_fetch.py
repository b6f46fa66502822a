"""The fetcher against a real HTTP server on 127.0.0.1: statuses, retries, caps, redirects, PDF, 304s."""

from __future__ import annotations

import socket
import threading

import pytest

from pipeline.citations.check import check_all, check_page
from pipeline.citations.fetch import Fetcher
from pipeline.citations.http import USER_AGENT, FetchSettings
from pipeline.citations.netpolicy import AllowList
from tests.kit.pageserver import PageServer, Reply

FAST = FetchSettings(connect_timeout=1, read_timeout=0.5, total_timeout=5, retries=2, backoff=0.01, max_bytes=50_000, per_host=4, interval=0,
                     allow=AllowList.parse(["127.0.0.1"]))  # the test server is on loopback, which is refused unless allowed
TYPOGRAPHY = ("<html><head><title>Zipf</title></head><body><p>Many sequences are short, and a few are <em>very</em> long,"
              " conforming to Zipf\u2019s&nbsp;Law.</p><p>Configuration with Hydra always has the following precedence"
              " <code>CLI &gt; YAML &gt; Dataclass</code>.</p></body></html>")
QUOTE = "Many sequences are short, and a few are very long, conforming to Zipf's Law."


@pytest.fixture
def server():
    with PageServer() as running:
        yield running


def check(url: str, quote: str = QUOTE, settings: FetchSettings = FAST, cache_dir=None):
    (result,) = check_page(Fetcher(settings, cache_dir), url, [quote])
    return result


def test_typography_markup_and_entities_are_found(server):
    result = check(server.add("/page", Reply(body=TYPOGRAPHY)))
    assert (result.status, result.match, result.http_status) == ("found", "normalized", 200)
    assert check(server.url("/page"), "CLI > YAML > Dataclass").match == "exact"


def test_user_agent_names_the_project(server):
    check(server.add("/page", Reply(body=TYPOGRAPHY)))
    assert server.requests[0].headers["User-Agent"] == USER_AGENT
    assert USER_AGENT.startswith("exam-prep-pipeline/")


@pytest.mark.parametrize(("code", "status", "detail"), [
    (404, "dead", "the page is gone (HTTP 404)"),
    (410, "dead", "the page is gone (HTTP 410)"),
    (403, "blocked", "the server refused the request (HTTP 403)"),
    (401, "blocked", "the server refused the request (HTTP 401)"),
])
def test_http_errors(server, code, status, detail):
    result = check(server.add("/p", Reply(code, "no")))
    assert (result.status, result.detail, result.http_status) == (status, detail, code)
    assert server.hits("/p") == 1  # not retried


def test_429_is_retried_honouring_retry_after(server, monkeypatch):
    """Each wait urllib3 takes for a Retry-After is recorded (and still taken): an event to count, not a duration to time."""
    from pipeline.citations.http import CappedRetry

    waits, original = [], CappedRetry.sleep_for_retry

    def recording(self, response):
        waited = original(self, response)
        waits.append(self.get_retry_after(response) if waited else None)
        return waited

    monkeypatch.setattr(CappedRetry, "sleep_for_retry", recording)
    url = server.add("/p", Reply(429, "slow down", headers={"Retry-After": "1"}), Reply(body=TYPOGRAPHY))
    assert check(url).status == "found"
    assert waits == [1.0]  # one wait, of the server's Retry-After
    assert server.statuses("/p") == [429, 200]


def test_429_after_retries_is_blocked(server):
    result = check(server.add("/p", Reply(429, "slow down", headers={"Retry-After": "0"})))
    assert (result.status, result.detail) == ("blocked", "the server still answered HTTP 429 (too many requests) after 2 retries")
    assert server.hits("/p") == 3


def test_500_then_200_is_found(server):
    assert check(server.add("/p", Reply(500, "oops"), Reply(body=TYPOGRAPHY))).status == "found"
    assert server.statuses("/p") == [500, 200]


def test_500_after_retries_is_unreachable_not_content(server):
    result = check(server.add("/p", Reply(503, "down")))
    assert (result.status, result.detail) == ("unreachable", "the server failed (HTTP 503) after 2 retries")


def test_answer_slower_than_the_timeout_is_unreachable(server):
    never = threading.Event()  # the answer is held until the client has given up: slower than any timeout
    try:
        result = check(server.add("/p", Reply(body=TYPOGRAPHY, hold=never)), settings=FetchSettings(**{**FAST.__dict__, "retries": 0}))
    finally:
        never.set()
    assert (result.status, result.detail) == ("unreachable", "the server did not answer within 0.5 s")
    assert server.hits("/p") == 1


def test_redirect_loop_is_unreachable(server):
    server.add("/a", Reply(302, headers={"Location": "/b"}))
    server.add("/b", Reply(302, headers={"Location": "/a"}))
    result = check(server.url("/a"))
    assert (result.status, result.detail) == ("unreachable", "more than 10 redirects (a redirect loop?)")


def test_redirect_is_followed_and_the_final_url_kept(server):
    server.add("/old", Reply(301, headers={"Location": "/new"}))
    server.add("/new", Reply(body=TYPOGRAPHY))
    result = check(server.url("/old"))
    assert (result.status, result.final_url) == ("found", server.url("/new"))


@pytest.mark.parametrize(("declared", "detail"), [
    (True, "the page is 60,000 bytes, over the 50,000-byte cap"),
    (False, "the page is over the 50,000-byte cap"),
])
def test_body_over_the_size_cap_is_reported_not_read(server, declared, detail):
    result = check(server.add("/big", Reply(body=b"<p>" + b"x" * 59_997, content_length=declared)))
    assert (result.status, result.detail) == ("unsupported", detail)


def test_pdf_text_is_checked(server):
    from weasyprint import HTML

    pdf = HTML(string="<p>Sequence packing is a training technique wherein multiple training sequences are concatenated.</p>").write_pdf()
    url = server.add("/doc.pdf", Reply(body=pdf, content_type="application/pdf"))
    assert check(url, "Sequence packing is a training technique").status == "found"
    assert check(url, "Sequence packing is a testing technique").status == "drifted"


def test_other_media_types_are_unsupported(server):
    result = check(server.add("/img", Reply(body=b"\x89PNG", content_type="image/png")))
    assert (result.status, result.detail) == ("unsupported", "the page is image/png, not HTML, plain text or PDF")


def test_plain_text_page(server):
    url = server.add("/t.txt", Reply(body="Many sequences are short,\nand a few are very long, conforming to Zipf's Law.", content_type="text/plain"))
    assert check(url).status == "found"


def test_closed_port_is_unreachable():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = check(f"http://127.0.0.1:{port}/")
    assert (result.status, result.detail) == ("unreachable", "the connection was refused")


@pytest.mark.parametrize("validator", ["etag", "last_modified"])
def test_unchanged_page_is_revalidated_with_a_304(server, tmp_path, validator):
    reply = Reply(body=TYPOGRAPHY, **{validator: '"v1"' if validator == "etag" else "Sun, 29 Nov 2026 10:00:00 GMT"})
    url = server.add("/p", reply)
    first = check(url, cache_dir=tmp_path / "cache")
    sent_first = server.sent_bytes
    second = check(url, cache_dir=tmp_path / "cache")
    assert (first.status, first.revalidated, second.status, second.revalidated) == ("found", False, "found", True)
    assert server.statuses("/p") == [200, 304]
    assert server.sent_bytes - sent_first < 200 < sent_first
    assert (second.fingerprint, second.http_status) == (first.fingerprint, 200)


def test_a_changed_page_is_fetched_again(server, tmp_path):
    url = server.add("/p", Reply(body=TYPOGRAPHY, etag='"v1"'), Reply(body="<p>Rewritten.</p>", etag='"v2"'))
    check(url, cache_dir=tmp_path / "cache")
    assert check(url, cache_dir=tmp_path / "cache").status == "missing"
    assert server.statuses("/p") == [200, 200]
    assert server.requests[1].headers["If-None-Match"] == '"v1"'


def test_each_page_is_fetched_once_however_many_quotes_cite_it(server):
    url = server.add("/p", Reply(body=TYPOGRAPHY))
    pairs = [(url, QUOTE), (url, "CLI > YAML > Dataclass"), (url, "not on the page at all, no")]
    results = check_all(pairs, Fetcher(FAST), workers=4)
    assert [results[p].status for p in pairs] == ["found", "found", "missing"]
    assert server.hits("/p") == 1


@pytest.mark.parametrize("per_host", [1, 2])
def test_requests_at_once_to_one_host_never_exceed_per_host(server, per_host):
    """Counted at the server: each answer is held until `per_host` requests are in flight (an event, not a
    time), so a client that keeps to its limit is seen reaching it, and one that did not would be seen past it."""
    for i in range(4):
        server.add(f"/p{i}", Reply(body=TYPOGRAPHY, peers=per_host, of=4))
    settings = FetchSettings(**{**FAST.__dict__, "per_host": per_host, "interval": 0, "read_timeout": 5})
    results = check_all([(server.url(f"/p{i}"), QUOTE) for i in range(4)], Fetcher(settings), workers=4, per_host=per_host)
    assert [r.status for r in results.values()] == ["found"] * 4
    assert len(server.requests) == 4
    assert server.most_active == per_host

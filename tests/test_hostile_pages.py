"""Hostile pages on a local server: refused addresses behind redirects, drips, endless bodies, bogus
charsets, binary bodies, deep nesting. Each ends in a status and a sentence, within its limits."""

from __future__ import annotations

import threading

import pytest

from pipeline.citations.check import check_page
from pipeline.citations.fetch import Fetcher
from pipeline.citations.http import FetchSettings
from pipeline.citations.netpolicy import AllowList
from tests.kit.pageserver import PageServer, Reply

PAGE = "<html><body><p>Sequence packing concatenates several training sequences into one.</p></body></html>"
QUOTE = "Sequence packing concatenates several training sequences into one."


def settings(*allow: str, **changes) -> FetchSettings:
    base = dict(connect_timeout=1, read_timeout=0.5, total_timeout=2, retries=0, backoff=0, max_bytes=200_000, per_host=4, interval=0)
    return FetchSettings(**{**base, **changes, "allow": AllowList.parse(list(allow))})


def check(url: str, fetch_settings: FetchSettings, quote: str = QUOTE):
    fetcher = Fetcher(fetch_settings)
    try:
        (result,) = check_page(fetcher, url, [quote])
    finally:
        fetcher.close()
    return result


@pytest.fixture
def server():
    with PageServer() as running:
        running.add("/page", Reply(body=PAGE))
        yield running


@pytest.fixture
def secret():
    """A second service on the loopback interface (another port, then another address): never to be read."""
    with PageServer("127.0.0.1") as same_host, PageServer("127.0.0.2") as other_host:
        same_host.add("/secret", Reply(body="<p>secret</p>"))
        other_host.add("/secret", Reply(body="<p>secret</p>"))
        yield same_host, other_host


def test_loopback_is_blocked_unless_allowed(server):
    result = check(server.url("/page"), settings())
    assert result.status == "blocked"
    assert result.detail == f"127.0.0.1 is a loopback address (from 127.0.0.1:{server.httpd.server_address[1]}); pass --allow-host 127.0.0.1:{server.httpd.server_address[1]} to fetch it"
    assert server.hits("/page") == 0
    assert check(server.url("/page"), settings(f"127.0.0.1:{server.httpd.server_address[1]}")).status == "found"


@pytest.mark.parametrize("which", ["other port", "other address"])
def test_redirect_into_a_refused_loopback_address_is_not_followed(server, secret, which):
    target = secret[0] if which == "other port" else secret[1]
    server.add("/r", Reply(302, headers={"Location": target.url("/secret")}))
    result = check(server.url("/r"), settings(f"127.0.0.1:{server.httpd.server_address[1]}"))
    assert (result.status, result.detail.split(" (from")[0]) == ("blocked", f"{target.host} is a loopback address")
    assert (secret[0].hits("/secret"), secret[1].hits("/secret")) == (0, 0)


@pytest.mark.parametrize(("location", "reason"), [
    ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
    ("http://10.0.0.1/admin", "10.0.0.1 is a private address"),
    ("http://[::ffff:127.0.0.2]/", "127.0.0.2 is a loopback address"),
    ("http://0.0.0.0:22/", "0.0.0.0 is a unspecified address"),
    ("http://224.0.0.1/", "224.0.0.1 is a multicast address"),
    ("file:///etc/passwd", "only http and https addresses are fetched, not 'file'"),
    ("gopher://127.0.0.1:25/", "only http and https addresses are fetched, not 'gopher'"),
    ("http://user:hunter2@example.com/", "the address holds credentials (user:password@); they are never sent"),
    ("http://example.com:99999/", "the address has an invalid port (expected 1-65535)"),
])
def test_redirect_to_a_disallowed_address_is_blocked(server, location, reason):
    server.add("/r", Reply(302, headers={"Location": location}))
    result = check(server.url("/r"), settings("127.0.0.1"))
    assert result.status == "blocked" and result.detail.split(" (from")[0].endswith(reason), result.detail
    assert "hunter2" not in result.detail


def test_a_name_is_judged_by_the_address_it_resolves_to(server):
    port = server.httpd.server_address[1]
    result = check(f"http://localhost:{port}/page", settings("127.0.0.2"))  # localhost is 127.0.0.1 (or ::1): not allowed
    assert result.status == "blocked" and "loopback" in result.detail
    assert server.hits("/page") == 0


def test_an_allowed_port_allows_that_port_only(server, secret):
    port = server.httpd.server_address[1]
    server.add("/r", Reply(302, headers={"Location": secret[0].url("/secret")}))
    assert check(server.url("/r"), settings(f"127.0.0.1:{port}")).status == "blocked"
    assert check(server.url("/r"), settings("127.0.0.1"), quote="secret").status == "found"  # the whole host allowed


def test_meta_refresh_is_followed_under_the_same_rules(server, secret):
    server.add("/moved", Reply(body='<html><head><meta http-equiv="refresh" content="0; url=/page"></head></html>'))
    assert check(server.url("/moved"), settings("127.0.0.1")).final_url == server.url("/page")
    assert check(server.url("/moved"), settings("127.0.0.1")).status == "found"
    server.add("/trap", Reply(body=f'<meta http-equiv="refresh" content="0;url={secret[1].url("/secret")}">'))
    assert check(server.url("/trap"), settings("127.0.0.1")).status == "blocked"
    assert secret[1].hits("/secret") == 0


def test_a_drip_is_cut_at_the_total_deadline(server):
    body = PAGE.encode() * 4  # about 400 bytes at 50 ms each would take 20 s; the deadline is 1 s
    server.add("/drip", Reply(body=body, drip=0.05))
    result = check(server.url("/drip"), settings("127.0.0.1", total_timeout=1))
    assert (result.status, result.detail) == ("unreachable", "the page took over 1 s to download")
    assert server.sent_bytes < len(body)


def test_a_drip_without_a_length_is_cut_too(server):
    server.add("/drip", Reply(body=PAGE.encode() * 4, drip=0.05, content_length=False))
    assert check(server.url("/drip"), settings("127.0.0.1", total_timeout=1)).status == "unreachable"


@pytest.mark.parametrize("content_type", ["text/html", None])
def test_endless_zeros_stop_at_the_size_cap(server, content_type):
    server.add("/zeros", Reply(body=b"", endless=b"\0" * 65536, content_type=content_type, content_length=False))
    result = check(server.url("/zeros"), settings("127.0.0.1"))
    assert (result.status, result.detail) == ("unsupported", "the page is over the 200,000-byte cap")


def test_a_body_of_another_type_is_not_read(server):
    server.add("/video", Reply(body=b"", endless=b"\1" * 65536, content_type="video/mp4", content_length=False))
    result = check(server.url("/video"), settings("127.0.0.1", max_bytes=100_000_000))
    assert (result.status, result.detail) == ("unsupported", "the page is video/mp4, not HTML, plain text or PDF")
    assert server.sent_bytes < 10_000_000  # what the socket buffers took before the client hung up


@pytest.mark.parametrize("charset", ["x-bogus", "zlib", "rot13", "utf-8\0", "", "latin-1'; DROP", "utf-7"])
def test_a_bogus_charset_falls_back(server, charset):
    server.add("/cs", Reply(body=PAGE, content_type=f"text/html; charset={charset}"))
    assert check(server.url("/cs"), settings("127.0.0.1")).status == "found"


def test_the_charset_is_sniffed_from_a_meta_tag(server):
    server.add("/latin", Reply(body='<meta charset="iso-8859-1"><p>Caf\xe9 cr\xe8me</p>'.encode("latin-1"), content_type="text/html"))
    assert check(server.url("/latin"), settings("127.0.0.1"), quote="Café crème").status == "found"


@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8", "text/plain", None])
def test_a_binary_body_is_unsupported(server, content_type):
    server.add("/bin", Reply(body=bytes(range(256)) * 400, content_type=content_type))
    result = check(server.url("/bin"), settings("127.0.0.1"))
    assert result.status == "unsupported"


def test_a_broken_pdf_is_unsupported(server):
    server.add("/doc.pdf", Reply(body=b"%PDF-1.7\n" + b"\0garbage" * 100, content_type="application/pdf"))
    result = check(server.url("/doc.pdf"), settings("127.0.0.1"))
    assert result.status == "unsupported" and result.detail.startswith("the PDF cannot be read")


def test_deep_nesting_is_read(server):
    depth = 20_000
    server.add("/deep", Reply(body="<div>" * depth + f"<p>{QUOTE}</p>" + "</div>" * depth))
    assert check(server.url("/deep"), settings("127.0.0.1", max_bytes=1_000_000)).status == "found"


def test_control_characters_of_a_page_never_reach_the_text(server):
    server.add("/ctl", Reply(body="<p>Sequence\x1fpacking\x07 concatenates several training sequences into one.</p>"))
    result = check(server.url("/ctl"), settings("127.0.0.1"))
    assert result.status == "found" and "\x1f" not in (result.closest or "") and "\x07" not in (result.closest or "")


@pytest.mark.parametrize("url", ["http://a..b/", "http://" + "x" * 300 + ".example/", "http://[::1/", "http://exa mple.com/"])
def test_an_odd_address_is_a_status_not_a_crash(url):
    assert check(url, settings()).status in ("unreachable", "blocked")


def test_check_quote_never_prints_credentials_back(run_cli, tmp_path):
    result = run_cli("check-quote", "https://reader:hunter2@example.com/x", "a quote", "--cache", str(tmp_path))
    assert result.code == 2 and "hunter2" not in result.err + result.out
    assert result.err.strip() == "error: URL 'https://***@example.com/x' must not hold credentials (user:password@); cite a page readers can open"


def test_one_watchdog_cuts_each_drip_at_its_own_deadline(server):
    """Deadlines share one watchdog thread: a shorter deadline that comes while a longer one is the
    earliest wakes it (the short drip is cut while the long download still runs), and a download that
    ends before its deadline is never cut."""
    server.add("/slow", Reply(body=PAGE.encode(), drip=0.02))  # about 2 s, within its 30 s deadline
    server.add("/drip", Reply(body=PAGE.encode() * 4, drip=0.05))  # about 20 s, over its 1 s deadline
    results = {}
    slow = threading.Thread(target=lambda: results.setdefault("slow", check(server.url("/slow"), settings("127.0.0.1", total_timeout=30))))
    slow.start()
    while not server.hits("/slow") and slow.is_alive():  # the 30 s deadline is the watchdog's earliest when the 1 s one comes
        threading.Event().wait(0.01)
    short = check(server.url("/drip"), settings("127.0.0.1", total_timeout=1))
    still_running = slow.is_alive()
    slow.join()
    assert (short.status, short.detail) == ("unreachable", "the page took over 1 s to download")
    assert still_running  # cut at its own deadline, not when the watchdog woke for the 30 s one
    assert results["slow"].status == "found"

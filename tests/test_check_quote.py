"""`check-quote URL QUOTE [--json]` against pages served on 127.0.0.1 (the issue's "Done when")."""

from __future__ import annotations

import json
import socket

import pytest

from tests.pageserver import PageServer, Reply

PAGE = """<html><head><script>var hint = "quotes hidden in a script are not on the page";</script></head><body>
<p>Since the <abbr title="variational autoencoder">VAE</abbr> and text encoder remain&nbsp;frozen during training,
you can <em>pre-calculate</em> the image and caption latents offline, enhancing training throughput.</p>
<!-- a comment saying the quote is here is not the page -->
<p>Data Parallelism (DP) replicates the model across multiple GPUs.</p>
<p>It increases the per\u2011transformer layer computation cost by 30%.</p></body></html>"""


@pytest.fixture
def page_url():
    with PageServer() as server:
        yield server.add("/sd.html", Reply(body=PAGE))


def check_quote(run_cli, tmp_path, url, quote, *extra):
    return run_cli("check-quote", url, quote, "--json", "--retries", "0", "--timeout", "2", "--cache", str(tmp_path / "cache"), "--allow-host", "127.0.0.1", *extra)


def test_typography_markup_and_whitespace_differences_are_found(run_cli, tmp_path, page_url):
    quote = "Since the VAE and text encoder remain frozen during training, you can pre-calculate the image and caption latents offline"
    result = check_quote(run_cli, tmp_path, page_url, quote)
    assert result.code == 0
    assert json.loads(result.out) == {
        "url": page_url, "status": "found", "match": "exact", "score": 1.0, "closest": quote, "detail": "found", "reason": None,
    }
    assert check_quote(run_cli, tmp_path, page_url, "it increases the per-transformer layer computation cost by 30%").code == 0


@pytest.mark.parametrize(("quote", "closest"), [
    ("Data Parallelism (DP) replicates the model across many GPUs.", "Data Parallelism (DP) replicates the model across multiple GPUs"),
    # the passage is the visible text after NFKC, which makes the page's non-breaking hyphen a plain one (U+2010)
    ("It increases the per-transformer layer computation cost by 40%", "It increases the per\u2010transformer layer computation cost by 30%"),
])
def test_one_changed_word_or_number_is_missing(run_cli, tmp_path, page_url, quote, closest):
    result = check_quote(run_cli, tmp_path, page_url, quote)
    answer = json.loads(result.out)
    assert (result.code, answer["status"], answer["match"], answer["closest"], answer["detail"]) == (1, "missing", "fuzzy", closest, "drifted")
    assert 0.75 <= answer["score"] < 1


@pytest.mark.parametrize("quote", [
    "quotes hidden in a script are not on the page",
    "a comment saying the quote is here is not the page",
    "variational autoencoder",
])
def test_text_only_in_a_script_comment_or_attribute_is_missing(run_cli, tmp_path, page_url, quote):
    result = check_quote(run_cli, tmp_path, page_url, quote)
    assert (result.code, json.loads(result.out)["status"], json.loads(result.out)["match"]) == (1, "missing", None)


def test_closed_port_is_unreachable(run_cli, tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/page"
    result = check_quote(run_cli, tmp_path, url, "anything")
    assert result.code == 2
    assert json.loads(result.out) == {
        "url": url, "status": "unreachable", "match": None, "score": 0.0, "closest": None,
        "detail": "unreachable", "reason": "the connection was refused",
    }


def test_text_output(run_cli, tmp_path, page_url):
    result = run_cli("check-quote", page_url, "Data Parallelism (DP) replicates the model across many GPUs.", "--retries", "0", "--cache", str(tmp_path), "--allow-host", "127.0.0.1")
    assert result.lines == [
        f"missing: the quote is not on {page_url}",
        "    closest passage (92% alike): Data Parallelism (DP) replicates the model across multiple GPUs",
        "    diff: Data Parallelism (DP) replicates the model across [-many-] {+multiple+} GPUs",
    ]


def test_a_url_that_is_not_http_is_a_sentence(run_cli, tmp_path):
    result = run_cli("check-quote", "file:///etc/passwd", "root", "--cache", str(tmp_path))
    assert (result.code, result.err.strip()) == (2, "error: URL 'file:///etc/passwd' must be an absolute http:// or https:// address")

"""`check-quote URL QUOTE [--json]` against pages served on 127.0.0.1 (the issue's "Done when")."""

from __future__ import annotations

import json
import socket

import pytest

from tests.kit.pageserver import PageServer, Reply

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


# Pages in scripts written without spaces between words: each character is a token, so the closest passage
# is found by the characters a quote shares with the page (whitespace tokens gave one token a sentence).
UNSPACED = {
    "/ja.html": "<html><body><h1>勾配累積</h1><p>GPUのメモリが足りないときは、勾配累積を使います。小さなGPUでも大きなバッチサイズを模倣できます。"
                "ただし、学習の速度は少し遅くなります。</p><p>混合精度を使うと、メモリの使用量が減ります。</p></body></html>",
    "/zh.html": "<html><body><h1>梯度累积</h1><p>在显存不足时，可以使用梯度累积。这样即使在较小的显卡上也能模拟更大的批量大小。"
                "代价是训练速度会变慢。</p><p>混合精度可以减少显存占用。</p></body></html>",
}


@pytest.fixture
def unspaced_urls():
    with PageServer() as server:
        yield {path: server.add(path, Reply(body=body)) for path, body in UNSPACED.items()}


@pytest.mark.parametrize(("path", "quote", "closest"), [
    ("/ja.html", "小さなGPUでも大きなバッチを模倣できます", "小さなGPUでも大きなバッチサイズを模倣できます"),
    ("/zh.html", "这样即使在小的显卡上也能模拟更大的批量", "这样即使在较小的显卡上也能模拟更大的批量"),
])
def test_a_drifted_quote_in_a_script_without_spaces_is_drifted_with_its_passage(run_cli, tmp_path, unspaced_urls, path, quote, closest):
    result = check_quote(run_cli, tmp_path, unspaced_urls[path], quote)
    answer = json.loads(result.out)
    assert (result.code, answer["status"], answer["match"], answer["detail"], answer["closest"]) == (1, "missing", "fuzzy", "drifted", closest)
    assert 0.75 <= answer["score"] < 1


@pytest.mark.parametrize(("path", "quote"), [
    ("/ja.html", "大きなバッチサイズを模倣できます"),  # from the middle of a sentence: no space marks where it starts
    ("/zh.html", "即使在较小的显卡上也能模拟更大的批量大小"),
])
def test_a_quote_from_inside_an_unspaced_sentence_is_found(run_cli, tmp_path, unspaced_urls, path, quote):
    result = check_quote(run_cli, tmp_path, unspaced_urls[path], quote)
    assert (result.code, json.loads(result.out)["status"], json.loads(result.out)["closest"]) == (0, "found", quote)

"""Hosts for the citations benchmark, in a process of their own so serving does not compete with the
audit for the interpreter: `python -m bench.citation_hosts HOSTS PAGES_PER_HOST DELAY`.

Starts one page server per host on 127.0.0.2, 127.0.0.3, ... (the loopback range, no network), each
page with an ETag and a fixed delay per response; prints the page URLs as one JSON line, then answers
`bytes` on stdin with the bytes sent so far and stops at `quit` or end of input.
"""

from __future__ import annotations

import json
import sys

from bench.citation_pages import page_html
from tests.kit.pageserver import PageServer, Reply


def main(hosts: int, pages: int, delay: float) -> None:
    servers = [PageServer(f"127.0.0.{2 + h}", delay=delay).__enter__() for h in range(hosts)]
    urls = [server.add(f"/page-{p}.html", Reply(body=page_html(h * pages + p), etag=f'"{h}-{p}"')) for h, server in enumerate(servers) for p in range(pages)]
    print(json.dumps(urls), flush=True)
    for line in sys.stdin:
        if line.strip() == "bytes":
            print(sum(server.sent_bytes for server in servers), flush=True)
        elif line.strip() == "quit":
            break
    for server in servers:
        server.__exit__()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]))

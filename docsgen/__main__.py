"""`python -m docsgen [--check]`: write the reference pages, or with --check list the stale ones (exit 1)."""

from __future__ import annotations

import sys

from docsgen.reference import REFERENCE, stale_pages, write_pages


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        stale = stale_pages()
        for name in stale:
            print(f"docs/reference/{name}: stale: run `make docs-ref` and commit the page", file=sys.stderr)
        return 1 if stale else 0
    if argv:
        print("usage: python -m docsgen [--check]", file=sys.stderr)
        return 2
    for path in write_pages():
        print(f"wrote {path.relative_to(REFERENCE.parent.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

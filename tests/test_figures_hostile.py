"""Hostile images: each is an error at the line where the image is written, naming the file and the check
code, `build` exits 1 and writes nothing. The decompression bomb (a 30,000 x 30,000 PNG of about 100 KB)
is refused from its header: the test measures the peak memory of the `validate` process that reads it."""

from __future__ import annotations

import hashlib
import os
import re
import resource
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT, TODAY, write_found_lock
from tests.kit.figures import build, png

OBJECTIVE = """id: "1.4"
title: Hostile images
summary: Each image here is refused.
reviewed: 2026-11-01
key_points:
  - id: 1.4-kp
    text: |
      An image follows.

      {image}
    citations:
      - url: https://example.com/page
        title: Page
        quote: A quote.
"""
IMAGE_LINE = 10  # the line {image} is on
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{}</svg>'


def bomb(path: Path, side: int = 30_000) -> None:
    """A 1-bit greyscale PNG of side x side pixels, all zero: ~110 MB of rows that deflate to ~110 KB."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\0" * (1 + side // 8)
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0))
                     + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def make(tmp_path: Path, image: str, files: dict[str, bytes | str] | None = None) -> Path:
    folder = tmp_path / "sources" / "demo"
    (folder / "figures").mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    shutil.copy(FIXTURES / "objectives" / "valid.yaml", folder / "valid.yaml")
    (folder / "hostile.yaml").write_text(OBJECTIVE.format(image=image), encoding="utf-8")
    for name, content in (files or {}).items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode() if isinstance(content, str) else content)
    write_found_lock(folder)
    return tmp_path / "sources"


CASES = {
    "script": ("![a chart](figures/x.svg)", {"figures/x.svg": SVG.format("<script>alert(1)</script>")}, "image-svg", "<script>"),
    "onload": ("![a chart](figures/x.svg)", {"figures/x.svg": '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'}, "image-svg", "onload="),
    "foreign": ("![a chart](figures/x.svg)", {"figures/x.svg": SVG.format("<foreignObject><p>x</p></foreignObject>")}, "image-svg", "<foreignObject>"),
    "external href": ("![a chart](figures/x.svg)", {"figures/x.svg": SVG.format(
        '<use xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="https://example.com/a.svg#p"/>')}, "image-svg", "https://example.com/a.svg"),
    "entity": ("![a chart](figures/x.svg)", {"figures/x.svg": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaa">'
                                             '<!ENTITY b "&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>'},
               "image-svg", "DTD or an entity"),
    "png that is html": ("![a chart](figures/x.png)", {"figures/x.png": "<html><script>alert(1)</script></html>"}, "image-format", "HTML"),
    "dot dot": ("![a chart](../../outside.png)", {}, "image-path", "leads out of the exam's folder"),
    "etc passwd": ("![a chart](/etc/passwd)", {}, "image-path", "not a path in the exam's folder"),
    "missing": ("![a chart](figures/none.png)", {}, "image-missing", "not found"),
    "no alt": ("![](figures/x.png)", {"figures/x.png": b""}, "image-alt", "no alt text"),
    "remote": ("![a chart](https://example.com/x.png)", {}, "image-remote", "download the file"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_image_is_an_error_at_its_line_and_nothing_is_written(tmp_path, case):
    image, files, code, words = CASES[case]
    if case == "no alt":
        png(tmp_path / "x.png")
        files = {"figures/x.png": (tmp_path / "x.png").read_bytes()}
    sources = make(tmp_path, image, files)
    status, err = build(sources, tmp_path / "out")
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert status == 1 and len(errors) == 1, err
    assert re.search(rf"hostile\.yaml:{IMAGE_LINE}:\d+: error: key_points\[0\]\.text: (remote )?image .*\[{code}\]$", errors[0]), errors[0]
    assert words in errors[0], errors[0]
    assert f"'{re.search(r'[(]([^)]*)[)]', image)[1]}'" in errors[0]  # the file, as the source names it
    assert not (tmp_path / "out").exists()  # nothing written, anywhere


def test_a_link_out_of_the_exam_is_refused(tmp_path):
    outside = tmp_path / "secret.png"
    png(outside)
    sources = make(tmp_path, "![a chart](figures/linked.png)")
    os.symlink(outside, sources / "demo" / "figures" / "linked.png")
    status, err = build(sources, tmp_path / "out")
    assert status == 1 and f"hostile.yaml:{IMAGE_LINE}:" in err and "through a symbolic link" in err and "[image-path]" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.slow  # the peak memory of a real process
def test_a_png_bomb_is_refused_from_its_header_well_under_500_mb(tmp_path):
    sources = make(tmp_path, "![a chart](figures/bomb.png)")
    bomb(sources / "demo" / "figures" / "bomb.png")
    assert (sources / "demo" / "figures" / "bomb.png").stat().st_size < 200_000
    # The child's peak resident memory (ru_maxrss, KiB on Linux) is what the kernel counted: a memory figure, not a time.
    script = ("import resource, subprocess, sys\n"
              "p = subprocess.run([sys.executable, '-m', 'pipeline', 'validate', '--sources', sys.argv[1], '--today', sys.argv[2]],"
              " capture_output=True, text=True)\n"
              "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
              "sys.stderr.write(p.stdout + p.stderr)\n")
    run = subprocess.run([sys.executable, "-c", script, str(sources), TODAY], capture_output=True, text=True, cwd=ROOT, timeout=300)
    code, peak_kib = map(int, run.stdout.split())
    assert code == 1 and "30000 x 30000 pixels" in run.stderr and "[image-pixels]" in run.stderr, run.stderr
    assert f"hostile.yaml:{IMAGE_LINE}:" in run.stderr
    assert peak_kib * 1024 < 500_000_000, peak_kib
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0  # the counter this platform fills


def test_no_output_holds_a_script_that_came_from_an_image(tmp_path):
    clean = SVG.format('<rect width="10" height="10" fill="url(#g)"/><text x="1" y="8">ok</text>')
    sources = make(tmp_path, "![a chart](figures/x.svg)", {"figures/x.svg": clean})
    status, err = build(sources, tmp_path / "out")
    assert status == 0, err
    out = tmp_path / "out" / "demo"
    copies = sorted(p.relative_to(out).as_posix() for p in out.rglob("x*.svg"))
    sha12 = hashlib.sha256(clean.encode("utf-8")).hexdigest()[:12]
    assert copies == ["media/figures/x.svg", f"site/media/figures/x-{sha12}.svg"]  # the bank's, the site's (named by content)
    for path in (tmp_path / "out" / "demo").rglob("*"):
        if path.is_file() and path.suffix in (".svg", ".html", ".xml"):
            text = path.read_text(encoding="utf-8", errors="replace")
            assert "<script>" not in text and "alert(" not in text, path

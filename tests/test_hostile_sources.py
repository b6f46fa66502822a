"""Hostile sources: alias bombs, deep nesting, files that are not files, control characters, unknown tags,
over-long values and numbers, links to anything but http(s) and mailto.

Every case is a file in one exam folder generated in tmp_path; `validate` and `build` run once over all of
them in a subprocess limited to 1 GiB of address space and a timeout, so a hang or a memory blow-up
fails the test instead of the machine. Each case must give its own error at its own line and column,
exit 1, and leave the earlier outputs and the lock as they were."""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT, TODAY, write_found_lock

GIB = 1 << 30
HEAD = 'id: "1.{n}"\ntitle: Hostile\nsummary: A hostile file.\nreviewed: 2026-11-01\n'
POINT = "key_points:\n  - id: p{n}\n    text: A point.\n"

BILLION_LAUGHS = HEAD + "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(8))
CASES: dict[str, tuple[str | bytes, str]] = {
    # name: (file content, the expected error after "path:")
    "alias_bomb": (BILLION_LAUGHS.replace('"1.{n}"', '"1.2"'), "10:20: error: invalid YAML: aliases expand to more than 500,000 values (an alias bomb?); write the values out"),
    "deep_flow": (HEAD.format(n=3) + "nested: " + "[" * 100_000 + "]" * 100_000 + "\n", "5:48: error: invalid YAML: nested more than 40 levels deep; the schema needs far fewer"),
    "deep_block": (HEAD.format(n=4) + "".join("  " * i + f"k{i}:\n" for i in range(60)) + "  " * 60 + "end: 1\n", "44:79: error: invalid YAML: nested more than 40 levels deep; the schema needs far fewer"),
    "nul_byte": (HEAD.format(n=5) + POINT.format(n=5).replace("A point.", "A po\0int."), "7:15: error: control character U+0000 in the file; remove it (it would corrupt the outputs)"),
    "unit_separator": (HEAD.format(n=6) + POINT.format(n=6).replace("A point.", '"A \\x1f point."'), "7:14: error: control character U+001F in the text; remove it (it would corrupt the outputs)"),
    "python_tag": (HEAD.format(n=7) + "terms: !!python/object/apply:os.system [echo owned]\n" + POINT.format(n=7), "5:8: error: unknown tag 'tag:yaml.org,2002:python/object/apply:os.system'; sources are plain YAML data (remove the tag)"),
    "custom_tag": (HEAD.format(n=8) + POINT.format(n=8).replace("A point.", "!secret A point."), "7:11: error: unknown tag '!secret'; sources are plain YAML data (remove the tag)"),
    "binary_tag": (HEAD.format(n=9) + POINT.format(n=9).replace("A point.", "!!binary aGVsbG8="), "7:11: error: unknown tag 'tag:yaml.org,2002:binary'; sources are plain YAML data (remove the tag)"),
    "long_number": (HEAD.format(n=10) + "terms: " + "9" * 5000 + "\n" + POINT.format(n=10), "5:8: error: the number 99999999999999999999... is too long; write a number in range or quote it"),
    "long_quote": (HEAD.format(n=11) + POINT.format(n=11) + "    citations:\n      - {url: 'https://example.com/', title: T, quote: '" + "word " * 200 + "'}\n",
                   "9:56: error: key_points[0].citations[0].quote: 1,000 characters, over the limit of 600; shorten it"),
    "long_stem": (HEAD.format(n=12) + POINT.format(n=12) + "questions:\n  - {id: q12, type: true_false, stem: '" + "Why? " * 1000 + "', answer: true, explanation: E.}\n",
                  "9:39: error: questions[0].stem: 5,000 characters, over the limit of 3,000; shorten it"),
    "credentials": (HEAD.format(n=13) + POINT.format(n=13) + "    citations:\n      - {url: 'https://reader:hunter2@example.com/x', title: T, quote: Q}\n",
                    "9:15: error: key_points[0].citations[0].url: must not hold credentials (user:password@); cite a page readers can open, got 'https://***@example.com/x'"),
    "bad_port": (HEAD.format(n=14) + POINT.format(n=14) + "    citations:\n      - {url: 'http://example.com:70000/', title: T, quote: Q}\n",
                 "9:15: error: key_points[0].citations[0].url: must name a host and, if any, a port from 1 to 65535, got 'http://example.com:70000/'"),
    "huge_cloze": (HEAD.format(n=15) + POINT.format(n=15).replace("A point.", "'{{c99999999999999999999::x}} and {{c101::y}}'"),
                   "7:11: error: key_points[0].text: unbalanced or malformed cloze mark; expected {{c1::phrase}} or {{c1::phrase::hint}}"),
    # a line break YAML reads and git does not: the key point after it would pass unseen in a review
    "nel_in_comment": (HEAD.format(n=17) + "# a comment\x85key_points: [{id: hidden, text: Injected.}]\n" + POINT.format(n=17),
                       "5:12: error: NEL (U+0085) in the file: YAML ends a line there but git and most editors do not, so what follows would be hidden; use a plain line break (LF or CR LF)"),
    "line_separator": (HEAD.format(n=18) + POINT.format(n=18).replace("A point.", "A point.\u2028More."),
                       "7:19: error: LS (U+2028) in the file: YAML ends a line there but git and most editors do not, so what follows would be hidden; use a plain line break (LF or CR LF)"),
    "lone_cr": (HEAD.format(n=19) + "# old Mac line end\rterms: []\n" + POINT.format(n=19),
                "5:19: error: CR (a carriage return without a line feed) in the file: YAML ends a line there but git and most editors do not, so what follows would be hidden; use a plain line break (LF or CR LF)"),
    "noncharacter": (HEAD.replace("title: Hostile", 'title: "Hostile \\uFFFF"').format(n=21) + POINT.format(n=21),
                     "2:17: error: character U+FFFF in the text: XML cannot hold it, so the Moodle, QTI and Canvas exports would not load; remove it"),
    "surrogate": (HEAD.format(n=22) + POINT.format(n=22).replace("A point.", '"A \\ud800 point."'),
                  "7:14: error: character U+D800 in the text: XML cannot hold it, so the Moodle, QTI and Canvas exports would not load; remove it"),
    "huge_cloze_in_range": (HEAD.format(n=16) + POINT.format(n=16).replace("A point.", "'{{c101::y}}'"),
                            "7:11: error: key_points[0].text: cloze numbers go from 1 to 100, got c101"),
}
LINKS = {  # target -> column of the target in "    text: See [here](TARGET)."
    "/etc/passwd": "file path", "../notes.md": "relative", "//evil.example/x": "protocol-relative", "file:///etc/passwd": "file",
    "smb://server/share": "smb", "ms-msdt:/id%20PCWDiagnostic": "ms-msdt", "javascript:alert(1)": "javascript",
}


SECRET = 'id: "1.30"\ntitle: RUNNER-SECRET-TOKEN\nsummary: [unclosed\n'  # broken YAML: an error would quote it


def _not_files(folder: Path) -> dict[str, str]:
    """A FIFO, a link to /dev/zero, a symlink loop, a socket, and links to a file and a folder outside the
    sources (which an error message would quote), each named like a source file."""
    os.mkfifo(folder / "fifo.yaml")
    (folder / "zero.yaml").symlink_to("/dev/zero")
    (folder / "loop.yaml").symlink_to("loop.yaml")
    outside = folder.parent.parent / "outside"
    (outside / "exam").mkdir(parents=True)
    (outside / "secret.yaml").write_text(SECRET, encoding="utf-8")
    (outside / "exam" / "exam.yaml").write_text(SECRET, encoding="utf-8")
    (folder / "secret.yaml").symlink_to(outside / "secret.yaml")
    (folder / "inside.yaml").symlink_to("valid.yaml")  # a link that stays inside the sources is read
    (folder.parent / "linked-exam").symlink_to(outside / "exam", target_is_directory=True)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(folder / "sock.yaml"))
    return {
        "fifo.yaml": "1:1: error: is a FIFO (named pipe), not a regular file; only files are read as sources",
        "zero.yaml": f"1:1: error: {LEAVES}",
        "loop.yaml": "1:1: error: a symbolic link loop; point the link at a file",
        "sock.yaml": "1:1: error: is a socket, not a regular file; only files are read as sources",
        "secret.yaml": f"1:1: error: {LEAVES}",
        "../linked-exam": f"1:1: error: {LEAVES}",
    }


LEAVES = "is a symbolic link (or inside one) leading out of the sources folder; sources are read only from inside it, so copy the file in instead of linking to it"


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))


def run_limited(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SOURCE_DATE_EPOCH": "1798156800"}
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60, preexec_fn=limited)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """An exam with a first good build in out/, then every hostile file added; the expected lines."""
    root = tmp_path_factory.mktemp("hostile")
    folder = root / "sources" / "demo"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "exams" / "valid.yaml", folder / "exam.yaml")
    shutil.copy(FIXTURES / "objectives" / "valid.yaml", folder / "valid.yaml")
    write_found_lock(folder)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SOURCE_DATE_EPOCH": "1798156800"}
    first = subprocess.run([sys.executable, "-c", "import sys, pipeline.build as b; b.RENDERERS = {'bank': 'pipeline.render.bank'};"
                            "from pipeline.cli import main; sys.exit(main(sys.argv[1:]))", "build", "--sources", "sources", "--out", "out",
                            "--today", TODAY], cwd=root, env=env, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    expected = {}
    for name, (content, error) in CASES.items():
        if error is None:
            continue
        path = folder / f"{name}.yaml"
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        expected[f"sources/demo/{name}.yaml"] = error + (" [cloze]" if name.startswith("huge_cloze") else " [schema]" if ": key_points[" in error or ": questions[" in error else " [yaml]")
    links = HEAD.format(n=20) + "key_points:\n" + "".join(f"  - id: l{i}\n    text: See [here]({target}).\n" for i, target in enumerate(LINKS))
    (folder / "links.yaml").write_text(links, encoding="utf-8")
    (folder / "big.yaml").write_bytes(b"# " + b"x" * 5_000_001 + b"\n")
    expected["sources/demo/big.yaml"] = "1:1: error: is 5,000,004 bytes, over the 5,000,000-byte limit for a source file; split it [yaml]"
    expected.update({os.path.normpath(f"sources/demo/{name}"): error + " [yaml]" for name, error in _not_files(folder).items()})
    return root, expected


def outputs(root: Path) -> dict[str, str]:
    tree = {str(p.relative_to(root / "out")): hashlib.sha256(p.read_bytes()).hexdigest() for p in (root / "out" / "demo").rglob("*") if p.is_file()}
    return {**tree, "lock": hashlib.sha256((root / "sources" / "demo" / "citations.lock.json").read_bytes()).hexdigest()}


def test_every_hostile_file_is_an_error_at_its_place(hostile):
    root, expected = hostile
    result = run_limited(root, "validate", "--sources", "sources", "--today", TODAY)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    for path, error in expected.items():
        assert f"{path}:{error}" in lines, (path, [line for line in lines if line.startswith(path)])
    # read like the file it links to: valid.yaml's ids are then taken (inside.yaml sorts first)
    inside = [line for line in lines if line.startswith("sources/demo/valid.yaml:") and "is already used at sources/demo/inside.yaml:" in line]
    assert any(": error: id: objective id is already used at sources/demo/inside.yaml:1 " in line for line in inside)
    assert len([line for line in lines if " error: " in line and line not in inside]) == len(expected) + 1 + len(LINKS)  # + the other huge_cloze mark
    assert "Traceback" not in result.stderr + result.stdout
    assert "RUNNER-SECRET" not in result.stderr + result.stdout  # nothing is read through a link out of the sources


def test_links_other_than_http_and_mailto_are_errors_at_their_column(hostile):
    root, _ = hostile
    result = run_limited(root, "validate", "--sources", "sources", "--today", TODAY)
    found = [line for line in result.stdout.splitlines() if line.startswith("sources/demo/links.yaml") and " error: " in line]
    assert len(found) == len(LINKS)
    for i, target in enumerate(LINKS):
        line = 7 + 2 * i
        assert any(f.startswith(f"sources/demo/links.yaml:{line}:22: error: key_points[{i}].text: link to ") and f"'{target}'" in f and f.endswith("[link]") for f in found), (target, found)


def test_a_build_of_hostile_sources_replaces_nothing(hostile):
    root, _ = hostile
    before = outputs(root)
    result = run_limited(root, "build", "--sources", "sources", "--out", "out", "--today", TODAY)
    assert result.returncode == 1, result.stderr
    assert "build: not built: demo, linked-exam: fix the errors above; their earlier outputs were left as they were" in result.stderr.splitlines()
    assert outputs(root) == before


def test_links_never_reach_an_output():
    """Even if a bad link got past validate, the renderers' Markdown keeps it as text."""
    from pipeline.text.markdown import to_html

    for target in LINKS:
        assert "href" not in to_html(f"See [here]({target}) and <{target}>.")
    assert 'href="mailto:a@example.com"' in to_html("<mailto:a@example.com>")
    assert 'href="https://example.com/"' in to_html("[x](https://example.com/)")


def test_a_linked_folder_inside_an_exam_is_an_error_when_it_leads_out_and_said_when_it_does_not(run_cli, make_sources, tmp_path):
    """A folder inside an exam that is a symbolic link out of the sources (to another checkout's secrets) is an
    error naming the link, nothing of it read or quoted; a link to a folder inside is said, not skipped in silence."""
    sources = make_sources("valid")
    outside = tmp_path / "outside" / "more"
    outside.mkdir(parents=True)
    (outside / "secret.yaml").write_text(SECRET, encoding="utf-8")
    (sources / "demo" / "more").symlink_to(outside, target_is_directory=True)
    (sources / "demo" / "real").mkdir()
    (sources / "demo" / "alias").symlink_to("real", target_is_directory=True)
    result = run_cli("validate", "--sources", "sources", "--today", TODAY, cwd=tmp_path)
    assert result.code == 1, result.out + result.err
    assert f"sources/demo/more:1:1: error: {LEAVES} [yaml]" in result.lines
    assert "sources/demo/alias:1:1: warning: is a symbolic link to a folder; linked folders are not followed" in result.out
    assert "RUNNER-SECRET-TOKEN" not in result.out + result.err
    built = run_cli("build", "--sources", "sources", "--out", "out", "--today", TODAY, cwd=tmp_path)
    assert built.code == 1 and not (tmp_path / "out" / "demo").exists()

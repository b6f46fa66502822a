"""The images of an exam's sources: each checked where it is written and pointed at its file in the exam.

An image is written `![alt text](path "optional caption")` in any Markdown field, the path relative to the
YAML file that holds it. For each one this module reports, at the line where it is written, with a code:

- no alt text (`image-alt`, WCAG 1.1.1: the alt text is what a screen reader says and what an option is
  named by in `answer:`);
- a remote address (`image-remote`: the build never fetches; download the file and cite its page);
- any other address, an absolute path, or a path leaving the exam's folder directly (`..`) or through a
  symbolic link (`image-path`); a file that is not there (`image-missing`);
- a file that is not a safe image (`pipeline.load.image_files`: `image-format`, `image-pixels`, `image-svg`,
  `image-size`), or past the exam's total (`image-size`).

What passes is rewritten, in the copy of the data the schema validates (the document keeps the text as
written, for the other checks' positions), to `media:<path in the exam folder>`; an image alone in the
paragraph of a block field (a key point, a definition, a stem, an explanation, a note) is a figure and gets
`#figure-<objective>-<n>`, n counting the objective's figures in the order of its file
(`pipeline.text.images` renders both). An `answer:` that names an image option by its alt text is
rewritten to that option. The files' bytes are kept (`MediaFile`) and carried by the view into every output.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from pipeline.diagnostics import Position, Report
from pipeline.load.image_files import MAX_EXAM_BYTES, MAX_FILE_BYTES, ImageProblem, inspect
from pipeline.load.markdown_fields import locate, markdown_strings, source_lines
from pipeline.load.schema_errors import field_label
from pipeline.load.yamlsource import PathKey, YamlDocument
from pipeline.text.images import FIGURE, INLINE_IMAGE, SCHEME, flat_name
from pipeline.text.markdown import image_tokens

FIGURE_FIELDS = frozenset({"text", "definition", "stem", "explanation", "note", "notes"})  # rendered as blocks
REMOTE = ("http", "https", "ftp")


@dataclass(frozen=True)
class MediaFile:
    """One image file of the exam, as every output copies it. `media_bytes` is not part of what an output's
    rebuild decision hashes (`pipeline.publish.incremental.NEVER_SHOWN`): `sha256` stands for it."""

    path: str  # in the exam folder, POSIX: "6-performance/figures/bits.svg"
    media_type: str
    sha256: str
    size: int
    width: int | None
    height: int | None
    alt: str  # the alt text it is first shown with
    media_bytes: bytes = field(repr=False)

    @property
    def flat_name(self) -> str:
        return flat_name(self.path)


@dataclass
class ExamMedia:
    """The images of one exam folder, gathered while its files load."""

    folder: Path
    report: Report
    files: dict[str, MediaFile] = field(default_factory=dict)
    flat: dict[str, str] = field(default_factory=dict)  # flat name -> path
    total: int = 0

    def rewritten(self, doc: YamlDocument, objective: str | None) -> Any:
        """`doc`'s data with every image pointed at its checked file (module docstring); the data itself when it
        holds none. Problems go to the report; an image with a problem is left as written (it shows as text)."""
        found = [(path, text) for path, text in markdown_strings(doc.data, ()) if "![" in text]
        if not found:
            return doc.data
        data = copy.deepcopy(doc.data)
        lines = source_lines(doc)
        counter = [0]

        def next_number() -> str:  # the objective's next figure, counted in the order of its file
            counter[0] += 1
            return f"{objective}-{counter[0]}"
        alts: dict[PathKey, dict[str, str]] = {}  # question path -> alt text -> its image option as rewritten
        for path, text in found:
            number = next_number if objective is not None and _field(path) in FIGURE_FIELDS else None
            new = self._text(doc, lines, path, text, number)
            _set(data, path, new)
            if len(path) >= 3 and path[-2] == "options" and (alt := _lone_alt(text)) is not None:
                alts.setdefault(path[:-2], {})[alt] = new
        for question, by_alt in alts.items():
            _answers_by_alt(data, question, by_alt)
        return data

    def _text(self, doc: YamlDocument, lines: list[str], path: PathKey, text: str, number) -> str:
        tokens = image_tokens(text)
        matches = [m for m in INLINE_IMAGE.finditer(text) if not _in_code(text, m.start())]
        start = doc.position(path)
        span = text.count("\n") + 2
        if len(matches) != len(tokens):
            self.report.error(doc.path, start, f"{field_label(path)}: write each image inline as ![alt text](path \"caption\"), "
                              "not as a reference ![alt][name]", "image-path")
            return text
        pieces, end = [], 0
        for match, token in zip(matches, tokens, strict=True):
            dest = match["dest"][1:-1] if match["dest"].startswith("<") else match["dest"]
            where = locate(lines, start, dest, span)
            target = self._checked(doc, where, path, token.src, token.alt)
            if target is None:
                continue
            if number is not None and token.alone:
                target += FIGURE + number()
            pieces += [text[end:match.start("dest")], f"<{SCHEME}{target}>"]
            end = match.end("dest")
        return "".join(pieces) + text[end:]

    def _checked(self, doc: YamlDocument, where: Position, path: PathKey, src: str, alt: str) -> str | None:
        """The image's path in the exam folder, its file checked and kept; None after reporting a problem."""
        label = field_label(path)
        shown = src[:200]
        if not alt.strip():
            self.report.error(doc.path, where, f"{label}: image '{shown}' has no alt text: write what it shows between the "
                              "brackets, ![a pod with two containers](figures/pod.png) (a screen reader says it; WCAG 1.1.1)",
                              "image-alt")
            return None
        address = unquote(src)
        scheme = urlsplit(address).scheme.lower()
        if scheme in REMOTE or address.startswith("//"):
            self.report.error(doc.path, where, f"{label}: remote image '{shown}' is not fetched by the build: download the file "
                              "into the exam's folder, write its path here, and cite the page it came from", "image-remote")
            return None
        relative = PurePosixPath(address)
        if scheme or relative.is_absolute() or not address or "\\" in address:
            self.report.error(doc.path, where, f"{label}: image '{shown}' is not a path in the exam's folder: write the path "
                              "of a file beside the sources, relative to this YAML file (figures/pod.png)", "image-path")
            return None
        return self._file(doc, where, label, shown, relative, alt)

    def _file(self, doc: YamlDocument, where: Position, label: str, shown: str, relative: PurePosixPath, alt: str) -> str | None:
        folder = self.folder.absolute()
        lexical = Path(os.path.normpath(doc.path.absolute().parent / relative))
        try:
            real, top = lexical.resolve(), folder.resolve()
        except (OSError, RuntimeError):
            real, top = lexical, folder.resolve()
        if not lexical.is_relative_to(folder) or not real.is_relative_to(top):
            how = "through a symbolic link" if lexical.is_relative_to(folder) else "with .. or an absolute path"
            self.report.error(doc.path, where, f"{label}: image '{shown}' leads out of the exam's folder ({how}); images are "
                              "read only from inside it: copy the file in", "image-path")
            return None
        inside = real.relative_to(top).as_posix()
        if inside in self.files:
            return inside
        try:
            data = _read(real)
        except FileNotFoundError:
            self.report.error(doc.path, where, f"{label}: image '{shown}' not found: no file {inside} in the exam's folder "
                              "(paths are relative to this YAML file)", "image-missing")
            return None
        except ImageProblem as exc:
            self.report.error(doc.path, where, f"{label}: image '{shown}': {exc}", exc.code)
            return None
        try:
            facts = inspect(shown, data, real.name)
        except ImageProblem as exc:
            self.report.error(doc.path, where, f"{label}: image {exc}", exc.code)
            return None
        if self.total + len(data) > MAX_EXAM_BYTES:
            self.report.error(doc.path, where, f"{label}: image '{shown}' takes the exam's images past {MAX_EXAM_BYTES:,} bytes; "
                              "make the images smaller (SVG for diagrams, JPEG for photos)", "image-size")
            return None
        flat = flat_name(inside)
        if flat in self.flat:
            self.report.error(doc.path, where, f"{label}: image '{shown}' and {self.flat[flat]} would share the file name {flat} "
                              "in the deck and Moodle; rename one", "image-path")
            return None
        self.total += len(data)
        self.flat[flat] = inside
        self.files[inside] = MediaFile(inside, facts.media_type, hashlib.sha256(data).hexdigest(), len(data), facts.width,
                                       facts.height, alt.strip(), data)
        return inside

    def ordered(self) -> tuple[MediaFile, ...]:
        return tuple(self.files[name] for name in sorted(self.files))


def exam_file_images(doc: YamlDocument, report: Report) -> None:
    """exam.yaml's fields show no images: an error at each, not a silent drop."""
    for path, text in markdown_strings(doc.data, ()):
        if "![" in text and image_tokens(text):
            report.error(doc.path, doc.position(path), f"{field_label(path)}: images go in objective files (key points, terms, "
                         "questions), not in exam.yaml; move it there", "image-path")


def _read(path: Path) -> bytes:
    """A regular file of at most MAX_FILE_BYTES (its size checked before reading); FileNotFoundError if none."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except IsADirectoryError:
        raise ImageProblem(f"{path.name} is a folder, not an image file", "image-missing") from None
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise ImageProblem(f"cannot be read ({exc.strerror})", "image-missing") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ImageProblem("is not a regular file", "image-missing")
        if info.st_size > MAX_FILE_BYTES:
            raise ImageProblem(f"is {info.st_size:,} bytes, over the limit of {MAX_FILE_BYTES:,} bytes a file; make it smaller "
                               "(SVG for diagrams, JPEG for photos)", "image-size")
        return handle.read(MAX_FILE_BYTES + 1)


def _field(path: PathKey) -> str:
    return next((str(p) for p in reversed(path) if isinstance(p, str)), "")


def _set(data: Any, path: PathKey, value: str) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


_LONE = re.compile(r"\s*" + INLINE_IMAGE.pattern + r"\s*\Z")


def _lone_alt(text: str) -> str | None:
    """The alt text of an option that is one image and nothing else."""
    match = _LONE.match(text)
    return " ".join(match["alt"].split()) if match else None


def _answers_by_alt(data: Any, question: PathKey, by_alt: dict[str, str]) -> None:
    """`answer:` may name an image option by its alt text: it then means that option."""
    node = data
    for key in question:
        node = node[key]
    if not isinstance(node, dict) or "answer" not in node:
        return
    options = set(node.get("options") or [])
    answer = node["answer"]
    if isinstance(answer, str) and answer not in options and answer.strip() in by_alt:
        node["answer"] = by_alt[answer.strip()]
    elif isinstance(answer, list):
        node["answer"] = [by_alt.get(a.strip(), a) if isinstance(a, str) and a not in options else a for a in answer]


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)
_TICKS = re.compile(r"`+")


def _in_code(text: str, at: int) -> bool:
    """Whether position `at` is inside a code span or a fenced code block (an image written there is code)."""
    fences = list(_FENCE.finditer(text))
    i = 0
    while i < len(fences):
        opening = fences[i]
        closing = next((f for f in fences[i + 1:] if f[1][0] == opening[1][0] and len(f[1]) >= len(opening[1])), None)
        stop = closing.end() if closing else len(text)
        if opening.start() <= at < stop:
            return True
        i = fences.index(closing) + 1 if closing else len(fences)
    runs = list(_TICKS.finditer(text))
    i = 0
    while i < len(runs):
        closing = next((j for j in range(i + 1, len(runs)) if len(runs[j][0]) == len(runs[i][0])), None)
        if closing is None:
            i += 1
            continue
        if runs[i].start() <= at < runs[closing].end():
            return True
        i = closing + 1
    return False

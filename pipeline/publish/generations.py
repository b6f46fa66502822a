"""All-or-nothing publication of an exam's outputs: generation folders and one symbolic link per exam.

    OUT/<exam>                       -> .generations/<exam>-<n>   (a relative symbolic link)
    OUT/.generations/<exam>-<n>/     study-guide.pdf, deck.apkg, bank.json, ...
    OUT/.generations/<exam>-<n>.state.json   what built generation n (see `incremental.BuildState`)

A build writes a new generation folder beside the current one (outputs whose inputs did not change are
hard links to the current files, so they stay byte-for-byte and inode-for-inode the same), then switches
the exam's link with one `rename`, which is atomic: a reader of OUT/<exam> sees the old set or the new
set, never a mix. A build killed at any moment (even with SIGKILL) leaves the link on the old generation;
the next build removes what the killed one left, for every exam, the ones it does not build included
(`sweep`: a killed build of two exams may leave one's finished generation and state, and the next build
may be of the other exam only, or find the first one's sources broken), then repairs each exam's link
(`Generations.recover`). Two builds into one OUT do not run at once (`exclusive`).

Only what the pipeline wrote is removed (see pipeline/publish/owned.py): OUT and OUT/.generations carry its
marker (`claim_out`), OUT/<exam> must be a link into .generations or nothing (a user's file or folder there is
refused, not replaced), and the sweep removes only names a build writes (`_OURS`), never a file put there.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

from pipeline.errors import UsageError
from pipeline.publish import owned

FOLDER = ".generations"
RECORDS = "builds.json"  # what the last successful builds printed, for no-op builds (pipeline/publish/noop.py)
KIND = "build"  # the marker's kind on OUT and OUT/.generations
# what a build writes in .generations: generations, their states, the temporary files of states and records
_OURS = re.compile(r"^\.?[^/]+-\d+(\.state\.json)?(\.[^.]+\.tmp)?$|^\.builds\.json\.[^.]+\.tmp$")
_LINK_TMP = re.compile(r"^\.[^/]+\.link\.tmp$")
_EARLIER_FILES = frozenset({".lock", RECORDS, "pipeline-crash.log"})
_EARLIER_FOLDERS = frozenset({FOLDER, "http-cache", "stats", "examples"})  # what other commands put in build/ by default


def _ours_in_out(path: Path) -> bool:
    """An entry of OUT a build writes (.generations, a link into it, a temporary link), or one of build/'s by
    default (the crash log, audit's HTTP cache, stats' reports, the examples' environments)."""
    if path.is_symlink():
        return Path(os.readlink(path)).parent == Path(FOLDER) or bool(_LINK_TMP.match(path.name))
    return path.name == "pipeline-crash.log" and path.is_file() or path.name in _EARLIER_FOLDERS and path.is_dir()


def earlier_build(out: Path) -> bool:
    """OUT as a build before markers left it: .generations with only a build's files, links into it."""
    folder = out / FOLDER
    if folder.is_symlink() or (folder.exists() and not _earlier_generations(folder)):
        return False
    return all(_ours_in_out(p) for p in out.iterdir())


def _earlier_generations(folder: Path) -> bool:
    return folder.is_dir() and all(p.name in _EARLIER_FILES or _OURS.match(p.name) for p in folder.iterdir())


def claim_out(out: Path, exam_ids: list[str]) -> None:
    """Make OUT the build's own or refuse it (usage error, nothing removed): OUT and OUT/.generations
    marked (or new, empty, or an earlier build's), and each exam's OUT/<exam> a link into .generations or absent."""
    owned.claim(out, KIND, "--out", earlier=earlier_build)
    folder = out / FOLDER
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise UsageError(f"error: --out {out}: {folder} is not a folder the pipeline made; move it away (nothing was removed)")
    owned.claim(folder, KIND, "--out", earlier=_earlier_generations)
    for exam_id in exam_ids:
        link = out / exam_id
        if link.is_symlink() and Path(os.readlink(link)).parent != Path(FOLDER):
            raise UsageError(f"error: --out {out}: {link} is a link to {os.readlink(link)}, not to a build; "
                             "move it away or choose another --out (nothing was removed)")
        if not link.is_symlink() and link.exists():
            what = "folder" if link.is_dir() else "file"
            raise UsageError(f"error: --out {out}: {link} is a {what} the pipeline did not write (exam '{exam_id}' is "
                             "published there as a link); move it away or choose another --out (nothing was removed)")


@contextlib.contextmanager
def exclusive(out: Path) -> Iterator[None]:
    """Hold OUT's build lock; a second build into the same OUT is a usage error, not a race."""
    if not (out / FOLDER).is_dir():
        owned.make(out / FOLDER, KIND)
    with open(out / FOLDER / ".lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(f"error: another build is writing into {out}; wait for it to finish") from None
        yield


def sweep(out: Path) -> list[str]:
    """Remove from OUT/.generations everything no link in OUT points at (generations, their state files and
    the temporary files of states being written), and OUT's temporary links; run under `exclusive`, before
    anything is built. A sentence for what was removed, if anything."""
    folder = out / FOLDER
    if not folder.is_dir():
        return []
    if owned.kind(out) != KIND or owned.kind(folder) != KIND:
        return []  # not claimed (claim_out): nothing here is known to be the pipeline's
    removed = leftovers(out)
    for path in removed:
        _remove(path)
    return [f"removed what an interrupted build left in {folder}: {', '.join(p.name for p in removed)}"] if removed else []


def leftovers(out: Path) -> list[Path]:
    """What a killed build left in OUT: generations and states no link points at, temporary files and links
    (only the names a build writes; `sweep` removes them, and the no-op path replays nothing while any is there)."""
    folder = out / FOLDER
    kept = {".lock", RECORDS}
    for link in (p for p in out.iterdir() if p.is_symlink() and not p.name.startswith(".")):  # .<exam>.link.tmp is not one
        target = Path(os.readlink(link))
        if target.parent == Path(FOLDER):
            kept |= {target.name, target.name + ".state.json"}
    found = [path for path in sorted(folder.iterdir()) if path.name not in kept and _OURS.match(path.name)] if folder.is_dir() else []
    return found + sorted(p for p in out.iterdir() if p.is_symlink() and _LINK_TMP.match(p.name))


class Generations:
    """The generations of one exam's outputs under OUT."""

    def __init__(self, out: Path, exam_id: str) -> None:
        self.out, self.exam_id = out, exam_id
        self.link = out / exam_id
        self.folder = out / FOLDER
        # a generation, its state, or the temporary file of a state being written
        self._name = re.compile(rf"^\.?{re.escape(exam_id)}-(\d+)(\.state\.json)?(\.[^.]+\.tmp)?$")

    def current(self) -> Path | None:
        """The generation the link points to, when it is a link to an existing generation."""
        if not self.link.is_symlink():
            return None
        target = self.folder / Path(os.readlink(self.link)).name
        match = self._name.match(target.name)
        return target if target.is_dir() and match and not match[2] and not match[3] else None

    def state_path(self, generation: Path) -> Path:
        return generation.with_name(generation.name + ".state.json")

    def new(self) -> Path:
        """A fresh, empty generation folder, numbered after every one there is."""
        numbers = [int(m[1]) for p in self.folder.iterdir() if (m := self._name.match(p.name))]  # never reuse a number
        generation = self.folder / f"{self.exam_id}-{max(numbers, default=0) + 1}"
        generation.mkdir()
        return generation

    def switch(self, generation: Path) -> None:
        """Point the exam's link at `generation` with one atomic rename, then drop the old generations."""
        temporary = self.out / f".{self.exam_id}.link.tmp"
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        os.symlink(Path(FOLDER) / generation.name, temporary)
        os.replace(temporary, self.link)
        self.clean()

    def clean(self) -> list[str]:
        """Remove every generation but the current one (what a killed build left); return what was removed."""
        keep = self.current()
        removed = []
        for path in sorted(self.folder.iterdir()):
            match = self._name.match(path.name)
            if match and keep is not None and path.name in (keep.name, self.state_path(keep).name):
                continue
            if match:
                _remove(path)
                removed.append(path.name)
        with contextlib.suppress(FileNotFoundError):
            (self.out / f".{self.exam_id}.link.tmp").unlink()
        return removed

    def recover(self) -> list[str]:
        """Put a broken or old-style OUT/<exam> right; a sentence for each thing that was repaired."""
        said = []
        if self.link.is_symlink() and self.current() is None:
            self.link.unlink()
            said.append(f"{self.link} pointed to no finished build; removed, all outputs are rebuilt")
        elif self.link.exists() and not self.link.is_symlink():  # claim_out refuses these: never replaced
            raise UsageError(f"error: {self.link} is not a build the pipeline wrote; move it away (nothing was removed)")
        removed = self.clean()
        if removed:
            said.append(f"removed what an interrupted build left in {self.folder}: {', '.join(removed)}")
        return said


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def link_or_copy(source: Path, target: Path) -> None:
    """`target` as a hard link to `source` (the same bytes, the same file), or a copy where links fail."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)

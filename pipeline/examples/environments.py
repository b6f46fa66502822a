"""The Python environments examples run in: one virtual environment per distinct requirement set.

An example's requirement set is its exam's (`examples.requirements` and `examples.requirements_file` in
exam.yaml) plus its own `requirements`, sorted. An empty set runs on the standard library alone (no
environment, `python -S`). Otherwise the environment lives in `ROOT/<key>/`, the key a hash of the set,
the Python version and the platform, so a second run with the same set reuses it. It is built beside
its final place and renamed there once complete, so a killed build never leaves half an environment to
reuse. pip installs wheels only (`--only-binary :all:`), from the package index pip is configured for,
like every install here. That flag alone does not stop pip from taking a requirement written like a file
(`evil-1.0.tar.gz`, `x-1.0-py3-none-any.whl`) for a local archive and building it with its own backend,
so a requirement must be a name and version clauses (refused here too, not only by the schema), and pip
runs in an empty folder of its own, where no relative name can find a file.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pipeline.examples.requirements import is_index_requirement
from pipeline.examples.sandbox import Interpreter

MARKER = "environment.json"  # written last: an environment without it is not complete
PASSED_ON = ("PATH", "HOME", "LANG", "LC_ALL", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "TMPDIR")  # and every PIP_*


class EnvironmentFailed(Exception):
    """pip could not install a requirement set; the message holds pip's last lines."""


@dataclass(frozen=True)
class Environment:
    requirements: tuple[str, ...]
    path: Path | None  # None: the standard library alone
    packages: tuple[tuple[str, str], ...] = ()  # every installed distribution, (name, version), sorted

    def versions_of(self, names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        """The resolved versions of the requirements asked for by name (what a reader is told)."""
        installed = {_canonical(n): (n, v) for n, v in self.packages}
        return tuple(installed[_canonical(n)] for n in names if _canonical(n) in installed)


def requirement_name(requirement: str) -> str:
    """`torch==2.13.0` -> `torch`, `foo[bar]>=1` -> `foo`."""
    for i, ch in enumerate(requirement):
        if not (ch.isalnum() or ch in "._-"):
            return requirement[:i]
    return requirement


def _canonical(name: str) -> str:
    return "".join("-" if ch in "._" else ch for ch in name.lower())


def environment_key(requirements: tuple[str, ...], python: Interpreter) -> str:
    body = json.dumps({"requirements": list(requirements), "python": python.version, "platform": python.platform})
    return hashlib.sha256(body.encode()).hexdigest()[:20]


class Environments:
    """The cache of environments under `root` (default build/examples/envs)."""

    def __init__(self, root: Path, python: Interpreter, log=None, environ: Mapping[str, str] | None = None) -> None:
        # Absolute from here on: the sandbox binds the environment by path, from another working folder, and a
        # relative `--envs` (the default, build/examples/envs) would name nothing there.
        self.root, self.python, self.log = root.resolve(), python, log or (lambda message: None)
        # what pip is given of the environment (PASSED_ON and every PIP_*): the command line's to read, none by default
        self.environ = {k: v for k, v in (environ or {}).items() if k in PASSED_ON or k.startswith("PIP_")}
        self._ready: dict[tuple[str, ...], Environment] = {}
        self.built = 0  # environments built by this run (a second run with nothing new builds none)

    def get(self, requirements: tuple[str, ...]) -> Environment:
        if not requirements:
            return Environment((), None)
        if requirements not in self._ready:
            self._ready[requirements] = self._load_or_build(requirements)
        return self._ready[requirements]

    def _load_or_build(self, requirements: tuple[str, ...]) -> Environment:
        path = self.root / environment_key(requirements, self.python)
        if not (path / MARKER).is_file():
            self._build(requirements, path)
        packages = json.loads((path / MARKER).read_text(encoding="utf-8"))["packages"]
        return Environment(requirements, path, tuple((n, v) for n, v in packages))

    def _build(self, requirements: tuple[str, ...], path: Path) -> None:
        if bad := [r for r in requirements if not is_index_requirement(r)]:
            raise EnvironmentFailed(f"not a requirement from the package index: {len(bad)} of them; nothing was installed")
        self.log(f"examples: building an environment for {' '.join(requirements)} in {os.path.relpath(path)}")
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o755)  # the examples run as another uid, which must read it
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        shutil.rmtree(temp, ignore_errors=True)
        try:
            _run(self.environ, [str(self.python.path), "-m", "venv", "--without-pip", str(temp)], "create the environment")
            _run(self.environ, [sys.executable, "-m", "pip", "--python", str(temp / "bin" / "python"), "install", "--quiet", "--no-input",
                  "--disable-pip-version-check", "--only-binary", ":all:", *requirements], f"install {' '.join(requirements)}")
            packages = sorted((d.metadata["Name"], d.version) for d in importlib.metadata.distributions(path=[str(_site_packages(temp, self.python))]))
            (temp / MARKER).write_text(json.dumps({"requirements": list(requirements), "python": self.python.version,
                                                    "packages": packages}, indent=1) + "\n", encoding="utf-8")
            try:
                os.rename(temp, path)
            except OSError:  # another run finished the same environment first: use that one
                if not (path / MARKER).is_file():
                    raise
        finally:
            shutil.rmtree(temp, ignore_errors=True)
        self.built += 1


def _site_packages(env: Path, python: Interpreter) -> Path:
    return env / "lib" / f"python{python.minor}" / "site-packages"


def _run(env: Mapping[str, str], argv: list[str], what: str) -> None:
    with tempfile.TemporaryDirectory(prefix="examples-pip-") as empty:  # nothing here for a name to find
        done = subprocess.run(argv, capture_output=True, text=True, env=dict(env), stdin=subprocess.DEVNULL, cwd=empty, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-6:])
        raise EnvironmentFailed(f"could not {what} (exit {done.returncode}):\n{tail}")


def devices() -> frozenset[str]:
    """The devices examples may ask for here: always the CPU, and CUDA when an NVIDIA driver is present."""
    found = {"cpu"}
    if Path("/dev/nvidiactl").exists() or shutil.which("nvidia-smi"):
        found.add("cuda")
    return frozenset(found)

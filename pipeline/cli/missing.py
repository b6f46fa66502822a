"""A missing dependency is the environment's problem (exit 2), told in one line with how to install.

It happens when the pipeline is started by a Python that does not have its dependencies, e.g. the
system's `python3 -m pipeline` in a checkout instead of the project's `.venv`.
"""

from __future__ import annotations

# import name -> the package to install, where they differ
_PACKAGES = {"yaml": "pyyaml", "markdown_it": "markdown-it-py", "ruamel": "ruamel.yaml", "rapidfuzz": "rapidfuzz", "jinja2": "jinja2",
             "mdit_py_plugins": "mdit-py-plugins"}
OWN = frozenset({"pipeline", "schema", "bench", "tests"})


def is_missing_dependency(exc: BaseException) -> bool:
    """A ModuleNotFoundError for a third-party module (a module of the pipeline itself missing is a bug)."""
    return isinstance(exc, ModuleNotFoundError) and bool(exc.name) and exc.name.split(".")[0] not in OWN


def message(exc: ModuleNotFoundError) -> str:
    top = (exc.name or "?").split(".")[0]
    package = _PACKAGES.get(top, top)
    return (f"error: the Python package '{package}' is missing (this Python cannot import '{top}'): install the pipeline "
            "with its dependencies, `python3 -m venv .venv && .venv/bin/pip install .` (or `make build` in a checkout), "
            "then run `.venv/bin/exam-prep`")

"""The stages stay apart: packages depend downwards only, renderers read only the exam view, and importing
the view's model loads no YAML, lock, clock or network code."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from pipeline.paths import ROOT

CODE = (ROOT / "pipeline", ROOT / "schema")

# The layers, lowest first. A module belongs to the component with the longest matching name; it may import
# its own component and any lower one, never a higher one. Within a component imports are free (but acyclic).
# A component names a module or package and everything below it, except those in EXACT, which name one module:
# the package root (`pipeline` as a prefix would hold every module, and the check could never fail). A `*`
# stands for any one name: a shape's folder (pipeline/shapes/<name>/) keeps its question type in `question`
# and its output writers in `outputs`, which sit in the questions' and the renderers' layers.
EXACT = frozenset({"pipeline"})
LAYERS: tuple[tuple[str, ...], ...] = (
    ("pipeline", "pipeline.vocabulary", "pipeline.errors", "pipeline.paths", "pipeline.diagnostics", "pipeline.inputs.clock",
     "pipeline.text"),  # the vocabulary: no stage of its own
    ("pipeline.shapes",),  # interaction shapes and grading
    ("pipeline.questions", "pipeline.shapes.*.question"),  # question types: their models, checks and parts (a shape folder's own type)
    ("schema",),  # the content model and the bank's contract: one component, above the types it unites
    ("pipeline.view",),  # the exam view's shapes: what every renderer reads
    ("pipeline.publish",),  # atomic writes and generations
    ("pipeline.load",),  # YAML -> models, with positions
    ("pipeline.citations",),  # the network, quotes against pages, the lock
    ("pipeline.examples",),  # author code run in the sandbox, the examples lock
    ("pipeline.variants",),  # varied questions: their code run through the examples' sandbox, the variants lock, the stress test
    ("pipeline.inputs",),  # a build's inputs as one value, handed down (read by pipeline.settings.reader)
    ("pipeline.check",),  # offline checks (they read the lock)
    ("pipeline.practice",),  # generated questions, coverage
    ("pipeline.derive",),  # content + locks + today -> the exam view
    ("pipeline.stats",),  # learners' answers -> item statistics, judged against the view
    ("pipeline.render", "pipeline.shapes.*.outputs"),  # one module per output, and their registry (a shape folder's own writers)
    ("pipeline.findings",),  # what an audit found, where it lands in the outputs
    ("pipeline.console",),  # what the terminal is told: problems, progress, a crash
    ("pipeline.settings", "pipeline.build"),  # pipeline.toml, and the one reader of a build's inputs (only pipeline.cli calls it)
    ("pipeline.serve",),  # the author's preview: a server that runs builds
    ("pipeline.cli", "pipeline.__main__"),  # the commands (serve's among them)
)
# The package root holds the entry points and the few modules every stage shares, no more (counting
# __init__.py and __main__.py): a module that belongs to one stage lives in that stage's package.
MAX_ROOT_MODULES = 6
# What a renderer must not reach for: the view has already settled all of it.
FORBIDDEN_IN_RENDERERS = ("pipeline.citations", "pipeline.inputs", "pipeline.load", "pipeline.derive", "pipeline.check", "yaml", "ruamel")
# What importing the view's model must not load (checked in a fresh interpreter, transitive imports included).
NOT_UNDER_THE_VIEW = ("yaml", "ruamel", "requests", "urllib3", "lxml", "http.client", "pipeline.load", "pipeline.citations",
                      "pipeline.inputs", "pipeline.derive", "pipeline.practice", "pipeline.check", "pipeline.render")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, *, top_level_only: bool = False) -> set[str]:
    """Every module `path` imports: at any depth of the file (TYPE_CHECKING blocks included), or only the
    statements at its top level (what runs on import: `if TYPE_CHECKING:` blocks are left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in tree.body if top_level_only else ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def layer_of(module: str) -> int | None:
    """The layer of the component `module` belongs to (longest matching name), None outside the project."""
    best: tuple[int, int] | None = None
    for number, components in enumerate(LAYERS):
        for component in components:
            matches = _within(component, module) and (module.count(".") == component.count(".") or component not in EXACT)
            if matches and (best is None or len(component) > best[1]):
                best = (number, len(component))
    return best[0] if best else None


def _modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for folder in (root / "pipeline", root / "schema") for p in folder.rglob("*.py") if "__pycache__" not in p.parts}


def outside_layers(modules: dict[str, Path]) -> list[str]:
    return sorted(m for m in modules if layer_of(m) is None)


def upward_imports(modules: dict[str, Path]) -> list[str]:
    upward = []
    for name, path in sorted(modules.items()):
        if layer_of(name) is None:
            continue  # outside_layers says so
        for imported in sorted(imports_of(path, top_level_only=True)):
            if imported in modules and layer_of(imported) is not None and layer_of(imported) > layer_of(name):
                upward.append(f"{name} (layer {layer_of(name)}) imports {imported} (layer {layer_of(imported)})")
    return upward


def test_every_module_belongs_to_a_layer():
    modules = _modules()
    assert len(modules) > 100  # the walk saw the code
    assert outside_layers(modules) == []


def test_packages_depend_downwards_only():
    modules = _modules()
    assert len(modules) > 100  # the walk saw the code
    assert upward_imports(modules) == []


@pytest.fixture
def code_copy(tmp_path) -> Path:
    """A copy of pipeline/ and schema/, to plant modules in."""
    for name in ("pipeline", "schema"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return tmp_path


def test_a_planted_upward_import_and_a_module_outside_every_layer_fail_the_checks(code_copy):
    assert (outside_layers(_modules(code_copy)), upward_imports(_modules(code_copy))) == ([], [])  # the copy passes, as the code does
    (code_copy / "pipeline" / "view" / "planted.py").write_text('"""Planted."""\nfrom pipeline.render import RENDERERS\n')
    (code_copy / "pipeline" / "planted_root.py").write_text('"""A module at the package root that no layer names."""\n')
    (code_copy / "pipeline" / "newstage").mkdir()
    (code_copy / "pipeline" / "newstage" / "__init__.py").write_text('"""A package that no layer names."""\n')
    modules = _modules(code_copy)
    assert outside_layers(modules) == ["pipeline.newstage", "pipeline.planted_root"]
    view, render = layer_of("pipeline.view"), layer_of("pipeline.render")
    assert upward_imports(modules) == [f"pipeline.view.planted (layer {view}) imports pipeline.render (layer {render})"]


def test_the_layer_check_would_catch_an_upward_import():
    assert layer_of("pipeline.render.anki.deck") > layer_of("pipeline.view.model") > layer_of("pipeline.questions.single")
    assert layer_of("pipeline.citations.blast") == layer_of("pipeline.citations")  # what the audit once imported
    assert layer_of("pipeline.render.anki.deck_notes") > layer_of("pipeline.citations.lock")
    # a shape folder's parts sit in their layers: its shape with the shapes, its type and writers above
    assert layer_of("pipeline.shapes.anyshape") == layer_of("pipeline.shapes") < layer_of("pipeline.shapes.anyshape.question")
    assert layer_of("pipeline.shapes.anyshape.question") == layer_of("pipeline.questions")
    assert layer_of("pipeline.shapes.anyshape.outputs") == layer_of("pipeline.render") > layer_of("pipeline.shapes.anyshape.helper")


def test_renderers_import_neither_the_lock_nor_today_nor_the_loader_nor_yaml():
    offenders = []
    for path in sorted([*(ROOT / "pipeline" / "render").rglob("*.py"), *(ROOT / "pipeline" / "shapes").glob("*/outputs/*.py")]):
        for name in sorted(imports_of(path)):
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_IN_RENDERERS):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_the_forbidden_list_would_catch_an_offender(tmp_path):
    sample = tmp_path / "x.py"
    sample.write_text("from pipeline.citations.lock import CitationLock\nimport yaml\n")
    assert {"pipeline.citations.lock", "yaml"} <= imports_of(sample)


@pytest.mark.parametrize("module", ["pipeline.view.model", "pipeline.view", "pipeline.shapes.grading"])
def test_importing_the_view_loads_no_yaml_lock_clock_or_network(module):
    # every shape found too (its module or folder's own Python): a shape must load no more than the view may
    script = f"import sys, json; import {module}; import pipeline.shapes.registry as r; r.shapes(); print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    loaded = json.loads(done.stdout)
    assert module in loaded and "pipeline.shapes.choices" in loaded  # the probe ran and saw the view's own imports
    assert [m for m in loaded if any(m == bad or m.startswith(bad + ".") for bad in NOT_UNDER_THE_VIEW)] == []


def test_no_import_cycles_at_module_level():
    """Module-level imports among the project's modules form no cycle (imports under TYPE_CHECKING do not count)."""
    modules = _modules()
    graph = {name: {m for m in imports_of(path, top_level_only=True) if m in modules and m != name} for name, path in modules.items()}
    cycle = _find_cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def _within(component: str, module: str) -> bool:
    """Whether `module` is `component` or below it (a `*` in the component stands for any one name)."""
    pattern, parts = component.split("."), module.split(".")
    return len(parts) >= len(pattern) and all(p in ("*", m) for p, m in zip(pattern, parts, strict=False))


def package_of(module: str, modules: dict[str, Path]) -> str:
    """The package a module is part of: `pipeline.<package>` or `schema`; a module at pipeline's root is its own.
    A shape folder's `question` and `outputs` belong to the package of their layer (questions, render), as LAYERS
    assigns them: they are those packages' members kept beside their shape."""
    home = next((layer[0] for layer in LAYERS for component in layer if "*" in component and _within(component, module)), None)
    if home is not None:
        return home
    parts = module.split(".")
    if parts[0] == "schema":
        return "schema"
    head = ".".join(parts[:2])
    return head if head in modules and modules[head].name == "__init__.py" else module


def package_loop(modules: dict[str, Path]) -> str | None:
    """A loop among packages, each step with an import that makes it; imports at any depth count (a function's
    import ties two packages as much as a module's), so two packages never lean on each other either way."""
    graph: dict[str, set[str]] = {package_of(name, modules): set() for name in modules}
    because: dict[tuple[str, str], str] = {}
    for name, path in sorted(modules.items()):
        for imported in sorted(imports_of(path)):
            if imported in modules and (edge := (package_of(name, modules), package_of(imported, modules)))[0] != edge[1]:
                graph[edge[0]].add(edge[1])
                because.setdefault(edge, f"{name} imports {imported}")
    cycle = _find_cycle(graph)
    return None if cycle is None else "; ".join(because[step] for step in pairwise(cycle))


def test_no_import_loop_between_packages():
    modules = _modules()
    assert len({package_of(m, modules) for m in modules}) > 20  # the walk saw the packages
    assert package_loop(modules) is None


def test_a_planted_import_loop_between_packages_fails_the_check(code_copy):
    assert package_loop(_modules(code_copy)) is None  # the copy passes, as the code does
    # the view is read by the renderers; a view module that reads a renderer closes a loop (of modules that
    # themselves import nothing of each other: the module-level cycle check alone would not see it)
    (code_copy / "pipeline" / "view" / "planted.py").write_text('"""Planted."""\n\ndef f():\n    from pipeline.render import bank\n')
    loop = package_loop(_modules(code_copy))
    assert loop is not None and any(step.startswith("pipeline.view.planted imports pipeline.render") for step in loop.split("; "))


def root_modules(root: Path = ROOT) -> list[str]:
    return sorted(p.name for p in (root / "pipeline").glob("*.py"))


def test_the_package_root_holds_at_most_six_modules():
    found = root_modules()
    assert "__main__.py" in found  # the walk saw the root
    assert len(found) <= MAX_ROOT_MODULES, found


def test_a_planted_module_at_the_root_fails_the_count(tmp_path):
    (tmp_path / "pipeline").mkdir()
    for name in ("__init__.py", "__main__.py", "a.py", "b.py", "c.py", "d.py"):
        (tmp_path / "pipeline" / name).write_text('"""A module."""\n')
    assert len(root_modules(tmp_path)) <= MAX_ROOT_MODULES  # six pass
    (tmp_path / "pipeline" / "planted.py").write_text('"""One more."""\n')
    assert len(root_modules(tmp_path)) == MAX_ROOT_MODULES + 1 > MAX_ROOT_MODULES


def test_imports_of_other_test_modules(tmp_path):
    """Shared helpers live in tests/kit/: a test module never imports another,
    so each runs alone and a helper has one home. Checked on the real tests, and shown to fail on a planted one."""
    assert _test_module_imports(ROOT / "tests") == []
    (tmp_path / "test_a.py").write_text("from tests.test_b import helper\nfrom .test_c import other\nimport tests.kit.pdf\n")
    assert _test_module_imports(tmp_path) == ["test_a.py imports .test_c", "test_a.py imports tests.test_b"]


def _test_module_imports(folder: Path) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else (
                ["." * node.level + (node.module or "")] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(folder)} imports {name}" for name in names
                      if name.rsplit(".", 1)[-1].startswith("test_") or ".test_" in name]
    return sorted(found)



def test_shared_test_helpers_have_one_home():
    """Beside the test modules, tests/ holds only conftest.py and the package marker: every helper is in tests/kit/."""
    assert _stray_helpers(ROOT / "tests") == []
    assert len(list((ROOT / "tests" / "kit").glob("*.py"))) > 10  # where they went


def test_a_helper_beside_the_tests_is_found(tmp_path):
    for name in ("test_a.py", "conftest.py", "__init__.py", "helperkit.py"):
        (tmp_path / name).write_text('"""x"""\n')
    assert _stray_helpers(tmp_path) == ["helperkit.py"]


def _stray_helpers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.py") if not p.name.startswith("test_") and p.name not in {"conftest.py", "__init__.py"})

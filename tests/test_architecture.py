"""The stages stay apart: renderers read only the exam view; no import cycles among the pipeline's modules."""

from __future__ import annotations

import ast
from pathlib import Path

from pipeline.paths import ROOT

PIPELINE = ROOT / "pipeline"
# What a renderer must not reach for: the view has already settled all of it.
FORBIDDEN_IN_RENDERERS = ("pipeline.citations.lock", "pipeline.today", "pipeline.load", "pipeline.derive.build", "pipeline.check", "yaml")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
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


def test_renderers_import_neither_the_lock_nor_today_nor_the_loader_nor_yaml():
    offenders = []
    for path in sorted((PIPELINE / "render").rglob("*.py")):
        for name in sorted(imports_of(path)):
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_IN_RENDERERS):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_the_forbidden_list_would_catch_an_offender(tmp_path):
    sample = tmp_path / "x.py"
    sample.write_text("from pipeline.citations.lock import CitationLock\nimport yaml\n")
    assert {"pipeline.citations.lock", "yaml"} <= imports_of(sample)


def test_no_import_cycles_at_module_level():
    """Module-level imports among pipeline modules form no cycle (imports under TYPE_CHECKING do not count)."""
    modules = {module_name(p): p for p in PIPELINE.rglob("*.py")}
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

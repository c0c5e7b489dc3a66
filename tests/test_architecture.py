"""The packages follow the pipeline: imports run one way, with no cycle and nothing loaded by
a string. The layers, lowest first; a module may import its own layer and the ones below.

    0  ingest                      parsers, submission reader, units, vocabulary, registry
    0  perfwh.core                 paths, files, commit, lock, progress
    1  perfwh.warehouse            sources, load, schema, Parquet, queries
    2  perfwh.quality              rules, Great Expectations, typo repair
    3  models                      the fitting library (ingest only: see below)
    4  perfwh.stages               build, check, add, models stage
    5  perfwh.publish              notebooks, pages, site renderer
    6  perfwh.cli                  argument parsing and printing
"""
from __future__ import annotations

import ast
from pathlib import Path

from perfwh.core.paths import PROJECT_ROOT

LAYERS = [("ingest", 0), ("perfwh.core", 0), ("perfwh.warehouse", 1), ("perfwh.quality", 2),
          ("models", 3), ("perfwh.stages", 4), ("perfwh.publish", 5), ("perfwh.cli", 6)]
# Packages with a narrower rule: ingest and perfwh.core import nothing of ours; models is a
# library beside the stages that may import ingest and nothing of perfwh.
ALLOWED_EXTRA = {"ingest": set(), "perfwh.core": set(), "models": {"ingest"}}
PACKAGES = ("ingest", "perfwh", "models")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES
            for p in sorted((PROJECT_ROOT / package).rglob("*.py"))}


def imports_of(name: str, path: Path) -> set[str]:
    """Every project module ``name`` imports, at module level or inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[:len(parent) - (node.level - 1)] if node.level > 1 else parent
                base = ".".join(parent + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    known = modules()
    return {m for m in found if m in known and m != name}


def layer_of(name: str) -> tuple[str, int]:
    matches = [(prefix, level) for prefix, level in LAYERS
               if name == prefix or name.startswith(prefix + ".")]
    if not matches:
        return ("perfwh", -1)  # perfwh/__init__.py: a docstring only
    return max(matches, key=lambda m: len(m[0]))


def test_every_module_has_a_layer():
    unplaced = [m for m in modules() if layer_of(m)[1] < 0 and m != "perfwh"]
    assert not unplaced


def allowed(importer: str, imported: str) -> bool:
    own_prefix, own = layer_of(importer)
    prefix, level = layer_of(imported)
    if own_prefix in ALLOWED_EXTRA:
        return prefix == own_prefix or prefix in ALLOWED_EXTRA[own_prefix]
    return level <= own


def test_the_layer_rule_itself():
    assert allowed("perfwh.stages.add", "perfwh.quality.rules")
    assert allowed("perfwh.stages.models", "models.tables")
    assert not allowed("perfwh.quality.rules", "perfwh.stages.build")
    assert not allowed("models.tables", "perfwh.warehouse.db")
    assert not allowed("ingest.wbimb", "perfwh.core.paths")
    assert allowed("models.sizing", "ingest.units")


def test_imports_only_go_down_the_pipeline():
    upward = [f"{name} (layer {layer_of(name)[1]}) -> {target} (layer {layer_of(target)[1]})"
              for name, path in modules().items() for target in sorted(imports_of(name, path))
              if not allowed(name, target)]
    assert not upward, "\n".join(upward)


def test_no_import_cycle():
    graph = {name: imports_of(name, path) for name, path in modules().items()}
    # packages import their own __init__ implicitly; cycles through them count too
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(trail[trail.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert not cycles, "\n".join(cycles)


def test_no_module_is_loaded_by_a_string():
    """importlib and __import__ hide dependencies from this test; only the family registry,
    which lists its own package, may use them."""
    offenders = []
    for name, path in modules().items():
        text = path.read_text(encoding="utf-8")
        if ("importlib" in text or "__import__(" in text) and name != "ingest.families":
            offenders.append(name)
    assert not offenders


def test_the_product_never_imports_the_tests():
    for name, path in modules().items():
        assert not any(t == "tests" or t.startswith(("tests.", "support")) for t in
                       _all_imports(path)), name


def _all_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
    return out

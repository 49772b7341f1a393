"""The package's rooms, checked from its import statements.

Layers, lowest first: models <- solver <- analysis <- puzzles <- survey <- serve
<- cli (the web server is as thin as the CLI, and the CLI starts it). A module
may import its own layer and the layers below, never above. Inside a layer,
each game has a room (``the_game``, ``mind``, ``nimmt``, ``cento``): a room
may import the shared modules of any layer below and its own game's rooms,
never another game's. No two modules import each other, directly or round a
longer cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent / "thegame"
LAYERS = ("models", "solver", "analysis", "puzzles", "survey", "serve", "cli")
GAMES = ("the_game", "mind", "nimmt", "cento")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every ``thegame`` module ``path`` imports (top level or inside functions)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("thegame"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("thegame"):
                continue
            out.add(target)
            # ``from . import placement`` imports a module, not a name.
            for alias in node.names:
                if (ROOT.parent / Path(*f"{target}.{alias.name}".split("."))).with_suffix(
                    ".py"
                ).exists():
                    out.add(f"{target}.{alias.name}")
    return out


def graph() -> nx.DiGraph:
    g: nx.DiGraph = nx.DiGraph()
    for path in ROOT.rglob("*.py"):
        src = module_name(path)
        g.add_node(src)
        for dst in imports_of(path):
            if dst != src and not src.startswith(dst + "."):  # a package's own __init__
                g.add_edge(src, dst)
    return g


def layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def game(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[2] in GAMES else None


def game_of_cli(module: str) -> str | None:
    """``thegame.cli.mind`` is The Mind's room too (one module per game group)."""
    parts = module.split(".")
    if len(parts) == 3 and parts[1] == "cli" and parts[2] in GAMES:
        return parts[2]
    return game(module)


def test_the_graph_sees_the_package() -> None:
    g = graph()
    assert "thegame.models.the_game.state" in g
    assert g.has_edge("thegame.solver.the_game.kernel", "thegame.models.the_game")
    assert g.has_edge("thegame.models.the_game.state", "thegame.models.the_game.placement")
    # The server is a layer of its own: its imports are checked like the CLI's.
    assert g.has_edge("thegame.serve.jobs", "thegame.solver.the_game.portfolio")
    assert layer("thegame.serve.app") == LAYERS.index("serve") < LAYERS.index("cli")


def test_no_layer_imports_a_layer_above_it() -> None:
    wrong = [
        (src, dst)
        for src, dst in graph().edges
        if (a := layer(src)) is not None and (b := layer(dst)) is not None and b > a
    ]
    assert not wrong, wrong


def test_no_game_imports_another_games_room() -> None:
    wrong = [
        (src, dst)
        for src, dst in graph().edges
        if (a := game_of_cli(src)) is not None
        and (b := game_of_cli(dst)) is not None
        and a != b
    ]
    assert not wrong, wrong


def test_shared_modules_import_no_game() -> None:
    """errors, seeds, outcome, cli.common: every game builds on them."""
    shared = {
        "thegame.models.errors",
        "thegame.models.seeds",
        "thegame.models.outcome",
        "thegame.models.jsonio",
        "thegame.models.interrupt",
        "thegame.models.words",
        "thegame.cli.common",
    }
    wrong = [(src, dst) for src, dst in graph().edges if src in shared and game(dst)]
    assert not wrong, wrong


def test_no_import_cycles() -> None:
    g = graph()
    # A package's __init__ re-exporting its modules is not a cycle of design.
    for src, dst in list(g.edges):
        if dst.startswith(src + "."):
            g.remove_edge(src, dst)
    cycles = list(nx.simple_cycles(g))
    assert not cycles, cycles[:5]

"""Size limits of the code: short modules and functions a reader can hold.

Counted over the package's Python and C sources: no module over 600 lines,
no function over 100 lines, and at most six over 60.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "thegame"
MODULE_LINES = 600
FUNCTION_LINES = 100
LONG = 60
MAX_LONG = 6

# A C function definition starts at column 0 with its name and parameters
# and ends at the first closing brace in column 0.
C_START = re.compile(r"^[A-Za-z_][\w \*]*\b(\w+)\s*\([^;]*$")


def sources() -> list[Path]:
    return sorted(
        p for ext in ("*.py", "*.c", "*.h", "*.js") for p in ROOT.rglob(ext) if p.is_file()
    )


def python_functions(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (
            f"{path.relative_to(ROOT)}:{node.name}",
            (node.end_lineno or node.lineno) - node.lineno + 1,
        )
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def c_functions(path: Path) -> list[tuple[str, int]]:
    found, name, start = [], "", 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = C_START.match(line)
        if m and not start and not line.startswith(("typedef", "struct", "enum", "static const")):
            name, start = m.group(1), n
        elif line.startswith("}") and start:
            found.append((f"{path.relative_to(ROOT)}:{name}", n - start + 1))
            start = 0
    return found


def functions() -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for path in sources():
        if path.suffix == ".py":
            out += python_functions(path)
        elif path.suffix in (".c", ".h"):
            out += c_functions(path)
    return out


def test_no_module_is_over_600_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in sources()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert not long, long


def test_functions_are_short() -> None:
    sizes = functions()
    over = sorted((n, name) for name, n in sizes if n > LONG)
    assert all(n <= FUNCTION_LINES for n, _ in over), over
    assert len(over) <= MAX_LONG, over


def test_the_counter_sees_both_languages() -> None:
    # The limits mean nothing if the counter finds no functions.
    names = {name.rsplit(":", 1)[1] for name, _ in functions()}
    assert {"moves", "dfs", "solve"} <= names
    c = [name for name, _ in functions() if name.split(":")[0].endswith(".c")]
    assert len(c) > 50

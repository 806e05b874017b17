"""The engine knows no Django (style.md): no module in scoring/engine imports Django,
Django REST framework or Celery, directly or through ``__import__``/``importlib``."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "scoring" / "engine"
FORBIDDEN = ("django", "rest_framework", "celery")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = getattr(func, "id", getattr(func, "attr", ""))
            if name in ("__import__", "import_module") and isinstance(node.args[0],
                                                                      ast.Constant):
                names.append(str(node.args[0].value))
    return names


def test_engine_modules_exist():
    assert len(list(ENGINE.glob("*.py"))) >= 5


def test_no_engine_module_imports_django_drf_or_celery():
    bad = [
        (path.name, name)
        for path in sorted(ENGINE.glob("*.py"))
        for name in _imports(path)
        if name.split(".")[0] in FORBIDDEN
    ]
    assert bad == []


def test_importing_the_engine_loads_no_django():
    code = ("import sys, scoring.engine, scoring.__main__; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            f"{FORBIDDEN!r}))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ENGINE.parents[1], check=True, timeout=60)
    assert proc.stdout.strip() == "[]"

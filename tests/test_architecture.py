"""The import graph keeps its layers: a new import cycle fails here, naming the modules.

Read with grimp (the import graph library behind import-linter), without importing any
of the code. What holds, and is kept:

- the layers: ``tournaments`` (the Django app) may import ``boards`` and ``scoring``;
  ``boards`` may import ``scoring``; ``scoring`` (the pure engine) imports neither;
- ``boards`` is a library, as ``scoring`` is: it imports no Django, DRF or Celery and is
  no Django app (no models, migrations, admin or commands: the ``Board`` model, its admin
  and the ``movement`` command live in ``tournaments``);
- no model points at another app's model, but Django's own (the user): the apps do not
  refer to each other by name either, where an import graph cannot see;
- no module imports itself back through any chain of imports (no module cycle);
- within ``tournaments`` no two of its parts (``services``, ``selectors``, ``reports``,
  ``web``, …) import each other, however indirectly;
- printing: ``tournaments.reports.tasks`` imports ``tournaments.reports.services``,
  never the reverse (the task lives with its service: see tournaments/reports/README.md).

Known exceptions, kept as they are today, are listed in ``KNOWN_PART_CYCLES`` with the
reason each is not a cycle of modules: remove an entry when it goes; a NEW one fails.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import grimp
import pytest
from django.apps import apps

PACKAGES = ("scoring", "boards", "tournaments", "config")
LAYERS = ("tournaments", "boards", "scoring")  # each may import those after it, not before

# (importer part, imported part) pairs allowed although the reverse import also exists.
KNOWN_PART_CYCLES = {
    # config.urls mounts the app's URLs and its health check, and the app sends Celery
    # tasks through config.celery, the Celery app, which imports no project module: a
    # loop of packages, not of modules.
    ("tournaments", "config"),
    ("config", "tournaments"),
}
LIBRARY_MUST_NOT_IMPORT = ("django", "rest_framework", "celery")


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def _cycles(nodes, edges_of) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges_of(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges_of(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_the_layers_import_downwards_only(graph):
    illegal = graph.find_illegal_dependencies_for_layers(layers=LAYERS)
    found = [f"{d.importer} imports {d.imported}: "
             + "; ".join(" → ".join(route.middle or ()) or "directly" for route in d.routes)
             for d in illegal]
    assert not found, found


def test_boards_is_a_library_importing_no_django(graph):
    library = grimp.build_graph("boards", "scoring", include_external_packages=True,
                                cache_dir=None)
    found = sorted((module, imported)
                   for module in library.find_descendants("boards") | {"boards"}
                   for imported in library.find_modules_directly_imported_by(module)
                   if imported.split(".")[0] in LIBRARY_MUST_NOT_IMPORT)
    assert not found, found
    # Nor anything of the app or of the project's configuration, however indirectly.
    above = {m for m in graph.find_upstream_modules("boards", as_package=True)
             if m.split(".")[0] in ("tournaments", "config")}
    assert not above, above


def test_boards_is_no_django_app():
    boards = Path(__file__).resolve().parents[1] / "boards"
    assert not [config.name for config in apps.get_app_configs()
                if Path(config.path).resolve().is_relative_to(boards)]
    # The label "boards" lives on only to keep its migration history (see
    # tournaments/boards_history): no models.
    history = apps.get_app_config("boards")
    assert history.name == "tournaments.boards_history"
    assert not list(history.get_models())
    assert not [p.name for p in boards.rglob("*") if p.name in (
        "models.py", "admin.py", "apps.py", "migrations", "management")]


def test_no_model_points_at_another_apps_model():
    """A foreign key between two of our apps ties them together where no import shows
    it (a model named by a string, and migrations depending on each other's)."""
    ours = [config for config in apps.get_app_configs()
            if config.name.split(".")[0] in PACKAGES]
    found = sorted(
        f"{model._meta.label}.{field.name} → {field.related_model._meta.label}"
        for config in ours for model in config.get_models()
        for field in model._meta.get_fields()
        if field.is_relation and field.concrete
        and field.related_model._meta.app_label != config.label
        and not field.related_model._meta.app_config.name.startswith("django."))
    assert not found, found


def test_no_module_imports_itself_back(graph):
    cycles = _cycles(graph.modules, graph.find_modules_directly_imported_by)
    assert not cycles, cycles


def _part(module: str) -> str:
    """A package's part: tournaments.reports.services → tournaments.reports."""
    return ".".join(module.split(".")[:2])


def test_no_two_parts_import_each_other(graph):
    edges: dict[str, set[str]] = defaultdict(set)
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            a, b = _part(module), _part(imported)
            if a != b:
                edges[a].add(b)
    cycles = _cycles({_part(m) for m in graph.modules}, lambda part: edges[part])
    assert not cycles, cycles
    # The top-level packages too, but for the known exceptions.
    tops: dict[str, set[str]] = defaultdict(set)
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            a, b = module.split(".")[0], imported.split(".")[0]
            if a != b and (a, b) not in KNOWN_PART_CYCLES:
                tops[a].add(b)
    cycles = _cycles(set(PACKAGES), lambda top: tops[top])
    assert not cycles, cycles


def test_the_config_celery_exception_is_still_only_the_celery_app(graph):
    """The known config ↔ tournaments loop goes through config.celery alone, which
    imports no project module (so it can never close a cycle of modules)."""
    into_config = {imported for module in graph.modules if module.startswith("tournaments")
                   for imported in graph.find_modules_directly_imported_by(module)
                   if imported.split(".")[0] == "config"}
    assert into_config <= {"config.celery"}, into_config
    assert not {m for m in graph.find_modules_directly_imported_by("config.celery")
                if m.split(".")[0] in PACKAGES}


def test_the_print_task_imports_its_service_and_never_the_reverse(graph):
    assert graph.chain_exists(importer="tournaments.reports.tasks",
                              imported="tournaments.reports.services")
    assert not graph.chain_exists(importer="tournaments.reports.services",
                                  imported="tournaments.reports.tasks")


def test_the_guard_finds_a_cycle():
    """The cycle finder itself: a → b → c → a is found, a chain is not."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(edges, lambda n: edges[n]) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}, lambda n: {"a": {"b"}, "b": set()}[n]) == []

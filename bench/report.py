"""The one table the bench prints, and docs/benchmarks.md with the machine it ran on."""

from __future__ import annotations

import datetime
import os
import platform
from dataclasses import dataclass, field
from pathlib import Path

MET = "met"
MISSED = "MISSED"
NOT_MEASURED = "not measured"


@dataclass
class Figure:
    """One row: what was measured, its floor and ratio when it has one, the goal, a verdict."""

    name: str
    result: str
    floor: str = "—"
    ratio: str = "—"
    goal: str = "—"
    verdict: str = ""  # MET, MISSED, NOT_MEASURED, or "" where there is no goal
    notes: str = ""
    # For a goal missed: what bounds the figure, measured (its own section of the file).
    bound: str = ""

    @classmethod
    def not_measured(cls, name: str, goal: str, why: str) -> Figure:
        return cls(name=name, result=f"not measured: {why}", goal=goal, verdict=NOT_MEASURED)


def verdict(ok: bool) -> str:
    return MET if ok else MISSED


@dataclass
class Machine:
    cpu: str
    cores: int
    memory: str
    python: str
    postgresql: str
    date: str
    extra: dict[str, str] = field(default_factory=dict)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def memory_total() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                kib = int(line.split()[1])
                return f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return "unknown"


def machine(postgresql: str, extra: dict[str, str] | None = None) -> Machine:
    return Machine(
        cpu=cpu_model(),
        cores=os.cpu_count() or 0,
        memory=memory_total(),
        python=f"{platform.python_implementation()} {platform.python_version()}",
        postgresql=postgresql,
        date=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        extra=extra or {},
    )


COLUMNS = ("figure", "result", "floor (same run)", "ratio", "goal", "verdict", "notes")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(figures: list[Figure]) -> str:
    """The figures as a Markdown table (it reads well in a terminal too)."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for f in figures:
        cells = (f.name, f.result, f.floor, f.ratio, f.goal, f.verdict, f.notes)
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines)


def machine_lines(m: Machine) -> list[str]:
    lines = [
        f"- CPU: {m.cpu}, {m.cores} cores",
        f"- Memory: {m.memory}",
        f"- Python: {m.python}",
        f"- PostgreSQL: {m.postgresql}",
        f"- Date: {m.date}",
    ]
    lines.extend(f"- {key}: {value}" for key, value in m.extra.items())
    return lines


def markdown(figures: list[Figure], m: Machine, notes: list[str], *, quick: bool) -> str:
    title = "# Benchmarks" + (" (quick run: small sizes, not the real figures)" if quick else "")
    parts = [
        title,
        "",
        "Written by `make bench` (`python -m bench`); do not edit by hand. Benchmarks "
        "report, they do not fail: a goal not reached is marked MISSED.",
        "",
        "## Machine",
        "",
        *machine_lines(m),
        "",
        "## Figures",
        "",
        table(figures),
        "",
    ]
    bounds = [f"- **{f.name}**: {_cell(f.bound)}" for f in figures if f.bound]
    if bounds:
        parts += [f"## {BOUNDS}", "", *bounds, ""]
    if notes:
        parts += ["## Notes", "", *[f"- {n}" for n in notes], ""]
    return "\n".join(parts)


BOUNDS = "What bounds the goals missed"


def _section(text: str, title: str) -> str:
    """The body of section `title` of a benchmarks.md ("" when it has none)."""
    if f"\n## {title}\n" not in text:
        return ""
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _bounds(text: str) -> list[tuple[str, str]]:
    """The bounds section of a benchmarks.md: (figure name, its line), in order."""
    return [(line[4:].split("**", 1)[0], line) for line in _section(text, BOUNDS).splitlines()
            if line.startswith("- **")]


def _rows(text: str) -> list[tuple[str, str]]:
    """The figures table of a benchmarks.md: (figure name, the row's line), in order."""
    section = text.split("## Figures", 1)[-1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    return [(line[2:].split(" | ", 1)[0], line) for line in lines[1:]]


def merge(previous: str, text: str) -> str:
    """A run of some parts: its text, with the rows it did not measure kept from the
    previous file, in the previous file's order (a figure the previous file did not have
    goes before the next figure of this run that it had)."""
    previous_rows = _rows(previous)
    known = {name for name, _line in previous_rows}
    before: dict[str | None, list[str]] = {}
    waiting: list[str] = []
    for name, line in _rows(text):
        if name in known:
            before[name], waiting = waiting, []
        else:
            waiting.append(line)
    by_name = dict(_rows(text))
    merged: list[str] = []
    for name, line in previous_rows:
        if name in by_name:
            merged += [*before.get(name, []), by_name[name]]
        else:
            merged.append(line)
    merged += waiting
    head, rest = text.split("## Figures", 1)
    table_lines = [line for line in rest.split("\n## ", 1)[0].splitlines()
                   if line.startswith("|")]
    text = head + "## Figures" + rest.replace(
        "\n".join(table_lines), "\n".join([*table_lines[:2], *merged]), 1)
    return _merge_bounds(previous, text, measured=set(by_name))


def _merge_bounds(previous: str, text: str, *, measured: set[str]) -> str:
    """`text` with the bounds of the figures it did not measure kept from `previous`, in
    the previous file's order (a figure this run measured says its own, or none now that
    its goal is met)."""
    ours = dict(_bounds(text))
    lines = []
    for name, line in _bounds(previous):
        if name not in measured:
            lines.append(line)
        elif name in ours:
            lines.append(ours.pop(name))
    lines += ours.values()
    marker = f"\n## {BOUNDS}\n"
    if marker in text:
        head, rest = text.split(marker, 1)
        tail = rest.split("\n## ", 1)[1] if "\n## " in rest else ""
        text = head.rstrip("\n") + "\n" + ("\n## " + tail if tail else "")
    if not lines:
        return text
    section = f"\n## {BOUNDS}\n\n" + "\n".join(lines) + "\n"
    head, notes = (text.split("\n## Notes\n", 1) + [""])[:2]
    return (head.rstrip("\n") + "\n" + section
            + (f"\n## Notes\n{notes}" if notes else ""))


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# --- number formats --------------------------------------------------------------------------


def ms(seconds: float) -> str:
    value = seconds * 1000
    return f"{value:.1f} ms" if value < 100 else f"{value:,.0f} ms"


def secs(seconds: float) -> str:
    return f"{seconds:.2f} s"


def ratio(value: float) -> str:
    return f"{value:.2f}×"


def mib(n_bytes: float) -> str:
    return f"{n_bytes / 1024 / 1024:,.0f} MiB"

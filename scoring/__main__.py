"""``python -m scoring score [--rules american-1913|english|duplicate-whist]``, and
``python -m scoring rubber --game auction|three-hand|whist [--rules american-1913|english]``.

Reads one deal result (a JSON object) or a JSON array of them on standard input and
writes the deal scores, one object for an object, an array for an array, in the
same order (docs/interfaces.md §1). Exit 0.

Bad input: exit 2, nothing on standard output, and one JSON object on standard error:
``{"error": "...", "index": i, "field": "..."}`` naming the first bad result (its
place in the array, 0 for a single object) and the dotted path of the bad field.
Input that is not JSON at all, or neither an object nor an array, is reported with
index 0 and field "" (the input as a whole). A bad command line is reported the same
way with index null and field "--rules" or "command"; an option without a value, or given
twice ("--rules is given twice; give it once"), is a bad command line naming the option.
No traceback, for any input.

The input is read strictly (interfaces.md §1 as written): an optional key may be left
out but is never null (``contract`` null is the passed-out deal, under the English
rule); a passed-out deal has no tricks (left out, or 0); and a key given twice in one
object, at any depth, is refused ("board is given twice; give it once"), naming the first
result (deal) it is in, where a JSON parser would keep the last one silently. The
product's own paths (the night file, the API, the pad) call the engine without
``strict``.

``rubber`` (docs/interfaces.md §5) reads a JSON array of the deals of one rubber, in the
order played, and writes one JSON object; a bad deal is reported the same way, ``index``
naming the deal (a deal after the rubber was won included), and a bad command line
with field "--game", "--rules" or "command" (its options are read as those of ``score``).
"""

from __future__ import annotations

import gc
import json
import sys
from typing import IO

from scoring.engine import (
    RUBBER_GAMES,
    RUBBER_RULE_SETS,
    RULE_SET_NAMES,
    ResultError,
    RubberError,
    get_rules,
    score_rubber,
)
from scoring.engine.auction import part_json, parts_of
from scoring.engine.validate import auction_values, parse_result
from scoring.engine.whist import whist_json

USAGE = (
    "usage: python -m scoring score [--rules american-1913|english|duplicate-whist]"
    " < results.json > scores.json"
)
RUBBER_USAGE = (
    "usage: python -m scoring rubber --game auction|three-hand|whist"
    " [--rules american-1913|english] < rubber.json > rubber-score.json"
)


class _Bad(Exception):
    """Bad input: the error object to write on standard error."""

    def __init__(self, error: str, index: int | None, field: str) -> None:
        super().__init__(error)
        self.payload = {"error": error, "index": index, "field": field}


def _options(args: list[str], names: tuple[str, ...], usage: str) -> dict[str, str]:
    """The options of a command line by name, each given as ``--name value`` or
    ``--name=value``, at most once. _Bad naming the option for one given twice or without
    a value (nothing after it, or another option), and naming "command" for any other
    argument. The values are not checked here."""
    found: dict[str, str] = {}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        name, equals, value = arg.partition("=")
        if name not in names:
            raise _Bad(f"unexpected argument {arg[:40]!r}; {usage}", None, "command")
        if name in found:
            raise _Bad(f"{name} is given twice; give it once", None, name)
        if not equals and rest and not rest[0].startswith("--"):
            value = rest.pop(0)
        if not value:
            raise _Bad(f"{name} needs a value; {usage}", None, name)
        found[name] = value
    return found


def _parse_args(argv: list[str]) -> str:
    """The rule set name from the command line."""
    if not argv or argv[0] != "score":
        raise _Bad(f"unknown command; {USAGE}, or {RUBBER_USAGE[len('usage: '):]}", None,
                   "command")
    rules = _options(argv[1:], ("--rules",), USAGE).get("--rules", "american-1913")
    if rules not in RULE_SET_NAMES:
        raise _Bad(f"unknown rule set {rules[:40]!r}: choose one of "
                   f"{', '.join(RULE_SET_NAMES)}", None, "--rules")
    return rules


def _parse_rubber_args(argv: list[str]) -> tuple[str, str | None]:
    """The game and the rule set name (None when not given) of ``rubber``."""
    options = _options(argv[1:], ("--game", "--rules"), RUBBER_USAGE)
    game = options.get("--game")
    rules = options.get("--rules")
    if game is None:
        raise _Bad(f"say which game the rubber is: --game {'|'.join(RUBBER_GAMES)}", None,
                   "--game")
    if game not in RUBBER_GAMES:
        raise _Bad(f"unknown game {game[:40]!r}: choose one of {', '.join(RUBBER_GAMES)}",
                   None, "--game")
    if rules is not None and game == "whist":
        raise _Bad("whist has one code of laws: leave --rules out", None, "--rules")
    if rules is not None and rules not in RUBBER_RULE_SETS:
        raise _Bad(f"unknown rule set {rules[:40]!r} for a rubber: choose one of "
                   f"{', '.join(RUBBER_RULE_SETS)}", None, "--rules")
    return game, rules


def rubber_document(doc: object, game: str, rules_name: str | None,
                    given_twice: bool = False) -> str:
    """The score of one rubber (a parsed document) as JSON text; _Bad for the first bad
    deal. ``given_twice``: some object of the document has a key given twice (_load)."""
    twice = _first_given_twice(doc) if given_twice and isinstance(doc, list) else None
    if twice is not None:
        # The deals before the first with a key given twice are scored first: a bad one
        # among them (or one after the rubber was won) is the first bad deal.
        rubber_document(doc[:twice[0]], game, rules_name)
        raise _twice_error(*twice)
    try:
        result = score_rubber(game, doc, rules_name or "american-1913", strict=True)
    except RubberError as exc:
        raise _Bad(exc.message, exc.index, exc.field) from None
    except (MemoryError, RecursionError):
        raise
    except Exception as exc:  # noqa: BLE001 - a bug must still not show a traceback
        raise _Bad(f"internal error while scoring this rubber: {type(exc).__name__}", 0,
                   "") from None
    return json.dumps(result.to_dict(), separators=(",", ":"))


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number in JSON")


class _GivenTwice(dict):
    """A JSON object with a key given twice (``key``, the first such); it holds the
    last value of each key, as a plain parse would. Marks the object so that the result
    it is in can be named (the hook that makes it does not know where it is)."""

    __slots__ = ("key",)


def _marked(pairs: list[tuple[str, object]], obj: dict) -> _GivenTwice:
    """The object of ``pairs`` (``obj``, their dict) marked with its first key given
    twice."""
    seen: set[str] = set()
    twice = _GivenTwice(obj)
    for key, _ in pairs:
        if key in seen:
            twice.key = key
            break
        seen.add(key)
    return twice


def _given_twice(value: object) -> str | None:
    """The dotted field of the first key given twice in ``value`` (outer objects first,
    then each value in order), or None. Iterative: the nesting may be as deep as the
    JSON parser allows."""
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            if type(node) is _GivenTwice:
                return f"{path}.{node.key}" if path else node.key
            children = [(f"{path}.{key}" if path else key, child)
                        for key, child in node.items() if isinstance(child, (dict, list))]
        elif isinstance(node, list):
            children = [(f"{path}.{i}" if path else str(i), child)
                        for i, child in enumerate(node) if isinstance(child, (dict, list))]
        else:
            continue
        stack.extend(reversed(children))
    return None


def _first_given_twice(items: list) -> tuple[int, str] | None:
    """(index, field) of the first result (deal) that is an object holding a key given
    twice; None when there is none. A result that is not an object is left to the
    parser, which says what it must be."""
    for index, item in enumerate(items):
        if isinstance(item, dict):
            field = _given_twice(item)
            if field is not None:
                return index, field
    return None


def _twice_error(index: int, field: str) -> _Bad:
    shown = field if len(field) <= 60 else field[:60] + "..."
    return _Bad(f"{shown} is given twice; give it once", index, field)


def _load(raw: bytes | str) -> tuple[object, bool]:
    """The JSON document, and whether a key is given twice in one of its objects (then
    marked _GivenTwice); _Bad for the input as a whole."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise _Bad("the input is not UTF-8 text", 0, "") from None
    twice: list[bool] = []

    def pairs(items: list[tuple[str, object]]) -> dict:
        # Called for every object: kept short, as the command's time is mostly parsing.
        obj = dict(items)
        if len(obj) == len(items):
            return obj
        twice.append(True)
        return _marked(items, obj)

    try:
        return (json.loads(raw, parse_constant=_reject_constant, object_pairs_hook=pairs),
                bool(twice))
    except json.JSONDecodeError as exc:
        raise _Bad(f"the input is not valid JSON: {exc.msg} (line {exc.lineno}, "
                   f"column {exc.colno})", 0, "") from None
    except ValueError as exc:  # NaN/Infinity, or an integer of thousands of digits
        if "digits" in str(exc):
            raise _Bad("a number in the input has thousands of digits", 0, "") from None
        raise _Bad(f"the input is not valid JSON: {str(exc)[:80]}", 0, "") from None
    except RecursionError:
        raise _Bad("the input is not valid JSON: it is nested too deeply", 0, "") from None


def score_document(doc: object, rules_name: str, given_twice: bool = False) -> str:
    """The deal scores of a parsed document as JSON text; _Bad for the first bad result.
    ``given_twice``: some object of the document has a key given twice (_load)."""
    rules = get_rules(rules_name)
    single = isinstance(doc, dict)
    if not single and not isinstance(doc, list):
        raise _Bad("the input must be a deal result (a JSON object) or an array of them",
                   0, "")
    items = [doc] if single else doc
    twice = _first_given_twice(items) if given_twice else None
    if twice is not None:
        # The results before the first with a key given twice are checked first: a bad
        # one among them is the first bad result.
        score_document(items[:twice[0]], rules_name)
        raise _twice_error(*twice)
    out: list[str] = []
    append = out.append
    index = 0
    try:
        if rules.is_whist:
            for index, data in enumerate(items):  # noqa: B007 (index is used below)
                append(whist_json(parse_result(data, rules, strict=True)))  # type: ignore[arg-type]
        else:
            # The fields of each result go straight to the scorer: no AuctionResult is
            # built (the same checks and the same scoring as parse_result/score_result).
            for index, data in enumerate(items):  # noqa: B007 (index is used below)
                if type(data) is not dict:
                    parse_result(data, rules)  # raises the ResultError for a non-object
                append(part_json(parts_of(*auction_values(data, rules, strict=True), rules)))
    except ResultError as exc:
        raise _Bad(exc.message, index, exc.field) from None
    except (MemoryError, RecursionError):
        raise
    except Exception as exc:  # noqa: BLE001 - a bug must still not show a traceback
        raise _Bad(f"internal error while scoring this result: {type(exc).__name__}",
                   index, "") from None
    return out[0] if single else "[" + ",".join(out) + "]"


def main(
    argv: list[str] | None = None,
    stdin: IO | None = None,
    stdout: IO | None = None,
    stderr: IO | None = None,
) -> int:
    """Run the command; returns the exit code (0, or 2 for bad input)."""
    argv = sys.argv[1:] if argv is None else argv
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    if argv[:1] in (["-h"], ["--help"]) or argv[1:2] in (["-h"], ["--help"]):
        usage = {"score": USAGE, "rubber": RUBBER_USAGE}.get(argv[0] if argv else "",
                                                            f"{USAGE}\n{RUBBER_USAGE}")
        stdout.write(usage + "\n")
        return 0
    gc_was_enabled = gc.isenabled()
    # The command is short-lived and makes no cycles: the cyclic collector would only
    # walk the whole input again and again while the scores are built.
    gc.disable()
    try:
        if argv[:1] == ["rubber"]:
            game, rubber_rules = _parse_rubber_args(argv)
        else:
            rules_name = _parse_args(argv)
        buffer = getattr(stdin, "buffer", None)
        raw = buffer.read() if buffer is not None else stdin.read()
        doc, given_twice = _load(raw)
        if argv[:1] == ["rubber"]:
            text = rubber_document(doc, game, rubber_rules, given_twice)
        else:
            text = score_document(doc, rules_name, given_twice)
    except _Bad as bad:
        stderr.write(json.dumps(bad.payload) + "\n")
        return 2
    except (MemoryError, RecursionError):
        stderr.write(json.dumps({"error": "the input is too large or too deeply nested",
                                 "index": 0, "field": ""}) + "\n")
        return 2
    except Exception as exc:  # noqa: BLE001 - the contract is: never a traceback
        stderr.write(json.dumps({"error": f"internal error: {type(exc).__name__}",
                                 "index": 0, "field": ""}) + "\n")
        return 2
    finally:
        if gc_was_enabled:
            gc.enable()
    try:
        stdout.write(text + "\n")
        stdout.flush()
    except OSError:  # the reader went away (a closed pipe): nothing more to say
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Outside installer/hosts/, no code compares a host's name: what a host means is asked of its
adapter (installer/hosts/base.py). The comparisons left are listed here, file by file, so that none
is added and each one moved behind the adapter takes its line out (issue 37: the goal is none)."""
from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "installer"
HOST_NAMES = {"claude", "cursor", "opencode", "codex"}
STILL_NAMED: dict[str, int] = {}  # (issue 37: none left; a host's meaning is its adapter's)


def _names_a_host(node: ast.AST | None) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in HOST_NAMES
    if isinstance(node, (ast.Tuple, ast.Set, ast.List)):
        return any(_names_a_host(element) for element in node.elts)
    return False


def comparisons(source: str) -> int:
    """How many comparisons in `source` have a host's name on one side (`==`, `!=`, `in`...)."""
    return sum(1 for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Compare)
               and any(_names_a_host(side) for side in (node.left, *node.comparators)))


def test_a_comparison_with_a_host_name_is_counted_wherever_it_is_written():
    assert comparisons('if file.host == "cursor": pass') == 1
    assert comparisons('ok = host not in ("claude", "cursor")') == 1
    assert comparisons('ok = [f for f in files if "opencode" in f.kind]') == 1
    assert comparisons('host = hosts.get(name); ok = host.js_regex_matchers') == 0


def test_no_code_outside_the_hosts_folder_compares_a_host_name_but_the_listed_few():
    found = Counter()
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] != "hosts":
            count = comparisons(path.read_text(encoding="utf-8"))
            if count:
                found[relative.as_posix()] = count

    assert dict(found) == STILL_NAMED


def _host_lists(node: object) -> list[list[str]]:
    """Every list in a JSON document that names at least two hosts (an enum of agents)."""
    if isinstance(node, dict):
        return [found for value in node.values() for found in _host_lists(value)]
    if isinstance(node, list):
        named = [item for item in node if isinstance(item, str) and item in HOST_NAMES]
        return ([node] if len(named) >= 2 else []) + [found for item in node for found in _host_lists(item)]
    return []


def test_every_schema_that_lists_the_agents_lists_the_registrys_own():
    """A schema's enum of agents is written out as data: a host added to the registry and not to
    the schema is refused as invalid input (pack.schema.json once stopped at opencode)."""
    import json

    from installer.hosts import NAMES

    lists = {path.name: _host_lists(json.loads(path.read_text(encoding="utf-8")))
             for path in sorted((PACKAGE.parent / "schemas").glob("*.json"))}

    assert sum(map(len, lists.values())) >= 3
    assert {name: [found for found in found_lists if found != list(NAMES)]
            for name, found_lists in lists.items() if any(found != list(NAMES) for found in found_lists)} == {}

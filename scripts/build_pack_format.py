#!/usr/bin/env python3
"""Write the pack format into docs/your-own-hooks.md from schemas/pack.schema.json (a pack's
pack.toml) and schemas/pack-case.schema.json (its test cases), between the page's markers. A
test fails while the page and the schemas disagree; run this after changing either.

    python3 scripts/build_pack_format.py          # write the page
    python3 scripts/build_pack_format.py --check  # exit 1 if the page is stale
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "your-own-hooks.md"
COMMAND = "python3 scripts/build_pack_format.py"
START = "<!-- pack format: scripts/build_pack_format.py writes it from schemas/pack.schema.json -->"
END = "<!-- end of the pack format -->"


def _schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((REPO / "schemas" / name).read_text(encoding="utf-8"))
    return loaded


def _type(spec: dict[str, Any], defs: dict[str, Any]) -> str:
    """A field's type, in words a table cell holds."""
    if "$ref" in spec:
        return "table (below)"
    if "enum" in spec:
        return "one of " + ", ".join(f"`{value}`" for value in spec["enum"])
    if "const" in spec:
        return f"`{spec['const']}`"
    kind = spec.get("type", "any")
    if kind == "array":
        items = spec.get("items", {})
        return f"list of {_type(items, defs)}" if items else "list"
    if kind == "object" and "additionalProperties" in spec and isinstance(spec["additionalProperties"], dict):
        return "table of tables (below)"
    if isinstance(kind, list):
        return " or ".join(kind)
    text = {"string": "text", "boolean": "true or false", "number": "number", "object": "table", "integer": "whole number"}
    found = text.get(kind, kind)
    if "pattern" in spec:
        found += f" matching `{spec['pattern']}`"
    return found


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(title: str, spec: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    required = set(spec.get("required", []))
    lines = [f"**{title}**", "", "| key | required | type | what it is |", "| --- | --- | --- | --- |"]
    for key, field in spec.get("properties", {}).items():
        description = field.get("description", "")
        if "$ref" in field:
            description = description or defs[field["$ref"].rsplit("/", 1)[-1]].get("description", "")
        lines.append(f"| `{key}` | {'yes' if key in required else 'no'} | {_cell(_type(field, defs))} | "
                     f"{_cell(description)} |")
    return lines + [""]


def render_format() -> str:
    """The pack format as markdown: pack.toml's keys, a hook's, each agent's wiring table, an
    option's, and a test case's."""
    pack = _schema("pack.schema.json")
    defs = pack.get("$defs", {})
    hook = pack["properties"]["hooks"]["items"]
    option = pack["properties"]["options"]["additionalProperties"]
    case = _schema("pack-case.schema.json")
    lines = [START, ""]
    lines += _table("pack.toml", pack, defs)
    lines += _table("[[hooks]]: one hook", hook, defs)
    for key, field in hook["properties"].items():
        if "$ref" in field:
            target = defs[field["$ref"].rsplit("/", 1)[-1]]
            lines += _table(f"[hooks.{key}]: {field.get('description') or target.get('description', key)}", target,
                            defs)
    lines += _table("[options.NAME]: one option", option, defs)
    lines += _table("tests/NAME.json: one test case (`hookwright pack test`)", case, {})
    lines += _table("a test case's expect", case["properties"]["expect"], {})
    return "\n".join(lines + [END])


def rendered_page(page: str) -> str:
    start, end = page.index(START), page.index(END) + len(END)
    return page[:start] + render_format() + page[end:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale, writing nothing")
    args = parser.parse_args()
    page = PAGE.read_text(encoding="utf-8")
    wanted = rendered_page(page)
    if args.check:
        return 0 if wanted == page else 1
    PAGE.write_text(wanted, encoding="utf-8")
    print(f"wrote the pack format into {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

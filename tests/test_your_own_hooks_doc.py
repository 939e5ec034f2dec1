"""docs/your-own-hooks.md: the pack format in it is what scripts/build_pack_format.py writes from
the schemas, and the examples it shows are what those schemas take."""
from __future__ import annotations

import json
import re
import sys

from hookwright import resources

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

sys.path.insert(0, str(resources.data_root() / "scripts"))
import build_pack_format  # noqa: E402

PAGE = build_pack_format.PAGE


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)


def test_the_pack_format_on_the_page_is_what_the_schemas_generate():
    page = PAGE.read_text(encoding="utf-8")
    assert build_pack_format.rendered_page(page) == page, f"docs/your-own-hooks.md is stale: run {build_pack_format.COMMAND}"


def test_every_key_of_a_pack_and_of_a_hook_has_a_row_in_the_format():
    page = PAGE.read_text(encoding="utf-8")
    schema = resources.schema("pack.schema.json")
    for key in [*schema["properties"], *schema["properties"]["hooks"]["items"]["properties"]]:
        assert f"| `{key}` |" in page, key


def test_the_pages_test_case_and_team_list_are_what_their_schemas_take():
    [case] = _blocks("json")
    [team] = _blocks("toml")
    assert resources.schema_errors("pack-case.schema.json", json.loads(case)) == []
    assert resources.schema_errors("project-config.schema.json", tomllib.loads(team)) == []


def test_the_readme_leads_to_the_page_and_names_the_commands():
    readme = (resources.data_root() / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Your own hooks"):]
    assert "docs/your-own-hooks.md" in section
    assert all(f"hookwright {command}" in readme for command in ("pack new", "pack test", "update"))

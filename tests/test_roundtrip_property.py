"""For arbitrary valid settings documents, in arbitrary formatting: install then uninstall
gives back the same bytes, and a second install changes nothing.

Documents carry foreign hooks (known and unknown events, odd matchers), unknown keys,
unicode and escapes; formatting varies in indent (none, 2, 4, tab), separators, ASCII
escaping, final newline and line endings. Hosts covered: every host hookwright installs
into (today: Claude Code).
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hookwright.commands.install import install
from hookwright.commands.uninstall import uninstall
from hookwright.hosts.base import Scope
from hookwright.planning.apply import Consent
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

YES = Consent(yes=True)
EXAMPLES = 100
EVENTS = ["PreToolUse", "PostToolUse", "Stop", "SessionStart", "UserPromptSubmit", "FutureEvent"]
text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False,
                                                                         width=32) | text
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                      max_leaves=8)
handler = st.fixed_dictionaries({"type": st.just("command"), "command": text.filter(bool)},
                                optional={"timeout": st.integers(1, 600), "x-unknown": values})
group = st.fixed_dictionaries({"hooks": st.lists(handler, max_size=3)},
                              optional={"matcher": st.sampled_from(["Bash", "", "*", "Edit|Write", "mcp__.*", "ünï"])})
hooks = st.dictionaries(st.sampled_from(EVENTS), st.lists(group, max_size=3), max_size=4)
documents = st.dictionaries(text.filter(lambda k: k != "hooks"), values, max_size=4).flatmap(
    lambda base: st.one_of(st.just(base), hooks.map(lambda h: {**base, "hooks": h})))
layouts = st.fixed_dictionaries({
    "indent": st.sampled_from([None, 2, 4, "\t"]),
    "ensure_ascii": st.booleans(),
    "compact": st.booleans(),
    "final_newline": st.booleans(),
    "crlf": st.booleans(),
})


def render(document: dict, layout: dict) -> bytes:
    separators = (",", ":") if layout["compact"] and layout["indent"] is None else None
    out = json.dumps(document, indent=layout["indent"], ensure_ascii=layout["ensure_ascii"], separators=separators)
    if layout["final_newline"]:
        out += "\n"
    if layout["crlf"]:
        out = out.replace("\n", "\r\n")
    return out.encode("utf-8")


@pytest.mark.slow  # (a minute and a half: a hundred documents, each installed twice and uninstalled)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(document=documents, layout=layouts)
def test_install_then_uninstall_is_the_identity_and_install_is_idempotent(document, layout, monkeypatch):
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        monkeypatch.setenv("HOME", str(root / "home"))
        monkeypatch.setenv("XDG_STATE_HOME", str(root / "state"))
        project = root / "project"
        settings_file = project / ".claude" / "settings.json"
        settings_file.parent.mkdir(parents=True)
        original = render(document, layout)
        settings_file.write_bytes(original)
        where = dict(scope=Scope.project, project=project)

        first = install(["git-guard"], options=[], adopt=False, dry_run=False, consent=YES, **where)
        installed = settings_file.read_bytes()
        second = install(["git-guard"], options=[], adopt=False, dry_run=False, consent=YES, **where)
        assert (first.status, second.status) == ("applied", "unchanged")
        assert settings_file.read_bytes() == installed
        data = json.loads(installed)
        assert {k: v for k, v in data.items() if k != "hooks"} == {k: v for k, v in document.items() if k != "hooks"}

        removed = uninstall(["git-guard"], dry_run=False, consent=YES, **where)
        assert removed.status == "applied"
        assert json.loads(settings_file.read_bytes()) == document
        assert settings_file.read_bytes() == original

"""doctor on real configs copied from the corpus into tests/fixtures/doctor (see the README there):
runs without ../shared. Only the structure, matcher and host rules are pinned here; the command,
script and conflict rules have their own tests."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hookwright.doctor.run import run

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINE = ("structure/", "matcher/", "host/")

PINS = {
    "1Password__agent-hooks__.github__hooks__hooks.json": ("cursor-hooks", {"host/cursor-claude-event": 1}),
    "Mrsavage92__claude-config__settings.json": ("claude-settings", {"matcher/case-mismatch": 2}),
    "SuperfastSAT1600__claude-code-setup__.claude__settings.json": ("claude-settings", {"matcher/matches-nothing": 21}),
    "alexei-led__claude-code-config__dist__gemini__hooks__hooks.json": ("gemini-hooks", {"host/other-agent-format": 1}),
    "anthropics__claude-code__plugins__explanatory-output-style__hooks__hooks.json": ("claude-plugin-hooks", {}),
    # (a PreToolUse handler without a type: Claude Code ignores the whole file, measured on 2.1.332)
    "askb__dotclaude__settings.json": ("claude-settings", {"structure/group-hooks-missing": 1,
                                                           "structure/type-missing": 4,
                                                           "structure/guard-handler-breaks-file": 1}),
    "dkarter__k3s-cluster-apps__.opencode__plugin__env-protection.ts": ("opencode-plugin", {}),
    "mann1x__claude-hooks__.cursor__hooks.json": ("cursor-hooks", {"host/cursor-claude-event": 1}),
    "nightshift2k__claude-code-hooks__settings.json.example": ("claude-settings", {"structure/invalid-json": 1}),
    "onlyfeng__cursorx__.cursor__hooks.json": ("cursor-hooks", {"structure/handler-note-key": 9,
                                                                "structure/unknown-event": 1}),
    "spideynolove__claude-dotfiles__.agents-global__skills__rlm-workflow__docs__templates__hooks__hooks.json": (
        "claude-plugin-hooks", {"structure/top-level-event": 1}),
    "wasikarn__dotclaude__.claude__settings.json": ("claude-settings", {"structure/matcher-ignored": 7}),
    "yemreak__claude-code-hooks__file-locking__settings.json": ("claude-settings", {
        "structure/handler-string": 3, "structure/guard-handler-breaks-file": 1}),
    # from the install tests' fixtures: 27 handlers with timeouts in milliseconds, 3 with "once"
    "../claude-settings/hashbulla__dotclaude__settings.json": ("claude-settings",
                                                               {"structure/timeout-milliseconds": 27,
                                                                "structure/once-ignored": 3}),
}


def test_every_fixture_is_pinned():
    assert sorted(p.name for p in (FIXTURES / "doctor").iterdir() if p.is_file()) == sorted(
        n for n in PINS if "/" not in n)


@pytest.mark.parametrize("name", sorted(PINS))
def test_what_doctor_finds_in_a_real_config(name, tmp_path):
    kind, rules = PINS[name]
    outcome = run([FIXTURES / "doctor" / name], project=tmp_path)
    assert [f.kind for f in outcome.files] == [kind]
    assert dict(Counter(f.rule for f in outcome.findings if f.rule.startswith(MINE))) == rules


def test_nothing_is_read_twice_or_lost_when_all_fixtures_are_checked_at_once(tmp_path):
    paths = [FIXTURES / "doctor" / name for name in sorted(PINS)]
    outcome = run(paths, project=tmp_path)
    assert len(outcome.files) == len(PINS)
    total = Counter(f.rule for f in outcome.findings if f.rule.startswith(MINE))
    assert total == sum((Counter(rules) for _, rules in PINS.values()), Counter())

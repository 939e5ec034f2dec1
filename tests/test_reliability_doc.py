"""docs/reliability.md states counts; this keeps each of them equal to what the tests do."""
from __future__ import annotations

import re
from pathlib import Path

import test_bad_input
import test_concurrency
import test_crash
import test_pack_manifest
import test_roundtrip_property

DOC = (Path(__file__).resolve().parents[1] / "docs" / "reliability.md").read_text()


def table_value(label: str) -> int:
    match = re.search(r"^\| " + re.escape(label) + r" \| (\d+) \|$", DOC, re.M)
    assert match, f"docs/reliability.md has no row for {label!r}"
    return int(match.group(1))


def test_the_kill_point_counts_are_the_ones_the_crash_test_reaches(tmp_path):
    total = 0
    for name, (host, setup, command) in test_crash.SCENARIOS.items():
        root = tmp_path / name
        test_crash.make_world(root, host, setup)
        points, _, _ = test_crash.kill_points(root, host, command)
        assert table_value(name) == len(points), name
        total += len(points)
    assert f"Kill points in all: {total}." in DOC


def test_the_concurrency_and_bad_input_counts_match_the_tests():
    assert table_value("installer processes") == test_concurrency.WORKERS
    assert table_value("install/uninstall rounds per process") == test_concurrency.ROUNDS
    assert table_value("host writes (at least)") == test_concurrency.HOST_WRITES
    assert table_value("settings files, receipts, command lines") == len(test_bad_input.CASES) + len(
        test_bad_input.JSON_CASES)
    assert table_value("pack manifests") == len(test_pack_manifest.BAD)
    assert f"hypothesis, {test_roundtrip_property.EXAMPLES} generated documents" in DOC


def test_the_hostile_repository_counts_match_the_table_of_repositories():
    from collections import Counter

    import hostile_repos

    counts = Counter(repo.attack for repo in hostile_repos.REPOS)
    for attack, count in counts.items():
        assert table_value(attack) == count, attack
    assert f"Repositories in all: {len(hostile_repos.REPOS)}." in DOC

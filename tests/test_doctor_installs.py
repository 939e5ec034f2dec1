"""doctor checks hookwright's own installs against their receipts; install repairs them."""
import json

import pytest
from hookwright.doctor.run import run
from support import read_json, write_json


def install(hookwright, project, *extra):
    ran = hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes", *extra)
    assert ran.code == 0, ran.err
    return project / ".claude" / "hookwright" / "git-guard"


def install_rules(project):
    return sorted(f.rule for f in run(project=project, hosts=["claude"]).findings if f.rule.startswith("install/"))


def test_a_whole_install_gives_no_install_findings(hookwright, home, project):
    install(hookwright, project)

    assert install_rules(project) == []


@pytest.mark.parametrize("host", ["claude", "cursor"])
def test_every_bundled_pack_installed_is_a_config_doctor_finds_nothing_wrong_with(hookwright, home, project, host):
    """Our own runtimes pass their own checks: a pass-through the runtime library catches
    (`raise hw.PassThrough(...)` in the handler it is given) is no exit 1 (found on a fresh
    install: two errors in git-guard)."""
    found = {}
    for pack in ("git-guard", "path-normalizer", "ask-guard"):  # each alone (two rewriters are a real race)
        folder = project / pack
        folder.mkdir()
        ran = hookwright("install", pack, "--host", host, "--scope", "project", "--project", folder, "--yes")
        assert ran.code in (0, 3), ran.err  # 3: a pack this host cannot run as it says is refused
        if ran.code == 0:
            found[pack] = [f"{f.rule}: {f.message}" for f in run(project=folder, hosts=[host]).findings]
    assert "git-guard" in found
    assert found == {pack: [] for pack in found}


BREAKAGES = {
    "install/runtime-missing": lambda folder, settings: (folder / "git_guard.py").unlink(),
    "install/runtime-modified": lambda folder, settings: (folder / "git-guard").write_text("# edited\n"),
    "install/runtime-changed": lambda folder, settings: (  # (a version this hookwright does not ship: the receipt decides)
        (folder / "git-guard").write_text("# edited\n"),
        write_json(folder / "receipt.json", {**read_json(folder / "receipt.json"), "version": "0.9.0"})),
    "install/entry-missing": lambda folder, settings: write_json(settings, {"hooks": {}}),
    "install/no-receipt": lambda folder, settings: (folder / "receipt.json").unlink(),
    "install/receipt-unreadable": lambda folder, settings: (folder / "receipt.json").write_text("{half"),
    "install/leftover-runtime": lambda folder, settings: (
        (folder / "receipt.json").unlink(), write_json(settings, {"hooks": {}})),
    "install/entry-differs": lambda folder, settings: settings.write_text(
        settings.read_text().replace('"timeout": 10', '"timeout": 99')),
    "install/interrupted-write": lambda folder, settings: (
        settings.parent / ".settings.json.hookwright-tmp-k1ll3d").write_text('{"half'),
}


@pytest.mark.parametrize("rule", BREAKAGES)
def test_doctor_reports_a_half_written_install_and_install_repairs_it(hookwright, home, project, rule):
    folder = install(hookwright, project)
    settings = project / ".claude" / "settings.json"
    whole = settings.read_bytes()
    BREAKAGES[rule](folder, settings)

    assert rule in install_rules(project)

    if rule == "install/receipt-unreadable":
        (folder / "receipt.json").unlink()
    repaired = hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes", "--adopt")
    assert repaired.code == 0, repaired.err
    assert install_rules(project) == []
    assert json.loads(settings.read_bytes()) == json.loads(whole)
    assert read_json(folder / "receipt.json")["pack"] == "git-guard"


def test_an_edited_hookwright_plugin_is_reported_and_install_force_writes_it_again(hookwright, home, project):
    where = ("--host", "opencode", "--scope", "project", "--project", project, "--yes")
    assert hookwright("install", "git-guard", *where).code == 0
    plugin = project / ".opencode" / "plugins" / "hookwright-git-guard.js"
    whole = plugin.read_bytes()
    plugin.write_bytes(whole + b"// my tweak\n")
    opencode_rules = lambda: sorted(f.rule for f in run(project=project, hosts=["opencode"]).findings  # noqa: E731
                                    if f.rule.startswith("install/"))

    assert opencode_rules() == ["install/plugin-edited"]
    assert hookwright("install", "git-guard", *where).code == 3  # left alone without --force
    assert plugin.read_bytes() == whole + b"// my tweak\n"
    assert hookwright("install", "git-guard", *where, "--force").code == 0
    assert plugin.read_bytes() == whole and opencode_rules() == []

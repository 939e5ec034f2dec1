"""Real hook configs, byte for byte: read and write back, install then uninstall, install twice.

The files in tests/fixtures/claude-settings (copies of real settings files, see the README
there) are always tested. When the team's ../shared folder is beside the repo, the same
tests also run over the whole corpus in ../shared/corpus; without it those cases skip with
a reason (the `shared` fixture), they never pass silently.

What "the same file" means here (DESIGN.md, Invariants 1 and 5):
- reading and rendering unchanged data gives back the exact bytes; a file that is not strict
  JSON is refused with a HookwrightError that names the line;
- install then uninstall gives back the original data (DeepDiff empty) and the original bytes:
  since stop 29 also for the files whose hooks container was empty with blanks inside (`{\n}`,
  `[ ]`), which uninstall now gives back from the backup of the write it undoes (nothing wrote
  the file between);
- a file the tool must refuse (not strict JSON, not an object, "hooks" or an event of the
  wrong type) is refused with exit 2 and left byte-identical;
- installing twice writes nothing the second time: same bytes, no backup, no journal line.

The corpus-wide cases call the command functions directly (the CLI adds nothing that these
tests check, and costs time on 269 files); the fixtures go through the real CLI, in-process.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from deepdiff import DeepDiff
from hookwright.document import BOM, Document
from hookwright.errors import ExitCode, HookwrightError
from support import GIT_GUARD_COMMAND, SHARED

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "claude-settings"
CORPUS = SHARED / "corpus"
ROUND_TRIP_FOLDERS = ("claude-settings", "claude-plugin-hooks", "cursor-hooks")


# ---- which files -------------------------------------------------------------------------

def _fixture_cases() -> list:
    files = sorted(p for p in FIXTURES.iterdir() if p.is_file())
    assert files, f"no fixtures in {FIXTURES}"
    return [pytest.param(f"fixture/{p.name}", id=p.name) for p in files]


def _corpus_cases(folders: tuple[str, ...]) -> list:
    """One case per corpus file; one placeholder case (which skips, saying why) without ../shared."""
    if not CORPUS.is_dir():
        return [pytest.param("corpus/absent", id="corpus-absent")]
    cases = []
    for folder in folders:
        for path in sorted((CORPUS / folder).iterdir()):
            if path.is_file():
                cases.append(pytest.param(f"corpus/{folder}/{path.name}", id=f"{folder}/{path.name}"))
    return cases


FIXTURE_CASES = _fixture_cases()


def _path(case: str, request) -> Path:
    where, _, rest = case.partition("/")
    if where == "fixture":
        return FIXTURES / rest
    shared = request.getfixturevalue("shared")  # skips, with the reason, when ../shared is absent
    return shared / "corpus" / rest


# ---- what the files are, decided without the product code ----------------------------------

class _Duplicate(ValueError):
    pass


def _no_duplicate_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise _Duplicate(key)
        seen[key] = value
    return seen


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def strict_json(raw: bytes):
    """(True, data) if the bytes are strict JSON (UTF-8, optional BOM, unique keys, no NaN), else (False, why)."""
    try:
        text = raw.decode("utf-8")
        text = text[1:] if text.startswith(BOM) else text
        return True, json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError) as err:
        return False, f"{type(err).__name__}: {err}"


def refusal_reason(raw: bytes) -> str | None:
    """Why `install` must refuse this settings file (exit 2), or None if it must accept it."""
    strict, data = strict_json(raw)
    if not strict:
        return f"not strict JSON ({data})"
    if not isinstance(data, dict):
        return "the settings file is not a JSON object"
    if "hooks" not in data:
        return None
    hooks = data["hooks"]
    if not isinstance(hooks, dict):
        return f'"hooks" is {type(hooks).__name__}, not an object'
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            return f'"hooks.{event}" is {type(groups).__name__}, not a list'
    return None


def all_handlers(data) -> list[tuple[str, int, int | None, object]]:
    """(event, group index, handler index, handler) for every handler, whatever shape it has;
    a handler written where a group belongs (no inner "hooks" list) has handler index None."""
    found = []
    hooks = data.get("hooks") if isinstance(data, dict) else None
    for event, groups in (hooks.items() if isinstance(hooks, dict) else []):
        for gi, group in enumerate(groups if isinstance(groups, list) else []):
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                found.extend((event, gi, hi, handler) for hi, handler in enumerate(group["hooks"]))
            else:
                found.append((event, gi, None, group))
    return found


def _exact(value) -> str:
    """JSON text with key order and number types kept: 1, 1.0 and true all differ."""
    return json.dumps(value, ensure_ascii=False)


# ---- a summary of the corpus run, printed at the end of the module -------------------------

@pytest.fixture(scope="module")
def tally(request):
    counts: Counter = Counter()
    refused: list[str] = []
    yield counts, refused
    if counts:
        lines = ["install+uninstall round trip:"]
        for source in sorted({s for s, _ in counts}):
            lines.append(f"  {source}: {sum(n for (s, _), n in counts.items() if s == source)} files; "
                         + ", ".join(f"{what}: {n}" for (s, what), n in sorted(counts.items()) if s == source))
        lines += [f"  refused: {line}" for line in refused]
        reporter = request.config.pluginmanager.get_plugin("terminalreporter")
        capture = request.config.pluginmanager.get_plugin("capturemanager")
        if reporter is not None and capture is not None:
            with capture.global_and_fixture_disabled():
                reporter.write_line("")
                for line in lines:
                    reporter.write_line(line)


# ---- running the tool: the real CLI, or the command functions ------------------------------

class _Cli:
    """`hookwright install|uninstall git-guard --scope project --project P --yes --json`, in-process."""

    def __init__(self, hookwright, project: Path) -> None:
        self.hookwright = hookwright
        self.project = project

    def __call__(self, command: str) -> tuple[int, str | None, int | None]:
        ran = self.hookwright(command, "git-guard", "--scope", "project", "--project", self.project,
                              "--yes", "--json")
        try:
            doc = ran.json
        except ValueError:
            pytest.fail(f"hookwright {command} printed no JSON (exit {ran.code}):\n{ran.out}\n{ran.err}")
        if "error" in doc:
            return ran.code, doc["error"]["message"], doc["error"]["line"]
        return ran.code, doc["status"], None


class _Functions:
    """The same commands through hookwright.commands.* (no CLI parsing or printing)."""

    def __init__(self, project: Path) -> None:
        self.project = project

    def __call__(self, command: str) -> tuple[int, str | None, int | None]:
        from hookwright.commands.install import install
        from hookwright.commands.uninstall import uninstall
        from hookwright.hosts.base import Scope
        from hookwright.planning.apply import Consent

        try:
            if command == "install":
                result = install(["git-guard"], scope=Scope.project, project=self.project, options=[],
                                 adopt=False, dry_run=False, consent=Consent(yes=True))
            else:
                result = uninstall(["git-guard"], scope=Scope.project, project=self.project,
                                   dry_run=False, consent=Consent(yes=True))
        except HookwrightError as error:
            return int(error.code), error.message, error.line
        return int(result.exit_code), result.status, None


def _settings(project: Path, raw: bytes) -> Path:
    config = project / ".claude" / "settings.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_bytes(raw)
    return config


# ---- a. read and write back ----------------------------------------------------------------

@pytest.mark.parametrize("case", FIXTURE_CASES + _corpus_cases(ROUND_TRIP_FOLDERS))
def test_reading_and_writing_back_a_real_settings_file_is_byte_identical(case, request):
    path = _path(case, request)
    raw = path.read_bytes()
    strict, why = strict_json(raw)
    if not strict:
        with pytest.raises(HookwrightError) as refused:
            Document.parse(path, raw)
        assert refused.value.line is not None, f"{refused.value} has no line number ({why})"
        assert refused.value.code == ExitCode.BAD_INPUT
        return
    doc = Document.parse(path, raw)
    assert doc.render(doc.data) == raw


# ---- b. install then uninstall ---------------------------------------------------------------

def _check_install_uninstall(source: str, path: Path, project: Path, run, tally) -> None:
    counts, refused = tally
    raw = path.read_bytes()
    config = _settings(project, raw)
    must_refuse = refusal_reason(raw)

    code, status, line = run("install")
    if must_refuse:
        assert code == ExitCode.BAD_INPUT, f"expected exit 2 ({must_refuse}), got {code}: {status}"
        assert line is not None, f"the refusal does not say where: {status}"
        assert config.read_bytes() == raw, "a refused file was changed"
        assert not (project / ".claude" / "hookwright").exists(), "a refused install left runtimes behind"
        counts[source, "refused (exit 2, unchanged)"] += 1
        refused.append(f"{path.name}: {status}")
        return
    assert code == ExitCode.OK, f"install exited {code}: {status}"
    assert status == "applied"

    original = json.loads(raw.decode("utf-8").lstrip(BOM))
    installed = json.loads(config.read_bytes().decode("utf-8").lstrip(BOM))
    # every foreign handler is still there, at the same place, unchanged (key order and types too)
    for event, gi, hi, handler in all_handlers(original):
        group = installed["hooks"][event][gi]
        now = group if hi is None else group["hooks"][hi]
        assert _exact(now) == _exact(handler), f"foreign handler hooks.{event}[{gi}].hooks[{hi}] moved or changed"
        if hi is not None:
            assert _exact({k: v for k, v in group.items() if k != "hooks"}) == _exact(
                {k: v for k, v in original["hooks"][event][gi].items() if k != "hooks"}), \
                f"foreign group hooks.{event}[{gi}] changed"
    # nothing outside "hooks" moved
    assert _exact({k: v for k, v in installed.items() if k != "hooks"}) == _exact(
        {k: v for k, v in original.items() if k != "hooks"})
    # ours appears once per event it guards (a Bash call, a skill's shell line), each in its own
    # group on Bash, and nothing else was added
    ours = [(event, gi) for event, gi, _, h in all_handlers(installed)
            if isinstance(h, dict) and h.get("command") == GIT_GUARD_COMMAND]
    assert sorted(event for event, _ in ours) == ["PreSkillShellCommand", "PreToolUse"], f"git-guard is at {ours}"
    for event, gi in ours:
        assert installed["hooks"][event][gi].get("matcher") == "Bash"
        assert len(installed["hooks"][event][gi]["hooks"]) == 1, "our handler was put into a foreign group"
    assert len(all_handlers(installed)) == len(all_handlers(original)) + 2

    code, status, _ = run("uninstall")
    assert code == ExitCode.OK, f"uninstall exited {code}: {status}"
    final_raw = config.read_bytes()
    final = json.loads(final_raw.decode("utf-8").lstrip(BOM))
    diff = DeepDiff(original, final)
    assert not diff, f"uninstall did not give back the original data: {diff}"
    assert final_raw == raw
    counts[source, "byte-identical"] += 1


@pytest.mark.parametrize("case", FIXTURE_CASES)
def test_install_then_uninstall_gives_back_the_original_file(case, request, home, project, hookwright, tally):
    _check_install_uninstall("fixtures", _path(case, request), project, _Cli(hookwright, project), tally)


@pytest.mark.parametrize("case", _corpus_cases(("claude-settings",)))
def test_install_then_uninstall_gives_back_the_original_file_for_the_whole_corpus(
        case, request, home, project, tally):
    _check_install_uninstall("corpus", _path(case, request), project, _Functions(project), tally)


# ---- c. installing twice ------------------------------------------------------------------

def _snapshot(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file under `folder`: (inode, mtime in ns, bytes); a rewrite changes the first two."""
    snap = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            st = path.stat()
            snap[str(path.relative_to(folder))] = (st.st_ino, st.st_mtime_ns, path.read_bytes())
    return snap


@pytest.mark.parametrize("case", FIXTURE_CASES)
def test_installing_twice_changes_nothing_the_second_time(case, request, home, project, hookwright):
    raw = _path(case, request).read_bytes()
    config = _settings(project, raw)
    run = _Cli(hookwright, project)
    state = Path(os.environ["XDG_STATE_HOME"]) / "hookwright"
    backups = state / "backups"

    code, status, _ = run("install")
    assert (code, status) == (ExitCode.OK, "applied")
    after_first = config.read_bytes()
    assert after_first != raw
    files_after_first = _snapshot(project / ".claude")
    backups_after_first = sorted(p.name for p in backups.iterdir())
    assert len(backups_after_first) == 1
    journal_after_first = (state / "journal.jsonl").read_bytes()

    code, status, _ = run("install")
    assert (code, status) == (ExitCode.OK, "unchanged")
    assert config.read_bytes() == after_first
    assert _snapshot(project / ".claude") == files_after_first, "the second install rewrote a file"
    assert sorted(p.name for p in backups.iterdir()) == backups_after_first, "the second install took a backup"
    assert (state / "journal.jsonl").read_bytes() == journal_after_first

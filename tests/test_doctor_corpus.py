"""doctor over the real-world corpus (../shared/corpus) and SchemaStore's settings fixtures
(../shared/reference/schemastore); skipped with a reason where ../shared is absent.

The pins below were counted by doctor and checked against an independent scan of the corpus
(plain json.load and a walk over hooks -> groups -> handlers). Where they differ from
../shared/DESIGN.md or corpus/STATS.md, the comment says why.
"""
from __future__ import annotations

import json
import os
import signal
from collections import Counter
from pathlib import Path

import pytest
from hookwright.doctor.run import run
from support import SHARED

CATEGORIES = ("claude-settings", "claude-plugin-hooks", "cursor-hooks", "hook-scripts", "opencode")
SCHEMASTORE = SHARED / "reference" / "schemastore"
PER_FILE_SECONDS = 30


def _corpus_files() -> list[Path]:
    return sorted(p for c in CATEGORIES for p in (SHARED / "corpus" / c).iterdir() if p.is_file())


@pytest.fixture(scope="module")
def corpus():
    """One doctor run over all 500 corpus files (the way a user would name them all), with the
    same unusable HOME as every other test."""
    if not (SHARED / "corpus").is_dir():
        pytest.skip(f"../shared is not beside the repo ({SHARED}); corpus tests need it")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", "/dev/null/tests-must-use-the-home-fixture")
        patch.delenv("CLAUDE_CONFIG_DIR", raising=False)
        return run(_corpus_files(), project=SHARED / "corpus")


def _by_file(outcome, rule: str) -> dict[str, int]:
    return dict(sorted(Counter(Path(f.path).name for f in outcome.findings if f.rule == rule).items()))


class _Hang(Exception):
    pass


def test_doctor_exits_normally_on_every_corpus_file(shared, hookwright):
    """Each file on its own through the CLI, in-process: exit 0 or 1 (2 exactly for a file it
    could not parse), one JSON document, no traceback, and no file takes more than PER_FILE_SECONDS."""
    def alarm(signum, frame):
        raise _Hang()

    previous = signal.signal(signal.SIGALRM, alarm)
    failures = []
    try:
        files = _corpus_files()
        assert len(files) == 500
        for path in files:
            signal.alarm(PER_FILE_SECONDS)
            try:
                ran = hookwright("doctor", "--format", "json", path)
            except _Hang:
                failures.append(f"{path.name}: still running after {PER_FILE_SECONDS} s")
                continue
            finally:
                signal.alarm(0)
            if ran.code not in (0, 1, 2) or ran.err:
                failures.append(f"{path.name}: exit {ran.code}: {ran.err[-300:]}")
                continue
            summary = json.loads(ran.out)["summary"]
            if summary["files"] != 1:
                failures.append(f"{path.name}: not reported as one file")
            elif (ran.code == 2) != (summary["unreadable"] == 1):  # 2: reported as not readable, and only then
                failures.append(f"{path.name}: exit {ran.code} with {summary['unreadable']} unreadable")
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert failures == []


def test_timeouts_in_milliseconds(corpus):
    # DESIGN.md says 117 real handlers; doctor finds 122 in 21 files. STATS.md's 117 leaves out
    # the non-Claude variants saved under claude-plugin-hooks: Gemini CLI's 7 (doctor recognises
    # that file as Gemini's and does not count them) and Grok CLI's 5 (0xRayAI/xray
    # .grok/plugins/... and src/integrations/grok/...: Claude Code's format, milliseconds because
    # Grok uses them; the corpus's flattened file names lose the .grok/ folder that doctor would
    # recognise, so they count here). 117 + 5 = 122. Two of them are long waits in whole minutes
    # that no one writes in milliseconds, reported as such: plannotator's PermissionRequest review
    # (345600, 4 days; its README uses 1800) and a pre-PR check (1800).
    hits = [f for f in corpus.findings if f.rule in ("structure/timeout-milliseconds", "structure/timeout-long")]
    assert len(hits) == 122
    long = _by_file(corpus, "structure/timeout-long")
    assert long == {"shekohex__dotai__agent__vendor__plannotator-ui__apps__hook__hooks__hooks.json": 1,
                    "ngc-shj__claude-code-config__settings.json": 1}, long
    per_file = _by_file(corpus, "structure/timeout-milliseconds")
    assert len(per_file) == 19  # 21 files with a timeout of 1000 or more, less the two long waits
    assert per_file["hashbulla__dotclaude__settings.json"] == 27
    assert per_file["0xRayAI__xray__src__integrations__grok__plugin__0xray__hooks__hooks.json"] == 4
    assert per_file["0xRayAI__xray__.grok__plugins__0xray__hooks__hooks.json"] == 1
    assert "alexei-led__claude-code-config__dist__gemini__hooks__hooks.json" not in per_file


def test_events_at_the_top_level(corpus):
    # No corpus file puts a PascalCase event at the top level; the one file with an event there
    # spells it in kebab case, with no "hooks" key at all.
    assert _by_file(corpus, "structure/top-level-event") == {
        "spideynolove__claude-dotfiles__.agents-global__skills__rlm-workflow__docs__templates__hooks__hooks.json": 1}


def test_handlers_written_as_bare_strings(corpus):
    assert _by_file(corpus, "structure/handler-string") == {
        "karimatan1106__workflow-harness__.claude__settings.json": 4,
        "yemreak__claude-code-hooks__do-not-edit__settings.json": 1,
        "yemreak__claude-code-hooks__file-locking__settings.json": 3,
        "yemreak__claude-code-hooks__first-write__settings.json": 1,
        "yemreak__claude-code-hooks__redirect__settings.json": 1,
    }


def test_cursor_files_with_claude_event_names(corpus):
    hits = {(Path(f.path).name, f.message.split('"')[1])
            for f in corpus.findings if f.rule == "host/cursor-claude-event"}
    assert hits == {
        # in cursor-hooks: Claude's UserPromptSubmit in Cursor's casing (Cursor's event is beforeSubmitPrompt)
        ("mann1x__claude-hooks__.cursor__hooks.json", "userPromptSubmit"),
        # saved under claude-plugin-hooks: GitHub Copilot's .github/hooks/hooks.json, Cursor's shape
        # ("version": 1, flat entries) with Claude's PreToolUse
        ("1Password__agent-hooks__.github__hooks__hooks.json", "PreToolUse"),
    }
    # no file in cursor-hooks uses a PascalCase Claude event name or Claude's nested groups
    assert _by_file(corpus, "host/cursor-claude-group") == {}


def test_other_pins(corpus):
    assert _by_file(corpus, "structure/invalid-json") == {"nightshift2k__claude-code-hooks__settings.json.example": 1}
    assert _by_file(corpus, "structure/duplicate-key") == {
        "BumpyClock__claude-code-hooks__apps__client__.claude__settings.json": 1}
    # expression-style matchers (tool == "Bash" && tool_input.command matches "..."): 59 in 5 files;
    # those written with || match every tool instead of none
    assert _by_file(corpus, "matcher/matches-nothing") == {
        "RohiRIK__claude-code-config__settings.json": 9,
        "SuperfastSAT1600__claude-code-setup__.claude__settings.json": 21,  # 2 of them on SubagentStop
        "Yugoge__claude-code-config__settings.json": 1,  # Bash\(git commit.*\): a permission rule, escaped
        "gptcompany__claude-config__hooks__hooks.json": 20,
        "munlucky__claude-settings__.claude__settings.local.json": 1,
    }
    assert _by_file(corpus, "matcher/empty-alternative") == {
        "RohiRIK__claude-code-config__settings.json": 1, "gptcompany__claude-config__hooks__hooks.json": 7}
    assert _by_file(corpus, "matcher/case-mismatch") == {"Mrsavage92__claude-config__settings.json": 2}
    assert _by_file(corpus, "structure/once-ignored") == {  # STATS.md: 29 in 3 files too
        "chriscantu__claude-config__hooks__hooks.json": 6, "hashbulla__dotclaude__settings.json": 3,
        "rfenaux__claude-dotfiles-public__settings.example.json": 20}
    assert _by_file(corpus, "structure/hooks-not-object") == {
        "OshanKHZ__claude-code-hooks__docs__settings.example.json": 1,
        "ilude__claude-code-config__hooks__hooks.json": 1}
    assert _by_file(corpus, "structure/type-unsupported-event") == {
        "chriscantu__claude-config__hooks__hooks.json": 1, "duanyytop__claude-settings__config__settings.json": 1,
        "jwilger__claude-code-setup__marvin-sdlc__hooks__hooks.json": 1}
    assert _by_file(corpus, "structure/group-misplaced-key") == {  # handler fields placed on the group
        "chriscantu__claude-config__hooks__hooks.json": 1, "redpanda-data__ui-harness__.claude__settings.json": 2}
    # a PreToolUse handler that breaks the schema (a bare string, no type): Claude Code ignores the whole
    # file, its deny rules too (measured on 2.1.332)
    assert _by_file(corpus, "structure/guard-handler-breaks-file") == {
        "askb__dotclaude__settings.json": 1, "karimatan1106__workflow-harness__.claude__settings.json": 1,
        "yemreak__claude-code-hooks__do-not-edit__settings.json": 1,
        "yemreak__claude-code-hooks__file-locking__settings.json": 1,
        "yemreak__claude-code-hooks__first-write__settings.json": 1,
        "yemreak__claude-code-hooks__redirect__settings.json": 1}


def test_every_file_is_recognised(corpus):
    kinds = Counter(f.kind for f in corpus.files)
    assert kinds == {"claude-settings": 269, "claude-plugin-hooks": 75, "cursor-hooks": 42, "opencode-plugin": 50,
                     "opencode-config": 18, "gemini-hooks": 1, "unknown": 45}
    # opencode's files get opencode's checks, scripts are named as such: never reported as broken
    # Claude Code files
    for file in corpus.files:
        rules = {f.rule for f in corpus.findings if f.path == str(file.path)}
        if file.path.parent.name == "opencode":
            assert all(r.startswith(("host/opencode-", "conflict/plugin-")) or r == "host/unrecognised-file"
                       for r in rules), (file.path.name, rules)
        elif file.path.parent.name == "hook-scripts":
            assert rules in ({"host/other-agent-format"}, {"host/unrecognised-file"}), (file.path.name, rules)


def test_the_corpus_in_one_run(corpus):
    s = Counter(f.severity for f in corpus.findings)
    assert len(corpus.files) == 500 and len(corpus.handlers) == 2572
    assert s["error"] > 0 and all(f.line and f.column for f in corpus.findings)


# ---- SchemaStore's fixtures -------------------------------------------------------------------------

def _fixtures(kind: str) -> list[Path]:
    return sorted((SCHEMASTORE / kind).glob("*.json")) if SCHEMASTORE.is_dir() else []


# The positive fixtures are schema examples: their commands name scripts that exist on no machine
# (./scripts/on-dir-added.sh, /usr/local/bin/check-bash). Whether a script exists, is executable or
# writable by others, or has its interpreter installed is a fact about the machine the hooks run
# on, not about the config, so those rules are left out here; every other rule counts.
MACHINE_RULES = {"command/script-missing", "command/not-executable", "command/world-writable",
                 "command/interpreter-not-found"}


@pytest.mark.parametrize("fixture", _fixtures("positive") or [None], ids=lambda p: p.name if p else "none")
def test_no_error_on_schemastore_positive_fixtures(shared, fixture):
    assert fixture is not None, "no positive fixtures"
    errors = [f"{f.rule}: {f.message}" for f in run([fixture], project=fixture.parent).findings
              if f.severity == "error" and f.rule not in MACHINE_RULES]
    assert errors == []


NEGATIVE_RULES = {  # what makes each negative fixture an error
    "invalid-hook-shell.json": {"structure/shell-invalid"},
    "invalid-hook-type.json": {"structure/type-unknown"},
    "invalid-timeout-value.json": {"structure/timeout-invalid"},
    "missing-required-hook-fields.json": {"structure/field-missing"},
    "wrong-property-types.json": {"structure/field-type", "structure/settings-schema"},
}


# negative fixtures Claude Code reads all the same, and the notes doctor gives them: keys a group
# or a handler does not have (measured on 2.1.332: ignored, the hook ran); a key hookwright's
# facts lack is a note, never a claim
READ_ALL_THE_SAME = {"additional-properties-hook.json": {"structure/group-unknown-key", "structure/handler-unknown-key"}}


@pytest.mark.parametrize("fixture", _fixtures("negative") or [None], ids=lambda p: p.name if p else "none")
def test_an_error_on_every_schemastore_negative_fixture(shared, fixture):
    assert fixture is not None, "no negative fixtures"
    findings = run([fixture], project=fixture.parent).findings
    errors = {f.rule for f in findings if f.severity == "error"}
    if fixture.name in READ_ALL_THE_SAME:
        assert not errors and READ_ALL_THE_SAME[fixture.name] <= {f.rule for f in findings if f.severity == "info"}
        return
    assert errors and NEGATIVE_RULES.get(fixture.name, {"structure/settings-schema"}) <= errors


def test_unquoted_path_placeholders(corpus):
    # A $CLAUDE_PROJECT_DIR or ${CLAUDE_PLUGIN_ROOT} outside double quotes where it names the
    # script or a cd target (agnix's CC-HK-030 finds 47 of these files; it misses one written
    # `$CLAUDE_PROJECT_DIR/.claude/hooks/protect-files.sh` and flags a quoted one inside $(...)).
    per_file = _by_file(corpus, "command/unquoted-placeholder")
    assert (len(per_file), sum(per_file.values())) == (50, 334)
    assert per_file["anthropics__claude-code__plugins__explanatory-output-style__hooks__hooks.json"] == 1


def test_no_duplicate_runs_twice_across_unrelated_files(corpus):
    # Files named together on the command line load in no session together (two projects, or a
    # plugin nothing enables), and one ${CLAUDE_PLUGIN_ROOT} template names each plugin's own file.
    assert _by_file(corpus, "conflict/duplicate-runs-twice") == {}


def test_session_end_timeouts_the_shared_budget_cuts(corpus):
    # One settings file asks 120 s (capped at 60), four plugins ask 5 to 15 s, which their own
    # timeout cannot raise the 1.5 s budget to; the millisecond values are another rule's.
    per_file = _by_file(corpus, "conflict/session-end-budget")
    assert per_file == {"ldom1__ai-dotfiles__.claude__settings.json": 1,
                        "alilloig__dotclaude__plugins__coworking-monitor__hooks__hooks.json": 1,
                        "chriscantu__claude-config__hooks__hooks.json": 1,
                        "jl-cmd__claude-code-config__packages__claude-dev-env__hooks__hooks.json": 1,
                        "phrazzld__claude-config__plugins__marketplaces__design-plugins__design-and-refine__hooks__"
                        "hooks.json": 1}, per_file


def test_input_variables_claude_code_never_sets(corpus):
    # $CLAUDE_TOOL_INPUT, $CLAUDE_FILE_PATH, $CLAUDE_TOOL_FILE_PATH and the like: always empty
    # (hooks.md §9.14), so the guards and formatters that read them do nothing. Since stop 29 also
    # $TOOL_INPUT, $FILE_PATH, $STDIN, a lower-case $CLAUDE_TOOL_ARG_file_path, and $1 in a shell-form
    # command (sh -c gives none; in gptcompany's hooks.json a node -e "... '$1' ..." meant as a regex
    # group is expanded by the shell to nothing): 9 more files, 18 more commands, each read by hand.
    per_file = _by_file(corpus, "command/input-variable-never-set")
    assert (len(per_file), sum(per_file.values())) == (18, 38)


def test_copies_on_disjoint_matchers_are_no_duplicates(corpus):
    # The same command on SessionStart startup, resume, clear and compact (or on Bash and on
    # Edit|Write) is needed on each: Claude Code deduplicates only among the copies one call matches.
    # (SuperfastSAT1600's two pairs on `tool in [...]` matchers no tool name fits were reported until
    # stop 29, with a "copy that runs": neither runs, and matcher/matches-nothing says so)
    assert _by_file(corpus, "conflict/duplicate-handler") == {}


def test_cursor_semantics_http_headers_and_plugin_manifests_are_quiet_on_the_corpus(corpus):
    # The 41 Cursor files use loop_limit only on stop, failClosed: true only on events that block,
    # tool matchers only on tool events (and "Write|TabWrite" on afterFileEdit), command patterns
    # on beforeShellExecution, and no Claude Code handler field; the only http headers with
    # ${VAR} are MCP servers' (not hooks); no corpus file is a plugin's hooks beside a manifest.
    for rule in ("host/cursor-claude-field", "host/cursor-field-no-effect", "host/cursor-command-matcher-names-tool",
                 "host/cursor-matcher-misses-literal", "structure/http-header-variable-not-allowed",
                 "structure/http-header-variable-not-in-settings", "structure/plugin-manifest-names-default-hooks"):
        assert _by_file(corpus, rule) == {}, rule


def test_what_the_protocol_rules_find_in_the_configs(corpus):
    """The script rules of tests/test_doctor_script_protocol.py on the corpus's inline commands
    (its scripts are not beside the configs, so only commands written inline are read)."""
    # echo 'BLOCKED: ...' && exit 2: the reason goes to stdout, Claude is told nothing
    assert _by_file(corpus, "script/reason-on-stdout") == {"kmshihab7878__claude-code-setup__settings.json": 3}
    for rule in ("script/text-before-json", "script/shell-trace", "script/updated-input-not-object",
                 "script/rewrite-drops-fields", "script/exit-2-does-not-block", "script/continue-false-not-a-block",
                 "script/invalid-decision-value", "script/stdin-read-twice", "script/failure-in-post-tool-use",
                 "script/claude-answer-for-cursor", "script/cursor-field-not-read", "script/exit-1-fails-open",
                 "script/input-field-never-sent", "script/field-the-event-ignores", "script/does-not-parse"):
        assert _by_file(corpus, rule) == EXPECTED_PROTOCOL_FINDINGS.get(rule, {}), rule


EXPECTED_PROTOCOL_FINDINGS = {
    # exit 1 after a refusal on stderr, in gates with no other way to refuse: the call runs
    # (bash -c '... "BLOCKED: find on /mnt/c paths forbidden ..." >&2; exit 1'; "[Hook] BLOCKED: Dev
    # server must run in tmux ..." four lines above; "WARNING: You are on the main branch. Switch to a
    # feature branch before committing." >&2; exit 1)
    "script/exit-1-fails-open": {"RohiRIK__claude-code-config__settings.json": 2,
                                 "masharratt__claude-flow-novice__.claude__settings.json": 1,
                                 "shawn-sandy__claude-settings-backup__settings.json": 2},
    # jq '.tool_output.output' on PostToolUse: Cursor's field name; Claude Code sends tool_response;
    # jq -r '"\(.command) - \(.tool_input.description // ...)"' on Cursor's beforeShellExecution (which
    # sends command, cwd and sandbox) and '"\(.tool_input.command) - ..."' on beforeSubmitPrompt (prompt)
    "script/input-field-never-sent": {"RohiRIK__claude-code-config__settings.json": 1,
                                      "msfeldstein__hooks-examples__.cursor__hooks.json": 2},
    # echo '{"hookSpecificOutput": {"hookEventName": "PreCompact", "additionalContext": ...}}': PreCompact
    # reads decision and reason only (hooks.md §6.2), so the reminder never reaches Claude; and
    # jq -Rs '{"hookSpecificOutput": {..., "updatedResponse": {"stdout": .}}}' on PostToolUse, which
    # reads updatedToolOutput: the compacted output is dropped, the model sees the original
    "script/field-the-event-ignores": {"edlitmus__claude-dotfiles__claude__settings.json": 1,
                                       "jonahscohen__claude-dotfiles__claude__settings.json": 1,
                                       "nferrer-dev__claude-dotfiles__settings.json": 1},
}


# one finding a line, where it is first (so a file's findings sit together and a diff reads as a list)
FINDINGS_SNAPSHOT = Path(__file__).parent / "fixtures" / "doctor-corpus-findings.jsonl"
FIRST_FIELDS = ("path", "line", "column", "severity", "rule", "message", "hint")
# whether a program is on PATH, or an interpreter at /usr/bin, depends on the machine, not the code
PROGRAM_RULES = ("command/interpreter-not-found", "command/bad-interpreter")


def _comparable(findings) -> list[str]:
    return sorted(_line(f.to_json()).replace(str(SHARED), "<shared>") for f in findings if f.rule not in PROGRAM_RULES)


def _line(found: dict) -> str:
    return json.dumps({**{key: found[key] for key in FIRST_FIELDS},
                       **{key: found[key] for key in sorted(found) if key not in FIRST_FIELDS}}, ensure_ascii=False)


def test_doctor_finds_on_the_corpus_exactly_what_it_found_before_it_was_made_fast(corpus):
    """Issue 15: no check dropped or weakened by the speed work. The snapshot was written by the
    code before it (2d6ea63), and rewritten since where a change meant to find more or less: when
    sh-without-shell became one note per file (838 notes became 112, nothing else moved), and when
    any key right inside hookSpecificOutput that the event does not read was reported (one more:
    updatedResponse on PostToolUse), and when `[[` in a shell-form command was (12 more: Claude
    Code runs them with sh, measured), and when the other bash constructs dash does not read were, and
    the script of `sh -c '...'` (4 more: `&>`, a here-string in a Stop hook, `[[` in two `sh -c`), and
    when input variables without the CLAUDE_ prefix and $1 were (18 more), and when
    copies on matchers that match nothing stopped being duplicates (2 fewer), and when two hints
    were mended (a plugin's MCP prefix, a prompt handler's field on a group of commands), and when a missing script that is not the
    first thing a command runs became "that part of the hook never runs" (7 reworded), and when tool.execute.after's tool names were
    read too (1 more: beads-sync's "TodoWrite"), and when every field a jq filter reads of its input was, not its
    first alone (2 more: tool_input on Cursor's beforeShellExecution and beforeSubmitPrompt), and when FileChanged matchers with
    a glob or a folder were (4 more, in redpanda-data's ui-harness settings and plugin: "*.proto|*.graphql|*.graphqls"
    never runs, "src/env.ts" never matches a file's name), and when plugin keys opencode has no hook for and
    throws in tool.execute.after were (2 more: file-reservation's "agent.execute.after", never called,
    and lint.ts's throw once the write is made, then a note, since a throw there is how a linter tells the
    model the write failed its check), and when names hookwright's facts do not have became notes that
    say so (2 unknown events, warnings before; a group's and a handler's unknown key split from the
    misplaced ones: 4 reworded) and a PreToolUse handler that voids its whole settings file was
    reported (6 more, measured on 2.1.332), and when values SchemaStore's enums lack and env values of
    another type became opinions, warnings (3, measured on 2.1.332: the file loads), and when `source`
    and bash's other constructs dash lacks were (1 more: claude-pipeline's PostToolUse formatter,
    whose `source` of its platform file sh never finds, so it formats nothing). Such a change
    rewrites it on purpose:
    UPDATE_DOCTOR_SNAPSHOT=1 pytest tests/test_doctor_corpus.py -k before_it_was_made_fast"""
    now = _comparable(corpus.findings)
    if os.environ.get("UPDATE_DOCTOR_SNAPSHOT"):
        FINDINGS_SNAPSHOT.write_text("\n".join(now) + "\n", encoding="utf-8")
    before = FINDINGS_SNAPSHOT.read_text(encoding="utf-8").splitlines()
    assert len(before) > 3300
    missing, new = sorted(set(before) - set(now)), sorted(set(now) - set(before))
    assert (missing[:3], new[:3]) == ([], [])
    assert now == before  # (and as many of each)

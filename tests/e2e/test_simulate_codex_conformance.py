"""`hookwright simulate --host codex` against the real Codex CLI: every scenario runs twice, and must agree.

Each scenario is a project (a plain folder, the session's cwd) whose `.codex/hooks.json` (and
the user's `$CODEX_HOME/hooks.json`) hold PreToolUse hooks that answer as told (answer_hook.py,
which records each run), trusted in the user's config.toml but where the scenario says not, and
one shell call `touch orig.txt`. It runs once through `hookwright simulate PreToolUse --host codex`
and once through `codex exec` (pinned, fake Responses API on 127.0.0.1), and the two must agree on:
- the verdict: the call ran, was blocked (and the reason the model got), or failed (a rewrite
  Codex cannot apply);
- the command that ran (each rewrite touches a file of its own), or, where simulate says the
  outcome is a race, that it is one of simulate's candidates;
- the context the model got (each hook's additionalContext, in order);
- which hooks ran, and how often.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import test_simulate_conformance as claude_conformance
from codex_cli import answer_hook, hook_calls, run_codex, shell, trust_toml
from hookwright.hosts.codex import trust

pytestmark = pytest.mark.e2e

ORIGINAL = "touch orig.txt"
BLOCKED = "Command blocked by PreToolUse hook: "
CONTEXT = re.compile(r"CTX-[\w-]+")


def pre(**fields) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}})


def deny(reason: str | None = "says deny") -> str:
    return pre(permissionDecision="deny", **({"permissionDecisionReason": reason} if reason is not None else {}))


def rewrite(name: str) -> str:
    return pre(permissionDecision="allow", updatedInput={"command": f"touch {name}.txt"})


@dataclass
class Hook(claude_conformance.Hook):
    """A hook as Claude Code's conformance test writes one, and whether the user trusts it."""

    trusted: bool = True


@dataclass
class Scenario:
    name: str
    groups: dict[str, list[tuple[str | None, list[Hook]]]]  # "user" | "project" -> [(matcher, hooks)]
    project_trusted: bool = True


def one(*hooks: Hook, matcher: str | None = "Bash", where: str = "project") -> dict:
    return {where: [(matcher, list(hooks))]}


SCENARIOS = [
    Scenario("exit 2 with a reason on stderr blocks", one(Hook("a", exit=2, stderr="no by exit 2"))),
    Scenario("exit 2 without a reason fails open", one(Hook("a", exit=2))),
    Scenario("a JSON deny blocks", one(Hook("a", deny("no by JSON")))),
    Scenario("a deny without a reason fails open", one(Hook("a", deny(None)))),
    Scenario("a legacy decision block blocks", one(Hook("a", json.dumps({"decision": "block", "reason": "legacy"})))),
    Scenario("allow alone is refused", one(Hook("a", pre(permissionDecision="allow")))),
    Scenario("ask is refused", one(Hook("a", pre(permissionDecision="ask", permissionDecisionReason="sure?")))),
    Scenario("continue false is refused", one(Hook("a", json.dumps({"continue": False, "stopReason": "enough"})))),
    Scenario("a rewrite", one(Hook("a", rewrite("rewritten")))),
    Scenario("a rewrite without allow is refused", one(Hook("a", pre(updatedInput={"command": "touch bare.txt"})))),
    Scenario("a rewrite without a command fails the call", one(Hook("a", pre(permissionDecision="allow",
                                                                               updatedInput={"cmd": "touch x.txt"})))),
    Scenario("two rewriters: the last to finish wins", one(Hook("a", rewrite("from-a"), sleep=1.5),
                                                           Hook("b", rewrite("from-b")))),
    Scenario("a deny beats a rewrite", one(Hook("a", rewrite("from-a")), Hook("b", deny("b says no"), sleep=0.5))),
    Scenario("two blocks: the reason is the first configured one's", one(
        Hook("a", deny("first configured"), sleep=1), Hook("b", exit=2, stderr="first finished"))),
    Scenario("a hook that fails: exit 1 with a deny", one(Hook("a", deny("from exit 1"), exit=1))),
    Scenario("plain text is ignored", one(Hook("a", "deny this please"))),
    Scenario("invalid JSON fails open", one(Hook("a", "{not json"))),
    Scenario("an unknown field beside a deny fails open", one(Hook("a", json.dumps({
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                               "permissionDecisionReason": "r"}, "extra": 1})))),
    Scenario("a timeout fails open", one(Hook("a", exit=2, stderr="too late", sleep=4, timeout=1))),
    Scenario("an untrusted hook is skipped", one(Hook("a", deny("untrusted says no"), trusted=False),
                                                 Hook("b", pre(additionalContext="CTX-trusted")))),
    Scenario("an untrusted project's hooks are skipped", one(Hook("a", deny("project says no"))),
             project_trusted=False),
    Scenario("a matcher that does not match", one(Hook("a", deny("read only")), matcher="Read")),
    Scenario("a regex matcher", one(Hook("a", deny("by regex")), matcher="^Ba.h$")),
    Scenario("a matcher that is no regex skips its group", {"project": [
        ("Ba(sh", [Hook("a", deny("never"))]), ("Bash", [Hook("b", pre(additionalContext="CTX-other-group"))])]}),
    Scenario("context from two hooks, in configured order", one(Hook("a", pre(additionalContext="CTX-a"), sleep=0.8),
                                                                Hook("b", pre(additionalContext="CTX-b")))),
    Scenario("context beside a deny", one(Hook("a", deny("with context") [:-2] + ', "additionalContext": "CTX-d"}}'))),
    Scenario("user and project hooks all run, copies too", {
        "user": [("Bash", [Hook("u", pre(additionalContext="CTX-user"))])],
        "project": [("Bash", [Hook("p", pre(additionalContext="CTX-project"))]), (None, [Hook("p2")])]}),
]


# ---- running a scenario both ways ------------------------------------------------------------

def lay_out(scenario: Scenario, project: Path, home: Path, specs: Path) -> None:
    """The scenario's hooks files, and the user's config.toml trusting what the scenario trusts."""
    places = {"user": home / ".codex" / "hooks.json", "project": project / ".codex" / "hooks.json"}
    hashes: dict[str, str] = {}
    for where, groups in scenario.groups.items():
        untrusted = set()
        data: dict = {"hooks": {"PreToolUse": []}}
        for matcher, members in groups:
            handlers = []
            for hook in members:
                handler = {"type": "command", "command": answer_hook(specs, hook.name, stdout=hook.stdout,
                                                                     stderr=hook.stderr, exit=hook.exit,
                                                                     sleep=hook.sleep)}
                if hook.timeout is not None:
                    handler["timeout"] = hook.timeout
                if not hook.trusted:
                    untrusted.add(handler["command"])
                handlers.append(handler)
            data["hooks"]["PreToolUse"].append({"hooks": handlers, **({"matcher": matcher} if matcher else {})})
        places[where].parent.mkdir(parents=True, exist_ok=True)
        places[where].write_text(json.dumps(data, indent=2))
        hashes.update((h.key, h.hash) for h in trust.hooks_of(str(places[where]), data) if h.command not in untrusted)
    (home / ".codex").mkdir(exist_ok=True)
    (home / ".codex" / "config.toml").write_text(trust_toml([project] if scenario.project_trusted else [], hashes))


@dataclass
class Seen:
    verdict: str  # ran | deny | failed
    reason: str | None
    ran: str | None  # the command that ran
    context: list[str]
    fired: list[str] = field(default_factory=list)


def through_simulate(hookwright, project: Path, specs: Path) -> tuple[Seen, dict]:
    done = hookwright("simulate", "PreToolUse", "--host", "codex", "--command", ORIGINAL, "--project", project, "--json")
    assert done.code == 0, done.out + done.err
    doc = done.json
    verdict = "deny" if doc["decision"] == "deny" else "failed" if doc["blocked"] else "ran"
    seen = Seen(verdict, doc["reason"] if verdict == "deny" else None,
                doc["tool_input"]["command"] if verdict == "ran" else None, doc["context"],
                sorted(call["name"] for call in hook_calls(specs)))
    (specs / "hooks.jsonl").unlink(missing_ok=True)
    return seen, doc


def through_codex(project: Path, home: Path, specs: Path) -> Seen:
    run = run_codex(project, home, [shell(ORIGINAL), "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr
    [output] = run.outputs()
    touched = sorted(p.name for p in project.iterdir() if p.suffix == ".txt")
    assert len(touched) <= 1, touched
    developer = [part.get("text", "") for item in run.requests[-1]["input"] if item.get("role") == "developer"
                 for part in item.get("content", [])]
    context = [found for text in developer for found in CONTEXT.findall(text)]
    fired = sorted(call["name"] for call in hook_calls(specs))
    if output.startswith(BLOCKED):
        return Seen("deny", output[len(BLOCKED):].rsplit(". Command: ", 1)[0], None, context, fired)
    if not touched:
        return Seen("failed", None, None, context, fired)
    return Seen("ran", None, f"touch {touched[0]}", context, fired)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_simulate_on_codex_agrees_with_the_real_codex(scenario, codex_cli, hookwright, home, tmp_path):
    project = tmp_path / "proj"
    specs = tmp_path / "specs"
    project.mkdir()
    specs.mkdir()
    lay_out(scenario, project, home, specs)
    simulated, doc = through_simulate(hookwright, project, specs)
    real = through_codex(project, home, specs)
    assert (simulated.verdict, simulated.reason) == (real.verdict, real.reason), doc["handlers"]
    if doc["nondeterministic"]:
        assert real.ran in [candidate["command"] for candidate in doc["candidates"]]
    else:
        assert simulated.ran == real.ran
    assert simulated.context == real.context
    assert simulated.fired == real.fired
    skipped = [row for row in doc["handlers"] if not row["fires"] and "Codex skips it, without a word" in row["why"]]
    assert len(skipped) == sum(not hook.trusted or not scenario.project_trusted
                               for groups in scenario.groups.values() for _, hooks in groups for hook in hooks)

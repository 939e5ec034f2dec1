"""How Codex CLI runs its PreToolUse hooks on one call and reads their answers (docs/hosts/codex.md,
measured on 0.171.0): the table simulate's Codex module and doctor read, beside the adapter.

- Which run: every hook of the event whose group's matcher takes the tool's name or an alias of
  it, across files and groups, in configured order (#matchers, #several-hooks); no dedup.
- How: all at once, each through the user's login shell (`-lc`), in the session's folder, with
  Codex's environment and no project variable; a timeout kills it (#command-execution, #timeouts).
- An answer: exit 2 with a reason on stderr blocks; exit 0 with one JSON object of the shape
  Codex's structs take (unknown fields and wrong types make it invalid: the hook failed) blocks
  with `permissionDecision: "deny"` and a reason (or the legacy `decision: "block"`), rewrites
  with `allow` and `updatedInput`; `allow` alone, `ask`, a deny without a reason, `continue:
  false`, `stopReason` and `suppressOutput` are refused (the hook failed); plain text is ignored.
  A failed hook never blocks (#output-protocol).
- Several: one block blocks, its reason the first blocking hook's in configured order; a block
  beats every rewrite; of several rewrites the one that finished last wins; every hook's
  `additionalContext` reaches the model, in configured order, blocked or not.
"""
from __future__ import annotations

import json
import os
import pwd
import re
from typing import Any

from ...hooks.regex.engine import Regex
from ...patterns import lazy
from ...records import Record
from .adapter import TOOL_ALIASES as ALIASES
from .trust import DEFAULT_TIMEOUT, SHORT_TIMEOUT

EVENT = "PreToolUse"  # the event whose answers simulate reads whole (#output-protocol)
# the events simulate runs on Codex, each with the payload field its groups' matcher is tried on
# (None: no matcher, every group fires; #events); their payloads: #stdin-payload
SIMULATED_EVENTS: dict[str, str | None] = {"SessionStart": "source", "UserPromptSubmit": None, EVENT: "tool_name",
                                           "PostToolUse": "tool_name", "Stop": None}
# the answers of the other events whose effect is measured (#what-the-model-gets): a block with its reason
BLOCK_EFFECT = {"PostToolUse": "the tool has run, and the model gets the reason instead of its output",
                "Stop": "the turn goes on: the model gets the reason as a prompt"}
SHELL_TOOL = "Bash"  # the model's exec_command, as hooks see it (#tool-names)
EXACT = lazy(r"[A-Za-z0-9_|]+")
EVENT_NAMES = frozenset({"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
                         "SessionStart", "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop", "SessionEnd",
                         "PreModelRequest", "PostModelRequest", "Interrupt"})
# the fields of a PreToolUse answer and their JSON types (Codex's structs deny any other field)
TOP_FIELDS: dict[str, tuple[type, ...]] = {"continue": (bool,), "stopReason": (str, type(None)), "suppressOutput": (bool,),
              "systemMessage": (str, type(None)), "decision": (str, type(None)), "reason": (str, type(None)),
              "hookSpecificOutput": (dict, type(None))}
SPECIFIC_FIELDS: dict[str, tuple[type, ...]] = {"hookEventName": (str,), "permissionDecision": (str, type(None)),
                   "permissionDecisionReason": (str, type(None)), "updatedInput": (object,),
                   "additionalContext": (str, type(None))}
DECISIONS = ("allow", "deny", "ask")
LEGACY_DECISIONS = ("approve", "block")


class Reading(Record):
    """One hook's answer as Codex reads it."""

    status: str  # completed | blocked | failed
    read_as: str  # in words
    block_reason: str | None = None
    context: str | None = None
    updated_input: Any = None  # None: no rewrite
    system_message: str | None = None


def matches(matcher: Any, tool: str) -> bool | None:
    """Whether a group's matcher takes the tool (by its name or an alias); None: the matcher is
    no regex Codex can read, and Codex skips the group (#matchers, #file-format). A regex is
    searched by hookwright's own engine (installer/hooks/regex/engine.py, linear in the text),
    never by a backtracking one: where that engine cannot work it out, `undecided` says why."""
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return None
    names = (tool, *ALIASES.get(tool, ()))
    if EXACT.fullmatch(matcher):
        return any(name in matcher.split("|") for name in names)
    pattern = _regex(matcher)
    if pattern is None:
        return None
    return any(pattern.search(name) for name in names)


def undecided(matcher: Any) -> str | None:
    """Why what a regex matcher matches cannot be worked out safely here (simulate does not run
    its group), or None."""
    if not isinstance(matcher, str) or matcher in ("", "*") or EXACT.fullmatch(matcher):
        return None
    pattern = _regex(matcher)
    return pattern.undecided if pattern is not None else None


def _regex(matcher: str) -> Regex | None:
    """The matcher as a pattern of hookwright's engine (Rust's leading `(?i)` read as ignoring
    case), or None where it is no regex (Codex's engine, like Python's, rejects its syntax)."""
    ignore_case = matcher.startswith("(?i)")
    pattern = Regex(matcher[4:] if ignore_case else matcher, ignore_case=ignore_case)
    if pattern.undecided is not None and pattern.undecided.startswith("a construct"):
        try:  # (compiling runs nothing: a syntax check of the pattern, never a search)
            re.compile(matcher)
        except re.error:
            return None
    return pattern


def timeout_of(handler: dict[str, Any], event: str) -> float:
    """Seconds: unset 600, 0 counts as 1; SessionEnd and Interrupt 1 unset, at most 3 (#timeouts)."""
    given = handler.get("timeout")
    value = given if isinstance(given, int) and not isinstance(given, bool) and given >= 0 else None
    if event in SHORT_TIMEOUT:
        return float(min(max(1 if value is None else value, 1), 3))
    return float(max(DEFAULT_TIMEOUT if value is None else value, 1))


def argv(command: str) -> list[str]:
    """The user's login shell running the command (#command-execution)."""
    try:
        shell = pwd.getpwuid(os.getuid()).pw_shell or "/bin/sh"
    except KeyError:
        shell = "/bin/sh"
    return [shell if os.path.exists(shell) else "/bin/sh", "-lc", command]


def read(exit_code: int | None, stdout: bytes, stderr: bytes, failed: str | None = None) -> Reading:
    """One PreToolUse hook's run as Codex reads it; `failed`: why it never gave an answer (a
    timeout, a command that could not start)."""
    if failed is not None:
        return Reading("failed", f"failed ({failed}): the call runs")
    if exit_code == 2:
        reason = stderr.decode("utf-8", "replace").strip()
        if reason:
            return Reading("blocked", "exit 2 with a reason on stderr: blocks", block_reason=reason)
        return Reading("failed", "exit 2 without a reason on stderr: the hook failed, the call runs")
    if exit_code != 0:
        return Reading("failed", f"exit {exit_code}: the hook failed, the call runs (stdout is not read)")
    text = stdout.decode("utf-8", "replace")
    if not text.strip():
        return Reading("completed", "nothing on stdout: no say")
    answer = _answer(text)
    if answer is None:
        if text.lstrip().startswith(("{", "[")):
            return Reading("failed", "stdout is not an answer Codex takes (invalid JSON, an unknown field or a "
                                     "wrong type): the hook failed, the call runs")
        return Reading("completed", "plain text on stdout: ignored")
    return _judged(answer)


def read_other(event: str, exit_code: int | None, stdout: bytes, stderr: bytes, failed: str | None = None) -> Reading:
    """A hook's run on an event other than PreToolUse, read only as far as measured on 0.171.0:
    nothing said (exit 0, nothing on either stream); on PostToolUse and Stop a `decision: "block"`
    with its reason, on PostToolUse beside an additionalContext (#what-the-model-gets). Any other
    answer's effect has not been measured: "unknown", and simulate says so."""
    if failed is None and exit_code == 0 and not stdout.strip() and not stderr.strip():
        return Reading("completed", "nothing on stdout or stderr: no say")
    answer = _answer(stdout.decode("utf-8", "replace")) if failed is None and exit_code == 0 else None
    specific = answer.get("hookSpecificOutput") if answer is not None else None
    fields = set(answer or {}) | {f"hookSpecificOutput.{key}" for key in specific or {}}
    measured = {"decision", "reason"} | ({"hookSpecificOutput", "hookSpecificOutput.hookEventName",
                                          "hookSpecificOutput.additionalContext"} if event == "PostToolUse" else set())
    if answer is not None and event in BLOCK_EFFECT and answer.get("decision") == "block" and \
            isinstance(answer.get("reason"), str) and answer["reason"].strip() and fields <= measured and \
            (specific is None or specific.get("hookEventName") == event):
        return Reading("blocked", f"decision block with a reason: {BLOCK_EFFECT[event]}", block_reason=answer["reason"],
                       context=specific.get("additionalContext") if specific else None)
    said = f"failed ({failed})" if failed is not None else f"exit {exit_code}"
    return Reading("unknown", f"{said}: what Codex does with this answer on {event} is not measured, so simulate does "
                              "not say")


def _answer(text: str) -> dict[str, Any] | None:
    """The JSON object on stdout where it has the shape of Codex's answer, else None."""
    try:
        data = json.loads(text.strip(), parse_constant=_no_constant)
    except ValueError:
        return None
    if not isinstance(data, dict) or not _fits(data, TOP_FIELDS):
        return None
    specific = data.get("hookSpecificOutput")
    if specific is not None and (not _fits(specific, SPECIFIC_FIELDS) or specific.get("hookEventName") not in EVENT_NAMES):
        return None
    if data.get("decision") not in (None, *LEGACY_DECISIONS):
        return None
    if specific is not None and specific.get("permissionDecision") not in (None, *DECISIONS):
        return None
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(name)  # NaN, Infinity: not JSON to Codex


def _fits(data: dict[str, Any], fields: dict[str, tuple[type, ...]]) -> bool:
    if any(key not in fields for key in data):
        return False
    if "hookEventName" in fields and "hookEventName" not in data:
        return False
    return all(isinstance(value, fields[key]) for key, value in data.items())


def _judged(answer: dict[str, Any]) -> Reading:
    specific = answer.get("hookSpecificOutput") or {}
    context = specific.get("additionalContext")
    message = answer.get("systemMessage")
    invalid = _unsupported(answer, specific)
    if invalid is not None:
        return Reading("failed", f"{invalid}: the hook failed, the call runs", system_message=message)
    decision = specific.get("permissionDecision")
    if _by_specific(specific):
        reason = (specific.get("permissionDecisionReason") or "").strip() if decision == "deny" else ""
    else:
        reason = (answer.get("reason") or "").strip() if answer.get("decision") == "block" else ""
    if reason:
        return Reading("blocked", "JSON: blocks", block_reason=reason, context=context, system_message=message)
    if decision == "allow":
        return Reading("completed", "JSON: rewrites the input", context=context,
                       updated_input=specific.get("updatedInput"), system_message=message)
    return Reading("completed", "JSON: adds context" if context else "JSON: no say", context=context,
                   system_message=message)


def _by_specific(specific: dict[str, Any]) -> bool:
    return any(specific.get(key) is not None for key in ("permissionDecision", "permissionDecisionReason",
                                                          "updatedInput"))


def _unsupported(answer: dict[str, Any], specific: dict[str, Any]) -> str | None:
    """Why Codex refuses the answer (output_parser's messages), or None."""
    if answer.get("continue") is False:
        return "unsupported continue:false"
    if answer.get("stopReason") is not None:
        return "unsupported stopReason"
    if answer.get("suppressOutput") is True:
        return "unsupported suppressOutput"
    decision = specific.get("permissionDecision")
    if _by_specific(specific):
        if specific.get("updatedInput") is not None and decision != "allow":
            return "updatedInput without permissionDecision:allow"
        if decision == "allow" and specific.get("updatedInput") is None:
            return "unsupported permissionDecision:allow (allow counts only with updatedInput)"
        if decision == "ask":
            return "unsupported permissionDecision:ask (Codex cannot ask)"
        if decision == "deny" and not (specific.get("permissionDecisionReason") or "").strip():
            return "permissionDecision:deny without a non-empty permissionDecisionReason"
        if decision is None and specific.get("permissionDecisionReason") is not None:
            return "permissionDecisionReason without permissionDecision"
        return None
    if answer.get("decision") == "approve":
        return "unsupported decision:approve"
    if answer.get("decision") == "block" and not (answer.get("reason") or "").strip():
        return "decision:block without a non-empty reason"
    if answer.get("decision") is None and answer.get("reason") is not None:
        return "reason without decision"
    return None


def applied(tool: str, updated: Any) -> tuple[Any, str | None]:
    """The input the tool runs with after a rewrite, or why the call fails instead: Codex's shell
    tool and apply_patch take the string `command` of `updatedInput` (the command, the patch) and
    nothing else (#rewriting-input; apply_patch measured on 0.171.0)."""
    if tool not in (SHELL_TOOL, "apply_patch"):
        return updated, None
    command = updated.get("command") if isinstance(updated, dict) else None
    if not isinstance(command, str):
        return None, "hook returned updatedInput without string field `command`"
    return {"command": command}, None

"""doctor's results for people (text), programs (a versioned JSON document) and code scanning (SARIF 2.1.0).

The JSON document is the one result; the text and SARIF renderings are made from it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote  # (pathlib has loaded it already)

from .. import __version__
from ..errors import ExitCode, HookwrightError
from ..patterns import lazy
from .model import Rule, catalog, resolved
from .run import Outcome
from .selection import Selection

SCHEMA = "hookwright-doctor/1"
INFORMATION_URI = "https://pypi.org/project/hookwright/"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def document(outcome: Outcome, strict: bool = False, selection: Selection | None = None, hidden: int = 0,
             notes: list[str] | None = None) -> dict[str, Any]:
    """`selection`: the rules the run reports (--select, --ignore, --min-severity, the config);
    `hidden`: how many findings it left out; `notes`: what else the run has to say."""
    errors, warnings, infos = (outcome.count(s) for s in ("error", "warning", "info"))
    unreadable = sum(1 for f in outcome.files if f.error is not None)  # not read or not parsed: not checked
    # the conflicts with this machine's files count like the others (the hooks do race here); a
    # file of this machine that cannot be read is not checked, so it does not make the exit 2
    failed = errors > 0 or (strict and warnings > 0)
    exit_code = ExitCode.BAD_INPUT if unreadable else ExitCode.FINDINGS if failed else ExitCode.OK
    per_file: dict[str, int] = {}
    for handler in outcome.handlers:
        per_file[str(handler.file.path)] = per_file.get(str(handler.file.path), 0) + 1
    listed = [*outcome.files, *(f for f, _why in outcome.context.unread)]  # (scope "unread": not read, not checked)
    return {
        "schema": SCHEMA,
        "hookwright_version": __version__,
        "project": str(outcome.project),
        "files": [{"path": str(f.path), "kind": f.kind, "host": f.host, "scope": f.scope, "plugin": f.plugin,
                   "handlers": per_file.get(str(f.path), 0)} for f in listed],
        "context": [{"path": str(f.path), "kind": f.kind, "host": f.host, "scope": f.scope, "plugin": f.plugin,
                     "error": f.error.message if f.error else None} for f in outcome.machine],
        "findings": [f.to_json() for f in outcome.findings],
        "summary": {"errors": errors, "warnings": warnings, "infos": infos, "files": len(listed),
                    "handlers": len(outcome.handlers), "unreadable": unreadable, "strict": strict,
                    "machine_dependent": sum(1 for f in outcome.findings if f.machine),
                    "hidden": hidden, "exit_code": int(exit_code)},
        "selection": (selection or Selection()).to_json(),
        "notes": list(notes or []),
    }


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_line(doc: dict[str, Any]) -> str:
    s = doc["summary"]
    line = f"{_plural(s['errors'], 'error')}, {_plural(s['warnings'], 'warning')} in {_plural(s['files'], 'file')}"
    line += f" (and {_plural(s['infos'], 'note')})" if s["infos"] else ""
    machine = s["machine_dependent"]
    line += f"; {machine} {'depends' if machine == 1 else 'depend'} on this machine" if machine else ""
    line += f"; {_plural(s['unreadable'], 'file')} could not be read" if s["unreadable"] else ""
    return line + (f"; {s['hidden']} hidden by the rule selection" if s["hidden"] else "")


def shown_path(path: str, base: Path) -> str:
    try:
        return resolved(Path(path)).relative_to(resolved(base)).as_posix()
    except ValueError:
        return path


Line = list[tuple[str, str | None]]  # (text, rich style or None): printed styled on a terminal, plain elsewhere


def text(doc: dict[str, Any], base: Path, verbosity: int = 0) -> list[Line]:
    """Findings grouped by file, then the summary line, as styled segments (no markup: a message
    may hold any bracket). `verbosity` -1 (--quiet): the findings alone, without hints, files
    without findings or the summary; 1 (--verbose): also the other places each one involves."""
    by_file: dict[str, list[dict[str, Any]]] = {}
    for finding in doc["findings"]:
        by_file.setdefault(finding["path"], []).append(finding)
    lines: list[Line] = []
    for file in doc["files"]:
        findings = by_file.pop(file["path"], [])
        if not findings and verbosity < 0:
            continue
        scope = f", {file['scope']}" if file["scope"] not in ("given",) else ""
        plugin = f", plugin {file['plugin']}" if file["plugin"] else ""
        lines.append([(shown_path(file["path"], base), "bold"), (" ", None),
                      (f"({file['kind']}{scope}{plugin})", "dim")])
        if not findings:
            lines.append([("  no findings", "dim")])
        lines.extend(_finding_lines(findings, base, verbosity))
    for path, findings in by_file.items():  # a script the hooks run, a skill, or a file of this machine a conflict sits in
        where = " (this machine)" if any(f.get("depends_on_machine") for f in findings) else \
            " (a skill of the session)" if path.endswith("SKILL.md") else " (run by the hooks above)"
        lines.append([(shown_path(path, base), "bold"), (where, "dim")])
        lines.extend(_finding_lines(findings, base, verbosity))
    if verbosity < 0:
        return lines
    for file in doc["context"]:
        if file["error"]:
            lines.append([(f"this machine: {typed_path(file['path'], base)} could not be read ({file['error']}), "
                           "so the named files' conflicts with it are not checked", "dim")])
    if not doc["files"]:
        lines.append([(f"no hook config found for {doc['project']}", "dim")])
    chosen = doc["selection"]
    if chosen["config"]:
        lines.append([(f"rules chosen by {typed_path(chosen['config'], base)}", "dim")])
    for skipped in chosen["skipped_configs"]:
        lines.append([(f"not read: {typed_path(skipped['path'], base)}: {skipped['why']}", "yellow")])
    lines.extend([("note: ", "yellow"), (note, None)] for note in doc.get("notes", []))
    s = doc["summary"]
    colour = "red" if s["errors"] else "yellow" if s["warnings"] else "green"
    lines.append([(summary_line(doc), colour)])
    return lines


def _finding_lines(findings: list[dict[str, Any]], base: Path, verbosity: int) -> list[Line]:
    lines: list[Line] = []
    for f in findings:
        where = f"{f['line']}:{f['column']}"
        severity = f["severity"]
        machine = ", ".join(typed_path(path, base) for path in f["machine_files"])
        lines.append([(f"  {where:>7}  ", None), (f"{severity:<7}", STYLE[severity]), (" ", None),
                      (f["rule"], "dim"), *([("  [confirmed by --probe]", "bold")] if f["confirmed_by_probe"] else []),
                      (f"  {f['message']}", None),
                      *([(f" (this machine: {machine})", "magenta")] if machine else [])])
        if f["hint"] and verbosity >= 0:
            lines.append([(f"  {'':>7}  {'':<7} ", None), (f"hint: {f['hint']}", "dim")])
        for other in f["related"] if verbosity > 0 else []:
            lines.append([(f"  {'':>7}  {'':<7} ", None),
                          (f"also at {shown_path(other['path'], base)}:{other['line']}:{other['column']}: "
                           f"{other['message']}", "dim")])
    return lines


def typed_path(path: str, base: Path | None) -> str:
    """A path as people type it: relative to `base` when it is inside (none: never), else from ~
    (~/.claude/settings.json) when it is in the home folder."""
    shown = shown_path(path, base) if base is not None else path
    home = str(Path.home())
    return "~" + shown[len(home):] if shown.startswith(home + "/") else shown


TEMPLATE_FIELD = lazy(r"(?<!\{)\{(\w+)\}(?!\})")


def template(text: str) -> str:
    """A message or hint template for people: `{matcher}` shown as `<matcher>`."""
    shown: str = TEMPLATE_FIELD.sub(r"<\1>", text)
    return shown.replace("{{", "{").replace("}}", "}")


def explanation(rule_id: str) -> dict[str, str]:
    rule = catalog()[rule_id]
    return {"id": rule.id, "kind": rule.kind, "severity": rule.severity, "message": rule.message,
            "hint": rule.hint, "explanation": rule.explanation}


# ---- SARIF 2.1.0 ----------------------------------------------------------------------------------

def sarif(doc: dict[str, Any], base: Path) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run, every rule of the catalog, one result per finding, paths
    relative to `base` (the working directory) where possible."""
    rules = list(catalog().values())
    index = {rule.id: i for i, rule in enumerate(rules)}
    base_uri = resolved(base).as_uri().rstrip("/") + "/"
    artifacts = _Artifacts(base)
    results = []
    for f in doc["findings"]:
        result: dict[str, Any] = {
            "ruleId": f["rule"],
            "ruleIndex": index[f["rule"]],
            "level": SARIF_LEVEL[f["severity"]],
            "message": {"text": f["message"] + (f". Hint: {f['hint']}" if f["hint"] else "")},
            "locations": [_location(artifacts, f["path"], f["line"], f["column"])],
        }
        if f["depends_on_machine"]:
            result["properties"] = {"dependsOnMachine": True, "machineFiles": f["machine_files"]}
        related = [{"id": i, **_location(artifacts, r["path"], r.get("line"), r.get("column")),
                    "message": {"text": r.get("message") or "related"}} for i, r in enumerate(f["related"])]
        if related:
            result["relatedLocations"] = related
        if f["confirmed_by_probe"]:
            result.setdefault("properties", {})["confirmedByProbe"] = True
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "hookwright",
                "version": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_rule(rule) for rule in rules],
            }},
            "originalUriBaseIds": {"SRCROOT": {"uri": base_uri}},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"ruleConfig": doc.get("selection", {}).get("config"),
                           "skippedConfigs": doc.get("selection", {}).get("skipped_configs", [])},
        }],
    }


def sarif_failure(error: HookwrightError, base: Path) -> dict[str, Any]:
    """A SARIF log for a run that could not check anything (a usage error, a missing folder):
    no results, and an invocation that failed with the error as its notification."""
    text = error.message + (f". Hint: {error.hint}" if error.hint else "")
    notification: dict[str, Any] = {"level": "error", "message": {"text": text}}
    if error.path is not None:
        notification["locations"] = [_location(_Artifacts(base), str(error.path), error.line, error.column)]
    log = sarif({"findings": []}, base)
    log["runs"][0]["invocations"] = [{"executionSuccessful": False, "exitCode": int(error.code),
                                      "toolExecutionNotifications": [notification]}]
    return log


def _rule(rule: Rule) -> dict[str, Any]:
    kind, slug = rule.id.split("/", 1)
    short = f"{kind.capitalize()}: {slug.replace('-', ' ')}"  # "Command: script missing": the id, as words
    return {
        "id": rule.id,
        "name": "".join(part.capitalize() for part in rule.id.replace("/", "-").split("-")),
        "shortDescription": {"text": short},
        "fullDescription": {"text": " ".join(rule.explanation.split())},
        "help": {"text": " ".join(rule.explanation.split()) + f" (hookwright doctor --explain {rule.id})"},
        "defaultConfiguration": {"level": SARIF_LEVEL[rule.severity]},
        "properties": {"tags": [rule.kind]},
    }


class _Artifacts(dict[str, dict[str, str]]):
    """Each path's SARIF artifact location, its links followed once per log: a file with
    thousands of findings (one per line of a long script) was resolved on the disk for each:
    doctor --format sarif on a 10,000-line script took 6.1 s of CPU, now 4.6 s."""

    def __init__(self, base: Path) -> None:
        super().__init__()
        self.base = resolved(base)

    def __missing__(self, path: str) -> dict[str, str]:
        real = resolved(Path(path))
        try:
            artifact = {"uri": quote(real.relative_to(self.base).as_posix()), "uriBaseId": "SRCROOT"}
        except ValueError:
            artifact = {"uri": real.as_uri()}
        self[path] = artifact
        return artifact


def _location(artifacts: _Artifacts, path: str, line: int | None, column: int | None) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": dict(artifacts[path])}
    if line:
        location["region"] = {"startLine": line, "startColumn": column or 1}
    return {"physicalLocation": location}

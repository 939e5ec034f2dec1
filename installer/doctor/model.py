"""The words every doctor check speaks: config files, the handlers in them (installer/hooks/model.py,
re-exported here), findings and the rules they come from.

Checks are plain functions `check(ctx: Context) -> Iterable[Finding]` in
installer/doctor/checks/<kind>.py. They build findings with `ctx.finding(rule_id, file,
keys, **params)`: the rule's severity, message and hint come from the catalog
(installer/doctor/rules/<kind>.toml, compiled into catalog.json), the line and column from the
JSON path `keys`.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable, Sequence, TypeVar

from .. import safe_read
from ..document import Keys
from ..hooks.model import HOST_NAMES as HOST_NAMES  # (re-exported: the words below doctor and simulate)
from ..hooks.model import ConfigFile as ConfigFile
from ..hooks.model import Configs
from ..hooks.model import Handler as Handler
from ..hooks.model import Plugin as Plugin
from ..hooks.model import cached_property as cached_property
from ..hooks.model import resolved as resolved
from ..hooks.model import timeout_seconds as timeout_seconds
from ..hosts.base import describe as describe  # re-exported: what a JSON value is, for messages
from ..patterns import lazy
from ..records import Record

SEVERITIES = ("error", "warning", "info")
RULES_DIR = Path(__file__).absolute().parent / "rules"  # (where its links lead matters not: no realpath, 0.2 M)
CATALOG = "catalog.json"  # compiled from the TOML files: scripts/build_rule_catalog.py
# the rules' explanations, apart: a run words its findings from the catalog, and only --explain,
# SARIF and the host-version notes read these (more than half the text: about 1 ms of every run)
EXPLANATIONS = "explanations.json"


class Rule:
    def __init__(self, id: str, kind: str, severity: str, message: str, hint: str,
                 variants: dict[str, dict[str, str]] | None = None) -> None:
        self.id = id  # "<kind>/<name>", stable: tools and users refer to it
        self.kind = kind  # structure | matcher | command | script | conflict | host
        self.severity = severity
        self.message = message  # str.format template, filled from the finding's params
        self.hint = hint
        # other wordings of one finding, by name (`[rule.<variant>]` in the TOML): message and hint
        self.variants = variants or {}

    @property
    def explanation(self) -> str:
        return explanations()[self.id]

    def worded(self, variant: str | None) -> tuple[str, str]:
        """(message, hint) templates, the rule's own or one variant's."""
        if variant is None:
            return self.message, self.hint
        chosen = self.variants[variant]
        return chosen.get("message", self.message), chosen.get("hint", self.hint)


@cache
def catalog() -> dict[str, Rule]:
    """Every rule, by id. The rules are written in rules/<kind>.toml (one `[rule-name]` table
    per rule) and compiled into rules/catalog.json (scripts/build_rule_catalog.py; a test
    checks that it matches): json's C parser reads them all in a fraction of what parsing one
    TOML file costs, and every doctor run, and every install's plan check, needs some."""
    raw = json.loads(_catalog_text())
    return {rule_id: Rule(rule_id, rule_id.split("/", 1)[0], **fields) for rule_id, fields in raw.items()}


@cache
def explanations() -> dict[str, str]:
    """Every rule's explanation, by id (rules/explanations.json, compiled with the catalog)."""
    explained: dict[str, str] = json.loads(safe_read.read(RULES_DIR / EXPLANATIONS, safe_read.BUNDLED))
    return explained


def rule_by_id(rule_id: str) -> Rule:
    """One rule, parsed alone from the catalog's text: a doctor run words a few findings, and
    parsing every rule cost 5 M instructions of `doctor FILE` on a typical file (about 1.5 ms;
    scripts/bench_doctor.py). build_rule_catalog.py writes each rule's table on a line of its own,
    its id at the line's start (json.dumps, indent 1); `catalog()` still reads them all."""
    rule = _ONE_BY_ONE.get(rule_id)
    if rule is None:
        text = _catalog_text()
        key = f"\n {json.dumps(rule_id)}: "
        at = text.find(key)
        if at < 0:
            return catalog()[rule_id]  # (a KeyError, as for any id the catalog does not hold)
        fields, _ = json.JSONDecoder().raw_decode(text, at + len(key))
        rule = _ONE_BY_ONE[rule_id] = Rule(rule_id, rule_id.split("/", 1)[0], **fields)
    return rule


_ONE_BY_ONE: dict[str, Rule] = {}


@cache
def _catalog_text() -> str:
    return safe_read.read(RULES_DIR / CATALOG, safe_read.BUNDLED).decode("utf-8")


def compile_catalog() -> dict[str, dict[str, Any]]:
    """rules/catalog.json's content, from the TOML files: every rule but its explanation."""
    return {rule_id: {key: value for key, value in rule.items() if key != "explanation"}
            for rule_id, rule in _compiled_rules().items()}


def compile_explanations() -> dict[str, str]:
    """rules/explanations.json's content, from the TOML files: each rule's explanation."""
    return {rule_id: rule["explanation"] for rule_id, rule in _compiled_rules().items()}


def _compiled_rules() -> dict[str, dict[str, Any]]:
    """Every rule as the TOML files write it (a rule's severity must be a known one)."""
    from ..resources import read_toml  # the package's one TOML reader (here: only a catalog build reads TOML)

    rules: dict[str, dict[str, Any]] = {}
    for path in sorted(RULES_DIR.glob("*.toml")):
        for name, raw in read_toml(path, hint="fix the rule's TOML", kind=safe_read.BUNDLED).items():
            rule_id = f"{path.stem}/{name}"
            if raw["severity"] not in SEVERITIES:
                raise ValueError(f"{path}: {rule_id} has severity {raw['severity']!r}")
            rules[rule_id] = {"severity": raw["severity"], "message": raw["message"], "hint": raw["hint"],
                              "explanation": raw["explanation"].strip()}
            variants = {key: value for key, value in raw.items() if isinstance(value, dict)}
            if variants:
                rules[rule_id]["variants"] = variants
    return rules


# a rule's function: the findings of one rule in the unit its table hands every rule (a command, a matcher...)
RuleFunction = TypeVar("RuleFunction", bound=Callable[..., Iterable["Finding"]])


class RuleTable:
    """A check module's rules: one function per rule, registered with its id by `@table.rule(id)`.
    The rule's words stay in the catalog; the function only finds. A test holds every registered
    id to the catalog, and the catalog to the ids."""

    def __init__(self) -> None:
        self.functions: dict[str, Callable[..., Iterable[Finding]]] = {}
        self.alone: list[str] = []  # rules whose finding means the others do not apply, tried in order
        self._alone: list[tuple[Callable[..., Iterable[Finding]], Callable[..., object] | None]] = []  # (and premises)
        # the other rules, grouped by their premise as they are registered (None: no premise), each
        # group in the order its first rule was registered: a premise is asked once per unit
        self._by_premise: dict[Callable[..., object] | None, list[Callable[..., Iterable[Finding]]]] = {}

    def rule(self, rule_id: str, alone: bool = False,
             premise: Callable[..., object] | None = None) -> Callable[[RuleFunction], RuleFunction]:
        """`alone`: when this rule finds something, the others are not run (a command that
        cannot start at all has nothing else worth saying). `premise`: a cheap test of the unit
        (given what the rule is given) without which the rule finds nothing; the rules that share
        it are one group, asked it once per unit and not called where it fails (the run calls a
        table's rules once per unit, thousands of times: each call of a rule that finds nothing
        still makes and runs a generator). The function is registered as it is."""
        def register(function: RuleFunction) -> RuleFunction:
            if rule_id in self.functions:
                raise ValueError(f"{rule_id} is registered twice")
            self.functions[rule_id] = function
            if alone:
                self.alone.append(rule_id)
                self._alone.append((function, premise))
            else:
                self._by_premise.setdefault(premise, []).append(function)
            return function
        return register

    def run(self, *args: Any) -> list[Finding]:
        """The findings of every rule in the unit `args`: the rules said alone first, in order,
        then each group whose premise holds (findings are put in report order later: run.py)."""
        for function, premise in self._alone:
            if premise is None or premise(*args):
                found = list(function(*args))
                if found:
                    return found
        found = []
        for premise, functions in self._by_premise.items():
            if premise is None or premise(*args):
                for function in functions:
                    found.extend(function(*args))
        return found


class Finding(Record):
    rule: str
    severity: str
    path: str
    line: int  # 1-based; 1, 1 where the file holds no place for it
    column: int
    message: str
    hint: str
    related: Sequence[dict[str, Any]] = ()  # other places involved: {"path", "line", "column", "message"}
    # what a plan's check tells findings apart by, before and after a change (never printed):
    keys: Keys = ()  # the JSON path it is about
    at_key: bool = False  # at the key of `keys`, not at its value
    about: tuple[Hashable, ...] = ()  # its subject where the message holds more (two racers)
    focused: bool = False  # it involves a handler in Context.focus
    # the files not given (the user's settings, a plugin...) that `doctor FILE` found it with: it
    # depends on this machine (doctor/run.py: around); () for a finding of the given files alone
    machine: tuple[str, ...] = ()
    confirmed_by_probe: bool = False  # a static finding that `doctor --probe` saw happen (probe.confirm)

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "severity": self.severity, "path": self.path, "line": self.line,
                "column": self.column, "message": self.message, "hint": self.hint, "related": list(self.related),
                "depends_on_machine": bool(self.machine), "machine_files": list(self.machine),
                "confirmed_by_probe": self.confirmed_by_probe}

    def identity(self) -> tuple[str, str, tuple[Hashable, ...] | str]:
        """The same finding in two runs (before and after a change, alone and with this
        machine's files): by its subject where it names one (a race narrowed to fewer tools is
        the same race), else by its message, wherever it moved in the file."""
        return self.rule, self.path, self.about or _POSITION.sub("#", self.message)


_POSITION = lazy(r"(?<=line )\d+|(?<=:)\d+\b")  # "line 12 of this file", "settings.json:12"


_Fact = TypeVar("_Fact")


class Context(Configs):
    """The hook configuration a doctor run checks, and the findings it words."""

    def once(self, compute: Callable[[Context], _Fact]) -> _Fact:
        """`compute(self)`, worked out on the first ask and kept with this context: a fact of the
        whole run that a rule would otherwise work out again for each unit it is handed (the
        settings' env values for each of a run's commands: files times commands, a sixth of the
        corpus tree's run). Keyed on the function: a context's files never change once it is
        built (a share of a run, or a plan's result, is a context of its own)."""
        kept: dict[Callable[[Context], Any], Any] = self.__dict__.setdefault("_once", {})
        if compute not in kept:
            kept[compute] = compute(self)
        fact: _Fact = kept[compute]
        return fact

    def finding(self, rule_id: str, file: ConfigFile, keys: Keys = (), related: Sequence[dict[str, Any]] | None = None,
                at_key: bool = False, about: tuple[Hashable, ...] = (), focused: bool = False, variant: str | None = None,
                **params: Any) -> Finding:
        """A finding at the value at `keys` (`at_key`: at its key, where the name is what is wrong),
        worded as the rule says, or as one of its variants."""
        line, column = file.position(keys, at_key)
        rule = rule_by_id(rule_id)
        message, hint = rule.worded(variant)
        return Finding(rule.id, rule.severity, str(file.path), line, column, message.format(**params),
                       hint.format(**params), related or [], keys, at_key, about, focused)

    def finding_at(self, rule_id: str, file: ConfigFile, line: int | None, column: int | None,
                   related: Sequence[dict[str, Any]] | None = None, variant: str | None = None, **params: Any) -> Finding:
        """A finding at a known position (a syntax error's line and column, say)."""
        rule = rule_by_id(rule_id)
        message, hint = rule.worded(variant)
        return Finding(rule.id, rule.severity, str(file.path), line or 1, column or 1,
                       message.format(**params), hint.format(**params), related or [])



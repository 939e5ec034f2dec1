#!/usr/bin/env python3
"""Write docs/rules.md, every doctor rule as `hookwright doctor --explain RULE` tells it, from the
compiled catalog (installer/doctor/rules/catalog.json). A test fails while the page and the
catalog disagree; run this after scripts/build_rule_catalog.py.

    python3 scripts/build_rules_doc.py          # write docs/rules.md
    python3 scripts/build_rules_doc.py --check  # exit 1 if docs/rules.md is stale
"""
from __future__ import annotations

import argparse
import itertools
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hookwright.doctor.model import SEVERITIES, Rule, catalog  # noqa: E402
from hookwright.doctor.report import template  # noqa: E402

PAGE = REPO / "docs" / "rules.md"
COMMAND = "python3 scripts/build_rules_doc.py"

EXIT_CODE = {  # as report.document counts them
    "error": "doctor exits 1",
    "warning": "doctor exits 1 only with `--strict`",
    "info": "never changes doctor's exit code",
}

INTRO = """\
Every finding of `hookwright doctor` names the rule it breaks. A rule id is
`<category>/<name>`, e.g. `structure/invalid-json`; ids are stable, so tools and people can refer
to them (the JSON report's `rule`, SARIF's `ruleId`). `hookwright doctor --explain RULE` prints
one rule as its section below gives it: the message (`<name>` stands for what each finding fills
in), why it matters, and the fix unless each finding works out its own.
"""


def spelled(text: str) -> str:
    """Control characters as their escapes: the TOML's `\\r` is a carriage return, which the page
    would read as a line break and lose."""
    return re.sub(r"[\x00-\x09\x0b-\x1f]", lambda control: repr(control[0])[1:-1], text)


def markdown_text(text: str) -> str:
    """Catalog prose as Markdown: its `code spans` kept, and outside them the characters Markdown
    would read as markup escaped (`<KEY>` would vanish as an HTML tag)."""
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(part if part.startswith("`") else re.sub(r"([\\*_\[\]<~])", r"\\\1", part) for part in parts)


def code(text: str) -> str:
    """`text` as one inline code span, literally, backticks and all, as --explain prints it."""
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def anchor(rule_id: str) -> str:
    """The rule's link target on the page, from its id alone so links to it keep working."""
    return rule_id.replace("/", "-")


def section(rule: Rule) -> str:
    lines = [f'<a id="{anchor(rule.id)}"></a>', f"### {rule.id}", "",
             f"**Severity:** {rule.severity}", "",
             f"**Message:** {code(spelled(template(rule.message)))}", "",
             markdown_text(spelled(rule.explanation)), ""]
    hint = spelled(template(rule.hint))
    if hint != "<hint>":  # a hint worked out for each finding: --explain leaves it out too
        lines += [f"**Fix:** {code(hint)}", ""]
    for name in rule.variants:  # another wording of one case of the rule
        message, hint = (spelled(template(text)) for text in rule.worded(name))
        lines += [f"**Message ({name}):** {code(message)}", "", f"**Fix ({name}):** {code(hint)}", ""]
    return "\n".join(lines)


def render() -> str:
    rules = sorted(catalog().values(), key=lambda rule: rule.id)
    categories = [(kind, list(group)) for kind, group in itertools.groupby(rules, key=lambda rule: rule.kind)]
    out = ["# doctor rules", "", INTRO, "A rule's severity says what its findings do to the run:", ""]
    out += [f"- **{severity}**: {EXIT_CODE[severity]}." for severity in SEVERITIES]
    out += ["", f"This page is generated from the rule catalog (installer/doctor/rules/*.toml) by `{COMMAND}`:",
            "do not edit it by hand.", "", "## Contents", ""]
    out += [f"- [{kind}](#{kind}) ({len(group)}): " + ", ".join(
        f"[{rule.id.split('/', 1)[1]}](#{anchor(rule.id)})" for rule in group) for kind, group in categories]
    for kind, group in categories:
        out += ["", f"## {kind}", "", *(section(rule) for rule in group)]
    return "\n".join(out).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/rules.md is not what this writes")
    args = parser.parse_args(argv)
    page = render()
    if args.check:
        if not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != page:
            print(f"{PAGE.relative_to(REPO)} is stale: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(page, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""docs/rules.md, written from doctor's rule catalog by scripts/build_rules_doc.py."""
from __future__ import annotations

import html
import re
import sys

from hookwright import resources
from hookwright.doctor.model import catalog
from hookwright.doctor.report import template

sys.path.insert(0, str(resources.data_root() / "scripts"))
import build_rules_doc  # noqa: E402


def test_docs_rules_md_is_what_the_catalog_generates():
    committed = build_rules_doc.PAGE.read_text(encoding="utf-8")
    assert build_rules_doc.render() == committed, f"docs/rules.md is stale: run {build_rules_doc.COMMAND}"


def test_every_rule_in_the_catalog_has_a_section_in_docs_rules_md():
    page = build_rules_doc.PAGE.read_text(encoding="utf-8")
    headings = re.findall(r"^### (\S+)$", page, re.MULTILINE)
    assert headings == sorted(catalog()), "one heading per rule, in id order"
    for rule_id in catalog():
        anchor = build_rules_doc.anchor(rule_id)
        assert f'<a id="{anchor}"></a>\n### {rule_id}\n' in page, rule_id
        assert f"](#{anchor})" in page, f"{rule_id} is missing from the contents"


def test_the_catalog_text_reaches_the_reader_of_the_rendered_page_unchanged():
    """Explanations hold `<KEY>` and `_` outside code spans, hints hold backticks, one explanation
    a carriage return: as HTML, the page must still read what --explain prints (less the
    explanation's code-span backticks, with control characters spelled as escapes)."""
    from markdown_it import MarkdownIt  # rich's Markdown parser, CommonMark

    rendered = MarkdownIt("commonmark").render(build_rules_doc.render())
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", rendered)).split())
    for rule in catalog().values():
        for said in (template(rule.message), rule.explanation.replace("`", ""), template(rule.hint)):
            if said != "<hint>":  # worked out for each finding: not on the page
                assert " ".join(build_rules_doc.spelled(said).split()) in text, rule.id
    assert "/bin/bash\\r" in text


def test_check_names_the_command_to_run_when_docs_rules_md_is_stale(tmp_path, monkeypatch, capsys):
    page = tmp_path / "docs" / "rules.md"
    page.parent.mkdir()
    monkeypatch.setattr(build_rules_doc, "REPO", tmp_path)
    monkeypatch.setattr(build_rules_doc, "PAGE", page)

    assert build_rules_doc.main(["--check"]) == 1  # no page yet
    page.write_text(build_rules_doc.render().replace("error", "eror", 1), encoding="utf-8")
    assert build_rules_doc.main(["--check"]) == 1
    assert capsys.readouterr().err == f"docs/rules.md is stale: run {build_rules_doc.COMMAND}\n" * 2

    assert build_rules_doc.main([]) == 0
    assert build_rules_doc.main(["--check"]) == 0
    assert page.read_text(encoding="utf-8") == build_rules_doc.render()

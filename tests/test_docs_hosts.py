"""The host facts the code relies on are written in docs/hosts/, and the code cites them there:
every page#section it cites must exist, so a renamed heading cannot leave a dead citation."""
import re

from hookwright import resources

REPO = resources.data_root()
CITED = re.compile(r"docs/hosts/([a-z-]+\.md)(?:#([a-z0-9-]+))?")


def _anchors(page) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them (and explicit <a id> ones)."""
    text = page.read_text(encoding="utf-8")
    headings = re.findall(r"^#+ (.+)$", text, re.M)
    made = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}
    return made | set(re.findall(r'<a id="([^"]+)"', text))


def test_every_docs_hosts_section_the_code_and_the_rules_cite_exists():
    cited = {}
    for root in ("installer", "templates"):
        for path in (REPO / root).rglob("*"):
            if path.is_file() and path.suffix in ("", ".py", ".toml", ".ts", ".js") and "__pycache__" not in path.parts:
                for page, anchor in CITED.findall(path.read_text(encoding="utf-8", errors="replace")):
                    cited.setdefault((page, anchor), path.relative_to(REPO))
    assert len(cited) > 20
    for (page, anchor), where in sorted(cited.items()):
        target = REPO / "docs" / "hosts" / page
        assert target.is_file(), f"{where} cites docs/hosts/{page}, which does not exist"
        assert not anchor or anchor in _anchors(target), f"{where} cites docs/hosts/{page}#{anchor}: no such section"


def test_every_error_rule_says_what_it_rests_on_in_the_error_rules_table():
    """docs/hosts/README.md#error-rules: each error-severity rule, measured, documented or no host
    fact, and where; a new error rule needs its row (issue 35: no error on a fact the real CLI
    contradicts)."""
    from hookwright.doctor.model import catalog

    text = (REPO / "docs" / "hosts" / "README.md").read_text(encoding="utf-8")
    table = text.split("## Error rules", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `([a-z]+/[a-z0-9-]+)` \| (measured|documented|not a host fact) \|", table, re.M))
    errors = {rule.id for rule in catalog().values() if rule.severity == "error"}
    assert set(rows) == errors
    for page, anchor in re.findall(r"\]\(([a-z-]+\.md)#([a-z0-9-]+)\)", table):
        assert anchor in _anchors(REPO / "docs" / "hosts" / page), f"{page}#{anchor}"

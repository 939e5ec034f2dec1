"""The package's prefiltered patterns: a text without any of a pattern's literals has no match,
proved from the pattern's parse, and the prefilter answers as the pattern would."""
import ast
import re
import re._constants as C
import re._parser as parser  # (Python's own regex parser: what the pattern means, not what we hope)
from pathlib import Path

import pytest
from hookwright import patterns
from hookwright.patterns import DEFINED, Prefiltered, every_pattern, lazy

PATTERNS = every_pattern()
PREFILTERED = [pattern for pattern in PATTERNS if isinstance(pattern, Prefiltered)]


def _exact(items) -> set[str] | None:
    """The few texts a sequence of regex items can match, if it is literals and alternatives of them."""
    texts = {""}
    for op, av in items:
        if op is C.LITERAL:
            choices = {chr(av)}
        elif op is C.SUBPATTERN:
            choices = _exact(av[3])
        elif op is C.BRANCH:
            branches = [_exact(branch) for branch in av[1]]
            choices = None if None in branches else set().union(*branches)
        else:
            choices = None
        if choices is None:
            return None
        texts = {text + choice for text in texts for choice in choices}
        if len(texts) > 64:
            return None
    return texts


def _covered(items, needs, folded=False) -> bool:
    """Whether every match of this sequence of regex items contains one of `needs`: a run of
    fixed texts each of which holds one (in any case, `folded`), or one item that is itself covered."""
    run = {""}
    for op, av in items:
        texts = _exact([(op, av)])
        if texts is not None and len(run) * len(texts) <= 64:
            run = {before + text for before in run for text in texts}
            if all(any(n in (text.lower() if folded else text) for n in needs) for text in run):
                return True
            continue
        run = {""} if texts is None else texts
        if op is C.SUBPATTERN and _covered(av[3], needs, folded):
            return True
        if op is C.BRANCH and all(_covered(branch, needs, folded) for branch in av[1]):
            return True
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and av[0] >= 1 and _covered(av[2], needs, folded):
            return True
        if op is C.ATOMIC_GROUP and _covered(av, needs, folded):
            return True
    return False


def test_the_script_readers_have_prefiltered_patterns():
    assert len(PREFILTERED) >= 30


@pytest.mark.parametrize("pattern", PREFILTERED, ids=lambda p: p.pattern[:40])
def test_every_match_of_a_prefiltered_pattern_contains_one_of_its_literals(pattern):
    parsed = parser.parse(pattern.pattern, pattern.flags)
    folded = bool(parsed.state.flags & re.IGNORECASE)
    assert folded == pattern.folded  # a case-blind pattern looks for its literals in any case
    assert _covered(parsed, pattern.needs, folded), f"a match of {pattern.pattern!r} may hold none of {pattern.needs}"


def test_the_proof_rejects_literals_a_match_can_do_without():
    for text, needs in [(r"ab?c", ("abc",)), (r"x|yz", ("yz",)), (r"(?:go)*", ("go",)), (r"(?=deny)\w+", ("deny",))]:
        assert not _covered(parser.parse(text), needs), text
    assert _covered(parser.parse(r"(?:a|b)(?:deny|denied)"), ("den",))
    assert _covered(parser.parse(r"x(?:updatedInput|updated_input)"), ("updatedInput", "updated_input"))


def test_a_prefiltered_pattern_finds_what_the_compiled_one_finds():
    pattern = lazy(r"decision\s*:\s*(?P<v>\w+)", needs=("decision",))
    texts = ["", "no answer here", 'x = {decision: block}', "decision:allow decision : deny"]
    for text in texts:
        compiled = re.compile(pattern.pattern)
        assert [m.group("v") for m in pattern.finditer(text)] == [m.group("v") for m in compiled.finditer(text)]
        assert bool(pattern.search(text)) == bool(compiled.search(text))
        assert bool(pattern.match(text)) == bool(compiled.match(text))
        assert pattern.findall(text) == compiled.findall(text)
    DEFINED.remove(pattern)


def test_a_case_blind_prefiltered_pattern_finds_its_literal_in_any_case():
    pattern = lazy(r"(?i)stop_hook_active", needs=("stop_hook_active",))
    assert pattern.search("if [ $STOP_HOOK_ACTIVE ]") and not pattern.search("nothing here")
    assert pattern.search("$ſtop_hook_active")  # (Python's case-blind s matches the long s, which lower() keeps)
    DEFINED.remove(pattern)


RE_FUNCTIONS = {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"}


def _literal_patterns_compiled_at_run_time(source: str) -> list[int]:
    """Lines of `re.search(r"...", ...)` and the like: a pattern written out, compiled by `re`,
    given as text or as the name of a module's text constant."""
    tree = ast.parse(source)
    texts = {target.id for node in tree.body if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
             and isinstance(node.value.value, str) for target in node.targets if isinstance(target, ast.Name)}
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.func.attr in RE_FUNCTIONS
            and node.args and (isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                               or isinstance(node.args[0], ast.Name) and node.args[0].id in texts)]


def test_every_pattern_the_package_writes_out_is_a_lazy_one_with_its_program():
    """A pattern given to `re` as text is parsed and compiled by Python code on its first use in
    each run (0.1 to 0.3 ms each); a `lazy` one is made from its built program. Patterns built
    from a run's data (f-strings) are not written out and compile as they must."""
    package = Path(patterns.__file__).parent
    found = {str(path.relative_to(package)): lines for path in sorted(package.rglob("*.py"))
             if (lines := _literal_patterns_compiled_at_run_time(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_the_check_for_written_out_patterns_finds_one():
    assert _literal_patterns_compiled_at_run_time('import re\nre.sub(r"\\s+", " ", text)\nre.compile(f"{x}")\n') == [2]
    assert _literal_patterns_compiled_at_run_time('import re\nWORD = "[a-z]+"\nre.fullmatch(WORD, text)\n') == [3]

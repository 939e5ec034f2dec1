"""What fires and what an answer means has one owner, installer/hooks, below doctor and simulate:
neither of those imports the other, and hooks imports neither (issue 37). Every import counts,
the ones inside functions and under TYPE_CHECKING too."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "installer"


def _imports(package: str) -> dict[str, set[str]]:
    """Each module of installer/<package> (as "hookwright.<package>...") and what it imports."""
    found: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / package).rglob("*.py")):
        parts = ["hookwright", *path.relative_to(PACKAGE).with_suffix("").parts]
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        here = parts[:-1]  # the package the module is in
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.replace("installer.", "hookwright.", 1) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = here[:len(here) - node.level + 1] if node.level else []
                target = ".".join([*base, node.module] if node.module else base)
                names.add(target)
                names.update(f"{target}.{alias.name}" for alias in node.names)  # `from .. import doctor`
        found[module] = names
    return found


def _simulators() -> dict[str, set[str]]:
    """The simulate module in each adapter's folder (installer/hosts/<name>/simulate.py)."""
    return {module: names for module, names in _imports("hosts").items() if module.endswith(".simulate")}


def _simulator_names() -> tuple[str, ...]:
    return tuple(module.removeprefix("hookwright.") for module in _simulators())


def _crossing(package: str | dict[str, set[str]], others: tuple[str, ...]) -> list[str]:
    modules = _imports(package) if isinstance(package, str) else package
    return sorted(f"{module} imports {name}" for module, names in modules.items() for name in names
                  for other in others if name == f"hookwright.{other}" or name.startswith(f"hookwright.{other}."))


def test_the_import_reader_sees_imports_across_packages_where_there_are_some():
    assert any(name.startswith("hookwright.hooks.") for names in _imports("doctor").values() for name in names)
    assert len(_simulators()) >= 3
    assert any(name.startswith("hookwright.hooks.") for names in _simulators().values() for name in names)


def test_doctor_never_imports_simulate():
    assert _crossing("doctor", (*_simulator_names(), "commands.simulate")) == []


def test_simulate_never_imports_doctor():
    assert _crossing(_simulators(), ("doctor",)) == []


def test_the_hooks_layer_imports_neither_doctor_nor_simulate_nor_the_commands():
    assert _crossing("hooks", ("doctor", *_simulator_names(), "commands")) == []



def test_results_are_plain_data_that_printing_reads_and_never_the_reverse():
    """commands/ returns results (commands/result.py) and output.py (with printers.py) prints them:
    no command module imports either, so results and printing never import each other again."""
    assert _crossing("commands", ("output", "printers")) == []
    assert "hookwright.commands.result" in _imports_of("output.py")


def test_every_payload_of_a_command_has_its_printer():
    import importlib
    import pkgutil

    from hookwright import commands, printers
    from hookwright.commands.result import Payload

    for info in pkgutil.iter_modules(commands.__path__):
        importlib.import_module(f"hookwright.commands.{info.name}")
    kinds = {kind.__name__ for kind in _subclasses(Payload)}
    assert kinds - {"Report"} == set(printers.PRINTERS)  # (doctor's report prints as its --format says)


def test_planning_checking_and_applying_are_one_package_below_the_commands():
    """A change goes plan -> check -> consent -> lock -> re-plan -> write in installer/planning/;
    doctor, simulate and the hooks layer never import it (a plan's check imports doctor)."""
    assert not [name for name in ("plan.py", "plan_check.py", "apply.py") if (PACKAGE / name).exists()]
    assert {"plan", "plan_check", "apply"} <= {path.stem for path in (PACKAGE / "planning").glob("*.py")}
    assert _crossing("doctor", ("planning", "commands")) == []
    assert _crossing(_simulators(), ("planning",)) == []
    assert _crossing("hooks", ("planning",)) == []


def _imports_of(module: str) -> set[str]:
    """What one top-level module of installer/ imports (its imports anywhere, as _imports reads them)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse((PACKAGE / module).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            names.add(".".join(["hookwright", node.module] if node.module else ["hookwright"]))
    return names


def _subclasses(kind: type) -> list[type]:
    return [sub for direct in kind.__subclasses__() for sub in (direct, *_subclasses(direct))]

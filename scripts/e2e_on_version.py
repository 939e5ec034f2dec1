"""Run the e2e and conformance suites of one agent on another release of it, beside the pin, and
say what differs.

    python scripts/e2e_on_version.py claude 2.1.328 [-n 2] [--keep DIR]

Installs the release if it is not there (scripts/setup-e2e.sh claude@2.1.328, a folder of its
own beside the pin's), runs every test that drives that agent (`-m claude`, tests/e2e) once on
the pin and once on the release, and lists each test whose outcome differs, with the first line
of its failure. Exit 0 when both agree on every test, 1 when any differs, 2 on bad arguments.
Before moving a pin (installer/hosts/versions.toml), this says what the move breaks;
scripts/host_drift.py says what the new release brings that the tables do not model.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "installer" / "hosts"))
import versions  # noqa: E402  (the pins, read without the package: stdlib only)

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"


def outcomes(report: Path) -> dict[str, tuple[str, str]]:
    """test id -> (outcome, first line of why it failed or was skipped), from a JUnit XML report."""
    found = {}
    for case in ElementTree.parse(report).iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        outcome, why = PASSED, ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, why = FAILED, (child.get("message") or child.text or "").strip()
                break
            if child.tag == "skipped":
                outcome, why = SKIPPED, (child.get("message") or "").strip()
        found[name] = (outcome, why.splitlines()[0][:200] if why else "")
    return found


def run_suites(agent: str, version: str, report: Path, workers: str) -> None:
    env = dict(os.environ, **{f"HOOKWRIGHT_{agent.upper()}_VERSION": version})
    python = ROOT / ".venv" / "bin" / "python"
    command = [str(python if python.exists() else sys.executable), "-m", "pytest", "tests/e2e", "-m", agent,
               "-q", "-p", "no:cacheprovider", "--junitxml", str(report), "-n", workers]
    print(f"$ HOOKWRIGHT_{agent.upper()}_VERSION={version} {' '.join(command[1:])}", flush=True)
    subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)


def differences(pinned: dict[str, tuple[str, str]], other: dict[str, tuple[str, str]]) -> list[str]:
    lines = []
    for name in sorted(set(pinned) | set(other)):
        before, after = pinned.get(name, ("absent", "")), other.get(name, ("absent", ""))
        if before[0] != after[0]:
            why = after[1] or before[1]
            lines.append(f"  {name}: {before[0]} on the pin, {after[0]} here" + (f"\n      {why}" if why else ""))
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", choices=sorted(versions.pins()))
    parser.add_argument("version")
    parser.add_argument("-n", dest="workers", default="2", help="pytest-xdist workers (default 2)")
    parser.add_argument("--keep", type=Path, help="keep the two JUnit reports in this folder")
    args = parser.parse_args(argv)
    pin = versions.wanted(args.agent)
    if args.version == pin.version:
        parser.error(f"{args.version} is the pin itself: name another release")
    subprocess.run(["bash", "scripts/setup-e2e.sh", args.agent, f"{args.agent}@{args.version}"], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory(prefix="hookwright-e2e-on-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        reports = {version: folder / f"{args.agent}-{version}.xml" for version in (pin.version, args.version)}
        for version, report in reports.items():
            run_suites(args.agent, version, report, args.workers)
        pinned, other = (outcomes(report) for report in reports.values())
    found = differences(pinned, other)
    counts = {outcome: sum(1 for o, _ in other.values() if o == outcome) for outcome in (PASSED, FAILED, SKIPPED)}
    print(f"{args.agent} {args.version} against the pin {pin.version}: {len(other)} tests, "
          + ", ".join(f"{n} {outcome}" for outcome, n in counts.items()))
    if not found:
        print("every test has the same outcome on both")
        return 0
    print(f"{len(found)} differ:")
    print("\n".join(found))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

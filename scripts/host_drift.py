"""What an installed agent's binary says about its hooks, against what hookwright's tables know.

    python scripts/host_drift.py claude                     # the pinned release
    python scripts/host_drift.py claude 2.1.332 --from 2.1.328
    python scripts/host_drift.py opencode [--binary PATH] [--json]

Both agents ship as one executable that carries its own JavaScript (Claude Code's native build,
opencode's Bun build), so their hook vocabulary can be read from the file without running it:

- Claude Code: the array of hook event names, the zod schema of each handler type (its keys),
  and the release notes of the releases before it (the `/release-notes` text), of which the
  hook-related lines are listed.
- opencode: the names its plugin service triggers (`<plugin>.trigger("name", {input}, {output})`).

Each is held against the tables the code reads (installer/hooks/events.py, installer/hosts/claude/protocol.py,
installer/hosts/opencode/adapter.py): "new" is in the binary and not in the tables (hookwright does not
know it: doctor calls it not known, simulate cannot read it), "removed" the other way round.
With `--from`, the two releases are compared too, each difference marked known or not.
tests/e2e/test_host_drift_e2e.py holds the tables complete for the pinned binaries: moving a pin
without modelling what the new release brings fails there. Exit 0 when the tables know every
event and key of the release, 1 when something is new, 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import json
import mmap
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from hookwright.hosts import versions

HOOK_WORDS = re.compile(r"\bhooks?\b|PreToolUse|PostToolUse|onFailure|SessionStart|UserPromptSubmit", re.I)
KEY = re.compile(rb"([A-Za-z_$][\w$]*):")


@dataclass
class Reading:
    """What one binary carries."""

    agent: str
    version: str
    binary: Path
    events: list[str] = field(default_factory=list)  # hook events (opencode: plugin hook names)
    keys: dict[str, list[str]] = field(default_factory=dict)  # handler type -> its keys
    notes: dict[str, list[str]] = field(default_factory=dict)  # release -> its hook-related release notes


@dataclass
class Known:
    """What hookwright's tables know of an agent."""

    events: set[str]
    keys: dict[str, set[str]]
    protocol_rows: set[str] = field(default_factory=set)  # events whose answers simulate reads by a row of their own
    basis: str = ""


# ---- reading a binary ---------------------------------------------------------------------------

def mapped(binary: Path) -> mmap.mmap:
    with binary.open("rb") as stream:
        return mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)


def object_keys(data: mmap.mmap, start: int, limit: int = 40_000) -> list[str] | None:
    """The top-level keys of the JavaScript object literal whose `{` is at `start` (strings
    skipped, brackets counted), or None if it does not close within `limit` bytes."""
    keys: list[str] = []
    depth, at_key, i, end = 0, False, start, min(len(data), start + limit)
    while i < end:
        c = data[i]
        if c in b"\"'`":
            i += 1
            while i < end and data[i] != c:
                i += 2 if data[i] == 0x5C else 1  # (a backslash escapes the next byte)
            i, at_key = i + 1, False
            continue
        if c in b"([{":
            depth += 1
            at_key = depth == 1 and c == 0x7B
        elif c in b")]}":
            depth -= 1
            if depth == 0:
                return keys
        elif depth == 1 and c == 0x2C:
            at_key = True
        elif depth == 1 and at_key:
            found = KEY.match(data, i)
            at_key = False
            if found:
                keys.append(found.group(1).decode())
                i = found.end()
                continue
        i += 1
    return None


JS_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.S)
JS_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def js_string(body: str) -> str:
    """A JavaScript string literal's text, its escapes read."""
    def one(found: re.Match[str]) -> str:
        escape = found.group(1)
        if escape[0] in "ux" and len(escape) > 1:
            return chr(int(escape.strip("ux{}"), 16))
        return JS_SIMPLE.get(escape, escape)

    return JS_ESCAPE.sub(one, body)


def claude_reading(version: str, binary: Path) -> Reading:
    data = mapped(binary)
    reading = Reading("claude", version, binary)
    arrays = [m.group(0) for m in re.finditer(rb'\[(?:"[A-Z][A-Za-z]+",){10,}"[A-Z][A-Za-z]+"\]', data)
              if b'"PreToolUse"' in m.group(0) and b'"SessionStart"' in m.group(0)]
    if arrays:  # the longest such array is the list of every event (shorter ones are subsets)
        reading.events = json.loads(max(arrays, key=len))
    for found in re.finditer(rb'\(\{type:[\w$]{1,3}\("(command|http|mcp_tool|prompt|agent)"\)', data):
        keys = object_keys(data, found.start() + 1)
        if keys and "statusMessage" in keys:  # a hook handler's schema (an MCP server's has none)
            kind = found.group(1).decode()
            reading.keys[kind] = sorted(set(reading.keys.get(kind, [])) | set(keys))
    notes = re.search(rb'return"(## \d+\.\d+\.\d+\\n(?:[^"\\]|\\.)*)"', data)
    if notes:
        text = js_string(notes.group(1).decode("utf-8", "replace"))
        for block in re.split(r"^## ", text, flags=re.M)[1:]:
            release, _, body = block.partition("\n")
            reading.notes[release.strip()] = [line.strip() for line in body.splitlines()
                                              if line.startswith("- ") and HOOK_WORDS.search(line)]
    return reading


def opencode_reading(version: str, binary: Path) -> Reading:
    """The hooks a plugin can have are what the plugin service triggers with an input and an
    output object (a UI's `trigger("file.open")` has neither)."""
    data = mapped(binary)
    names = {m.group(1).decode() for m in re.finditer(rb'\.trigger\("([a-z][\w.]+)",\{', data)}
    return Reading("opencode", version, binary, events=sorted(names))


READERS = {"claude": claude_reading, "opencode": opencode_reading}


# ---- what hookwright knows ------------------------------------------------------------------------

def known(agent: str) -> Known:
    from hookwright import hosts

    basis = hosts.get(agent).facts_basis
    if agent == "claude":
        from hookwright.hooks.events import CLAUDE_EVENTS, COMMON_FIELDS, TYPE_FIELDS
        from hookwright.hosts.claude.protocol import PROTOCOL

        keys = {kind: {*COMMON_FIELDS, *fields, "once"} for kind, fields in TYPE_FIELDS.items()}
        return Known(set(CLAUDE_EVENTS), keys, set(PROTOCOL), basis)
    from hookwright.hosts.opencode.adapter import HOOK_KEYS

    return Known(set(HOOK_KEYS), {}, basis=basis)


# ---- the report -------------------------------------------------------------------------------------

def drift(reading: Reading, tables: Known) -> dict[str, object]:
    """What the binary has that the tables lack (new), and the other way round (removed)."""
    found: dict[str, object] = {
        "new_events": sorted(set(reading.events) - tables.events),
        "removed_events": sorted(tables.events - set(reading.events)) if reading.agent == "claude" else [],
        "new_keys": {kind: sorted(set(keys) - tables.keys.get(kind, set()))
                     for kind, keys in reading.keys.items() if set(keys) - tables.keys.get(kind, set())},
        "removed_keys": {kind: sorted(keys - set(reading.keys[kind])) for kind, keys in tables.keys.items()
                         if kind in reading.keys and keys - set(reading.keys[kind])},
    }
    if reading.agent == "claude":
        found["events_without_a_protocol_row"] = sorted(set(reading.events) - tables.protocol_rows)
    return found


def releases_between(notes: dict[str, list[str]], after: str, upto: str) -> dict[str, list[str]]:
    def key(version: str) -> tuple[int, ...]:
        return tuple(int(part) for part in version.split("."))

    return {release: lines for release, lines in notes.items() if key(after) < key(release) <= key(upto)}


def report(reading: Reading, tables: Known, earlier: Reading | None) -> tuple[str, dict[str, object], bool]:
    found = drift(reading, tables)
    lines = [f"{reading.agent} {reading.version} ({reading.binary}) against hookwright's tables ({tables.basis})",
             f"hook events in the binary: {len(reading.events)}",
             f"  new, not known to hookwright: {', '.join(found['new_events']) or 'none'}"]  # type: ignore[arg-type]
    if reading.agent == "claude":
        lines.append(f"  in the tables, not in the binary: {', '.join(found['removed_events']) or 'none'}")  # type: ignore[arg-type]
        lines.append("  without a protocol row of their own (read as an event without decisions): "
                     + (", ".join(found["events_without_a_protocol_row"]) or "none"))  # type: ignore[arg-type]
        lines.append("handler keys in the binary: " + "; ".join(f"{k}: {len(v)}" for k, v in sorted(reading.keys.items())))
        new_keys: dict[str, list[str]] = found["new_keys"]  # type: ignore[assignment]
        lines.append("  new, not known to hookwright: " + ("; ".join(f"{k}: {', '.join(v)}" for k, v in new_keys.items())
                                                           or "none"))
        removed: dict[str, list[str]] = found["removed_keys"]  # type: ignore[assignment]
        lines.append("  in the tables, not in the binary: " + ("; ".join(f"{k}: {', '.join(v)}" for k, v in removed.items())
                                                              or "none"))
    result: dict[str, object] = {"agent": reading.agent, "version": reading.version, "binary": str(reading.binary),
                                 "events": reading.events, "keys": reading.keys, **found}
    if earlier is not None:
        added = sorted(set(reading.events) - set(earlier.events))
        dropped = sorted(set(earlier.events) - set(reading.events))
        lines.append(f"against {earlier.version}: events added: "
                     + (", ".join(f"{e} ({'known' if e in tables.events else 'NOT known'} to hookwright)" for e in added)
                        or "none") + f"; removed: {', '.join(dropped) or 'none'}")
        for kind in sorted(set(reading.keys) | set(earlier.keys)):
            more = sorted(set(reading.keys.get(kind, [])) - set(earlier.keys.get(kind, [])))
            less = sorted(set(earlier.keys.get(kind, [])) - set(reading.keys.get(kind, [])))
            if more or less:
                lines.append(f"  {kind} handler keys added: " + (", ".join(
                    f"{k} ({'known' if k in tables.keys.get(kind, set()) else 'NOT known'})" for k in more) or "none")
                    + f"; removed: {', '.join(less) or 'none'}")
        result["against"] = {"version": earlier.version, "events_added": added, "events_removed": dropped}
    if reading.notes:
        since = earlier.version if earlier is not None else min(reading.notes, key=lambda v: tuple(map(int, v.split("."))))
        between = releases_between(reading.notes, since, reading.version)
        lines.append(f"release notes the binary carries: {', '.join(reading.notes)}; hook-related since {since}"
                     f" ({reading.version}'s own are in the next release's binary):")
        for release, notes in between.items():
            lines += [f"  {release}:"] + [f"    {note}" for note in notes] if notes else [f"  {release}: none"]
        result["hook_notes"] = between
    drifted = bool(found["new_events"] or found["new_keys"])
    return "\n".join(lines), result, drifted


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", choices=sorted(READERS))
    parser.add_argument("version", nargs="?", help="an installed release (default: the pin)")
    parser.add_argument("--from", dest="earlier", help="an installed release to compare it with")
    parser.add_argument("--binary", type=Path, help="the executable to read (default: the e2e install of the release)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    root = versions.e2e_root()
    pin = versions.wanted(f"{args.agent}@{args.version or ''}")
    binary = args.binary or pin.executable(root)
    if not binary.is_file():
        parser.error(f"{binary} is not there: bash scripts/setup-e2e.sh {args.agent}@{pin.version}")
    reading = READERS[args.agent](pin.version, binary)
    earlier = None
    if args.earlier:
        other = versions.wanted(f"{args.agent}@{args.earlier}").executable(root)
        if not other.is_file():
            parser.error(f"{other} is not there: bash scripts/setup-e2e.sh {args.agent}@{args.earlier}")
        earlier = READERS[args.agent](args.earlier, other)
    text, result, drifted = report(reading, known(args.agent), earlier)
    print(json.dumps(result, indent=2) if args.json else text)
    return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

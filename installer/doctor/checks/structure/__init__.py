"""Structure: does each file parse, and is every event, group and handler in the shape its host reads?

check() walks each file down to its handlers and hands each unit to the table of its rules, one
module per unit, one function per rule: a file, parsed or not, to files.py, each event under
"hooks" to events.py, each Claude Code matcher group to groups.py, each handler (Claude Code's,
or a Cursor entry) to handlers.py. Each reads one file (a merged setting, such as
httpHookAllowedEnvVars, from the run's files); what weighs the files together, the kill switches
and the plugin manifests, is scopes.py. What differs between the two hosts' files is data, in
a Format (common.py, with what the families share), so that a rule both hosts share is one
function.
"""
from __future__ import annotations

from typing import Iterator

from ...model import Context, Finding
from .common import FORMATS
from .events import EVENT_RULES
from .files import FILE_RULES, UNPARSED_RULES, FileAt, Unparsed
from .groups import GROUP_RULES
from .handlers import HANDLER_RULES


def check(ctx: Context) -> Iterator[Finding]:
    for file in ctx.files:
        if file.error is not None:
            # (JSONC: host/opencode-config-unreadable says what is wrong; git-guard's rules: pack/)
            if file.kind not in ("opencode-config", "git-guard-rules"):
                yield from UNPARSED_RULES.run(ctx, Unparsed(file, file.error))
        elif file.document is not None and file.host in FORMATS:
            at = FileAt(file, FORMATS[file.host], file.document.data)
            yield from FILE_RULES.run(ctx, at)
            for event in at.events:
                yield from EVENT_RULES.run(ctx, event)
                for group in event.groups:
                    yield from GROUP_RULES.run(ctx, group)
                    for handler in group.handlers:
                        yield from HANDLER_RULES.run(ctx, handler)
                for entry in event.entries:
                    yield from HANDLER_RULES.run(ctx, entry)

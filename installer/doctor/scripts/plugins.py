"""What an opencode plugin file does, read with a real JavaScript/TypeScript parser (tree-sitter).

opencode loads every `*.js` and `*.ts` one level deep in a plugins folder and calls each export
as a plugin function (docs/hosts/opencode.md#plugin-loading): a file with a syntax
error is skipped without a word, and so is a whole file with one export that is not a
function. A plugin's `tool.execute.before` changes a call by changing `output.args` in
place; reassigning `output.args` is ignored. Plugins run one after another (inside one folder,
in the reverse of the order the filesystem lists them), so two that set the same argument of
one tool race: the last one wins.

The reading is static and errs on the side of silence: an export whose value comes from a
call or another module is taken to be a function, a write through an alias it cannot follow
is not seen, and a hook that compares `input.tool` with no literal is taken to run for every
tool.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from ...patterns import lazy
from ...records import Record

if TYPE_CHECKING:  # (tree-sitter itself is imported on first use)
    from tree_sitter import Node, Parser

UNKNOWN = "*"  # a write whose argument name cannot be read (Object.assign with a variable...)
FUNCTIONS = frozenset({"arrow_function", "function_expression", "function", "generator_function",
                       "function_declaration", "generator_function_declaration"})
# a class is a function to `typeof`, but opencode calls it without `new`, which throws
CLASSES = frozenset({"class", "class_declaration", "abstract_class_declaration"})
VALUES = frozenset({"string", "template_string", "number", "true", "false", "null", "undefined", "array", "regex",
                    "object"})
TYPE_ONLY = frozenset({"type_alias_declaration", "interface_declaration"})  # (an enum is an object at run time)
HOOK = "tool.execute.before"
AFTER_HOOK = "tool.execute.after"  # gets the same input: {tool, sessionID, callID}


class Place(Record):
    line: int  # 1-based
    column: int


class Export:
    def __init__(self, name: str, place: Place, what: str) -> None:
        self.name = name
        self.place = place
        self.what = what  # the kind of value it exports when that is not a function ("a string"...), else ""


class Write:
    def __init__(self, key: str, place: Place, tools: Picked | None = None) -> None:
        self.key = key  # the argument it sets or deletes, or UNKNOWN
        self.place = place
        self.tools = tools  # the tools it is made for (None: not worked out)


class Read(Record):
    key: str  # the argument a hook reads
    place: Place
    tools: frozenset[str] | None  # the tools its hook compares input.tool with (None: it picks none by name)
    prefixed: bool  # its hook also picks tools by a prefix (input.tool.startsWith): an MCP server's, maybe


class Prefixing(Record):
    """`output.args.command = `rtk ${cmd}``: a change that puts text before an argument's value."""
    key: str
    prefix: str  # the text it puts first
    place: Place
    tools: Picked  # the tools it does it for
    gate: frozenset[str] | None  # the words a regex it is conditioned on starts with (None: any value)


class Anchored(Record):
    """A regex a guard tests that matches only at the start of the value (`/^git\\s+push/`), or
    one it strips the start of the value with (`.replace(/^rtk\\s+/, "")`)."""
    lead: frozenset[str]  # the words it requires first (`git`; `git`, `gh` for `^(git|gh)\\b`); a strip's: {} (any)
    ignore_case: bool
    place: Place
    strips: bool = False


class Handed(Record):
    """An object in Claude Code's payload shape (`{tool_name, tool_input}`) that a hook builds from
    the call, to hand to a script written for Claude Code: what of it keeps opencode's names."""
    place: Place  # its `tool_input` key
    args: bool  # tool_input is the call's arguments as opencode names them (`output.args`, `{...output.args}`)
    renamed: frozenset[str]  # the keys the object sets itself beside them (`file_path: output.args.filePath`)
    tool_name: Place | None  # `tool_name: input.tool`: opencode's own name for the tool, handed on
    # how the hook reads the answer of what it runs: "status" (its exit status alone: `r.status === 2`),
    # "stdout" (its output alone: `JSON.parse(r.stdout)`), None (both, or neither), and where
    answer: tuple[str, Place] | None = None


class StatusTest(Record):
    """A test of the exit status of a program the plugin runs, on whose outcome it refuses the call
    (throws or rejects): the statuses it refuses on, or (all_but) every status but those."""
    statuses: frozenset[int]
    all_but: bool
    place: Place

    def refuses(self, status: int) -> bool:
        return (status in self.statuses) != self.all_but

    def said(self) -> str:
        """The statuses it refuses on, for a message: `1`, `1 or 3`, `any but 0`."""
        listed = " or ".join(map(str, sorted(self.statuses)))
        return f"any but {listed}" if self.all_but else listed


class PluginFacts:
    def __init__(self, syntax_error: Place | None, exports: tuple[Export, ...], hooks: frozenset[str],
                 writes: tuple[Write, ...], reassigns: tuple[Place, ...], tools: frozenset[str] | None,
                 tool_names: tuple[tuple[str, Place], ...] = (), tool_prefixes: frozenset[str] = frozenset(),
                 hook_places: tuple[tuple[str, Place], ...] = (), exits: tuple[Place, ...] = (),
                 after_the_call: tuple[tuple[str, Place], ...] = (), commonjs: Place | None = None,
                 reads: tuple[Read, ...] = (), prefix_places: tuple[tuple[str, Place], ...] = (),
                 returns: tuple[Place, ...] = (), lost: tuple["Lost", ...] = (), default_without_id: Place | None = None,
                 prefixings: tuple[Prefixing, ...] = (), anchored: tuple[Anchored, ...] = (),
                 guards: Picked | None = None, handed: tuple[Handed, ...] = (),
                 input_args: tuple[Place, ...] = (), local_changes: tuple[tuple[str, Place], ...] = (),
                 compared_types: tuple[tuple[str, Place], ...] = (), status_tests: tuple[StatusTest, ...] = (),
                 imports: tuple[tuple[str, Place], ...] = (), load_reads: tuple[LoadRead, ...] = (),
                 unreturned: tuple[tuple[str, Place, str], ...] = (), caught: tuple["Caught", ...] = (),
                 tool_patterns: tuple["ToolPattern", ...] = (), twice: tuple["Twice", ...] = (),
                 unread: tuple["Unread", ...] = (), relative_tests: tuple["RelativeTest", ...] = ()) -> None:
        self.syntax_error = syntax_error
        self.exports = exports
        self.hooks = hooks  # the hook keys it returns ("tool.execute.before", "event"...)
        self.writes = writes  # output.args.<key> = ..., Object.assign(output.args, {...}), delete ...
        self.reassigns = reassigns  # output.args = {...}: ignored by opencode
        self.tools = tools  # the tools its tool.execute.before compares input.tool with; None: all
        self.tool_names = tool_names  # each of those names, where it is written
        self.tool_prefixes = tool_prefixes  # what its tool.execute.before tests input.tool.startsWith with
        self.prefix_places = prefix_places  # each of those prefixes, where it is written
        self.hook_places = hook_places  # each key of a function in an object a plugin function returns, and where
        self.exits = exits  # process.exit(...) in such a function: it ends opencode itself
        self.after_the_call = after_the_call  # ("throw" or "args", where) in tool.execute.after: the call has run
        self.commonjs = commonjs  # where it assigns module.exports (or exports.x), having no ES export
        self.reads = reads  # the arguments its tool.execute.before/after read, with the tools that hook picks
        self.returns = returns  # `return false`, `return {...}` in tool.execute.before: opencode ignores the value
        self.lost = lost  # what its tool.execute.before starts and never waits for, whose answer counts
        self.default_without_id = default_without_id  # `export default {server}` with no id: not loaded
        self.prefixings = prefixings  # changes that put text before an argument's value
        self.anchored = anchored  # regexes anchored at the start that a throwing tool.execute.before tests
        self.guards = guards  # the tools the throwing tool.execute.before hooks run for (None: it has none)
        self.handed = handed  # Claude Code-shaped payloads its tool.execute.before/after build from the call
        self.input_args = input_args  # `input.args` read in tool.execute.before, whose input has no args
        self.local_changes = local_changes  # (argument, where) a copy of an argument is changed, never written back
        self.compared_types = compared_types  # (name, where) each dotted literal the `event` hook compares with
        self.status_tests = status_tests  # the exit statuses of a program it runs that it refuses the call on
        self.caught = caught  # refusals of tool.execute.before that a catch of its own turns into a pass
        self.imports = imports  # (module, where) each import the module runs: not `import type`, nor one of types only
        self.load_reads = load_reads  # files it reads while it loads, by a path relative to the working folder
        # (key, where, the key it is nested under, or "" in a plugin function that returns nothing):
        # a hook's function the plugin's returned object does not hold at its top level
        self.unreturned = unreturned
        self.tool_patterns = tool_patterns  # the regexes and substrings its tool hooks test input.tool with
        self.twice = twice  # hook keys its returned object holds twice (the earlier never runs)
        self.unread = unread  # refusals its tool.execute.before writes where opencode does not read them
        self.relative_tests = relative_tests  # tests of an absolute path argument against relative names


class ToolPattern(Record):
    """A test of input.tool other than equality or a prefix: a regex (`/^mcp__srv__/.test(input.tool)`,
    `input.tool.match(/Bash|Edit/)`) or a substring (`input.tool.includes("mcp__")`, endsWith), as a
    Python pattern."""
    pattern: str
    ignore_case: bool
    written: str  # as the plugin writes it, for a message
    place: Place


class LoadRead(Record):
    """`readFileSync("policy.json")` at the module's top level or in a plugin function before it
    returns its hooks: run while opencode loads the plugin, against opencode's working folder."""
    path: str
    place: Place
    in_plugin: bool  # in the plugin function (opencode logs the throw); else at the top level (it does not)
    joined: bool = False  # built from the working folder (`join(directory, ...)`), not a bare relative path
    parsed: bool = False  # its text goes straight to JSON.parse (which throws on a file that is no JSON)


def analyse(path: Path, source: bytes, imported: frozenset[str] = frozenset(),
            imported_hooks: frozenset[tuple[str, str, bool]] = frozenset()) -> PluginFacts:
    """What the plugin does; `imported`: the names (as this module binds them: `check`, `policy.check`)
    of the functions it imports from its own modules that throw (throwing_exports of each);
    `imported_hooks`: (name, hook key, whether it throws) of the plugin functions it imports from
    them (plugin_hooks of each)."""
    return _analyse(path.suffix.lower() in (".ts", ".mts", ".cts"), source, imported, imported_hooks)


@lru_cache(maxsize=1024)
def _analyse(typescript: bool, source: bytes, imported: frozenset[str] = frozenset(),
             imported_hooks: frozenset[tuple[str, str, bool]] = frozenset()) -> PluginFacts:
    root = _parser(typescript).parse(source).root_node
    error = _first_error(root) if root.has_error else None
    exports = tuple(_exports(root))
    hooks, writes, reassigns, tools, names, prefixes = set(), [], [], set(), [], set()
    places, exits, after, reads, prefix_places = [], [], [], [], []
    returns: list[Place] = []
    lost: list[Lost] = []
    prefixings: list[Prefixing] = []
    anchored: list[Anchored] = []
    guards: Picked | None = None
    handed: list[Handed] = []
    input_args: list[Place] = []
    local_changes: list[tuple[str, Place]] = []
    compared_types: list[tuple[str, Place]] = []
    caught: list[Caught] = []
    unread: list[Unread] = []
    relative_tests: list[RelativeTest] = []
    tool_patterns: list[ToolPattern] = []
    unfiltered = False
    plugins = _plugin_functions(root)
    consts = _constants(root)
    functions = _functions_by_name(root)
    functions.update({name: root for name in imported if name not in functions})  # (root: throws in its module)
    for key, function, place in _hook_functions(root):
        hooks.add(key)
        if function is None:
            continue
        if _returned_by(function.parent if function.type != "method_definition" else function, plugins):
            places.append((key, place))
            exits += [_place(n) for n in _walk(function) if n.type == "call_expression"
                      and _text(n.child_by_field_name("function")) == "process.exit"]
        if key == "event":
            compared_types += _compared_literals(function)
        if key not in (HOOK, AFTER_HOOK):
            continue
        params = _params(function)
        scope = Scope(_tool_spellings(function, params), consts, {})
        hook_tools = _tools_compared(function, scope)
        hook_prefixes = _tool_prefixes(function, scope)
        tool_patterns += _tool_patterns(function, scope)
        handed += _handed(function, params if key == HOOK else {**params, "output": params.get("input", "")}, scope)
        if key == AFTER_HOOK:  # (its input names the tool the same way: only the names are read)
            names += sorted(hook_tools, key=lambda item: item[1])
            after_reads = _reads(function, {"output": params["input"]} if "input" in params else {}, scope)
            reads += after_reads
            changed = _args_writes(function, {"output": params["input"]}) if "input" in params else ([], [])
            throws = _throws(function)
            # a guard: it throws on the call's arguments, and never looks at what the tool gave
            output = params.get("output")
            reads_output = output is not None and any(n.type == "member_expression" and _text(
                n.child_by_field_name("object")) == output for n in _walk(function))
            guard = bool(throws and after_reads) and not reads_output
            after += [("guard", place)] if guard else [("throw", where) for where in throws]
            after += [("args", where) for where in sorted([w.place for w in changed[0]] + changed[1])]
            continue
        input_args += _input_args(function)
        found_writes, found_reassigns = _args_writes(function, params, scope)
        local_changes += _local_changes(function, params, found_writes)
        writes += found_writes
        reassigns += found_reassigns
        reads += _reads(function, params, scope) + _handler_reads(function, params, scope)
        returns += _ignored_returns(function)
        lost += _lost_promises(function, found_writes)
        caught += _caught_refusals(function, functions)
        unread += _unread_refusals(function, params)
        relative_tests += _relative_tests(function, params, consts)
        prefixings += _prefixings(function, params, scope)
        throws = _throws(function)
        if throws:
            anchored += _anchored(function, consts)
            for where in _throw_nodes(function):
                guards = _picked_at(where, function, scope) if guards is None else guards | _picked_at(where, function, scope)
        compared = hook_tools
        prefixes |= {prefix for prefix, _ in hook_prefixes}
        prefix_places += sorted(hook_prefixes, key=lambda item: item[1])
        unfiltered |= not compared
        tools |= {name for name, _ in compared}
        names += sorted(compared, key=lambda item: item[1])
    return PluginFacts(error, exports, frozenset(hooks), tuple(writes), tuple(reassigns),
                       None if unfiltered or not tools else frozenset(tools), tuple(names), frozenset(prefixes),
                       tuple(places), tuple(exits), tuple(after), _commonjs(root), tuple(reads),
                       tuple(prefix_places), tuple(returns), tuple(lost), _default_without_id(root), tuple(prefixings),
                       tuple(anchored), guards, tuple({h.place: h for h in sorted(handed, key=lambda h: h.args)}.values()),
                       tuple(input_args), tuple(local_changes), tuple(compared_types),
                       tuple(_status_tests(root)) if HOOK in hooks else (),
                       (*_imports(root, typescript), *_load_imports(root, plugins)),
                       tuple(_load_reads(root, plugins, consts)), tuple(_unreturned(root, plugins)), tuple(caught),
                       tuple(sorted(set(tool_patterns), key=lambda found: found.place)),
                       tuple(_twice(root, plugins, consts, imported_hooks)), tuple(unread), tuple(relative_tests))


def syntax_error(path: Path, source: bytes) -> Place | None:
    """Where a JavaScript or TypeScript file stops parsing (node and tsx refuse to run it), if it does."""
    root = _parser(path.suffix.lower() in (".ts", ".mts", ".cts", ".tsx")).parse(source).root_node
    return _first_error(root) if root.has_error else None


@lru_cache(maxsize=2)
def _parser(typescript: bool) -> Parser:
    from tree_sitter import Language, Parser

    if typescript:
        import tree_sitter_typescript

        return Parser(Language(tree_sitter_typescript.language_typescript()))
    import tree_sitter_javascript

    return Parser(Language(tree_sitter_javascript.language()))


def _place(node: Node) -> Place:
    return Place(node.start_point[0] + 1, node.start_point[1] + 1)


def _walk(node: Node) -> Iterator[Node]:
    """Every node under `node`, itself first, in source order."""
    if node.end_byte - node.start_byte >= BIG_SUBTREE:
        return iter(_big_subtree(node))
    return _nodes_under(node)


DECLARATIONS = ("lexical_declaration", "variable_declaration")  # (`let`/`const`, `var`)
BIG_SUBTREE = 16 * 1024  # bytes of source: the checks walk the hook and the module some 27 times each


@lru_cache(maxsize=4)
def _big_subtree(node: Node) -> tuple[Node, ...]:
    """A big subtree's nodes, listed once: on a 475 KB plugin, walking it again for every check
    was 5 of doctor's 7 s of CPU (the long plugin of tests/hostile_analysis.py)."""
    return tuple(_nodes_under(node))


def _nodes_under(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _first_error(root: Node) -> Place:
    for node in _walk(root):
        if node.type == "ERROR" or node.is_missing:
            return _place(node)
    return _place(root)


def _text(node: Node | None) -> str:
    """The node's source text ("" for a field the grammar left out)."""
    return (node.text or b"").decode("utf-8", "replace") if node is not None else ""


def _unquoted(node: Node | None) -> str | None:
    """The value of a string literal (or a template without substitutions)."""
    if node is None or node.type not in ("string", "template_string") or any(
            c.type == "template_substitution" for c in node.children):
        return None
    return _text(node)[1:-1]


# ---- exports -----------------------------------------------------------------------------------------

def _exports(root: Node) -> Iterator[Export]:
    declared = _top_level_values(root)
    for statement in (c for c in root.children if c.type == "export_statement"):
        if any(c.type == "from" or c.type == "*" for c in statement.children) or statement.child_by_field_name("source"):
            continue  # a re-export: what it is lives in another module
        value = statement.child_by_field_name("value")
        declaration = statement.child_by_field_name("declaration")
        if value is not None:  # export default <value>
            yield Export("default", _place(statement), _non_function(value, declared))
        elif declaration is not None:
            if declaration.type in TYPE_ONLY:
                continue
            if declaration.type in FUNCTIONS | CLASSES | {"enum_declaration"}:
                yield Export(_name(declaration), _place(declaration), _non_function(declaration, declared))
                continue
            for declarator in (c for c in declaration.children if c.type == "variable_declarator"):
                yield Export(_name(declarator), _place(declarator),
                             _non_function(declarator.child_by_field_name("value"), declared))
        else:
            for specifier in (n for n in _walk(statement) if n.type == "export_specifier"):
                local = _text(specifier.child_by_field_name("name"))
                alias = specifier.child_by_field_name("alias")
                yield Export(_text(alias) if alias else local, _place(specifier),
                             _non_function(declared.get(local), declared))


def _top_level_values(root: Node) -> dict[str, Node | None]:
    """The value each top-level `const`/`let`/`var` name is given, and the functions declared."""
    found: dict[str, Node | None] = {}
    for statement in root.children:
        inner = statement.child_by_field_name("declaration") if statement.type == "export_statement" else statement
        if inner is None:
            continue
        if inner.type in FUNCTIONS | CLASSES | {"enum_declaration"}:
            found[_name(inner)] = inner
        for declarator in (c for c in inner.children if c.type == "variable_declarator"):
            found[_name(declarator)] = declarator.child_by_field_name("value")
    return found


def _name(node: Node) -> str:
    name = node.child_by_field_name("name")
    return _text(name) if name is not None else "?"


WRAPPING = frozenset({"as_expression", "satisfies_expression", "parenthesized_expression", "non_null_expression"})


def _unwrapped(value: Node | None) -> Node | None:
    """The value inside `(...)`, `x as T`, `x satisfies T` and `x!`."""
    while value is not None and value.type in WRAPPING:
        value = value.named_children[0] if value.named_children else None
    return value


def _non_function(value: Node | None, declared: dict[str, Node | None], depth: int = 0) -> str:
    """What a value is where it is plainly not a function ("a string", "an object"...); "" for
    a function or anything that may be one (a call, another module's value)."""
    value = _unwrapped(value)
    if value is None:
        return "nothing (undefined)"
    if value.type in FUNCTIONS:
        return ""
    if value.type in CLASSES:
        return "a class"
    if value.type == "enum_declaration":
        return "an enum (an object)"
    if value.type == "identifier" and depth < 5:
        target = declared.get(_text(value))
        return _non_function(target, declared, depth + 1) if _text(value) in declared else ""
    if value.type == "object":  # `export default {id, server}` is a plugin module opencode accepts
        keys = {_text(p.child_by_field_name("key") or p) for p in value.named_children}
        return "" if "server" in keys else "an object without server()" if keys & {"setup", "id"} else "an object"
    if value.type in VALUES:
        return {"string": "a string", "template_string": "a string", "number": "a number", "true": "a boolean",
                "false": "a boolean", "null": "null", "undefined": "undefined", "array": "an array",
                "regex": "a regular expression"}[value.type]
    return ""


# ---- tool.execute.before ---------------------------------------------------------------------------

def _hook_functions(root: Node) -> Iterator[tuple[str, Node | None, Place]]:
    """(hook key, its function or None, where the key is) for every `"key": fn` or `key(...) {}`
    with a hook name, or a PascalCase one for a function (`PreToolUse: async () => ...`)."""
    for node in _walk(root):
        if node.type == "pair":
            key = node.child_by_field_name("key")
            name = _unquoted(key) if key is not None and key.type == "string" else (_text(key) if key else None)
            value = node.child_by_field_name("value")
            function = value if value is not None and value.type in FUNCTIONS else None
            if name and ("." in name or name == "event" or function is not None and _pascal_case(name)):
                yield name, function, _place(node)
        elif node.type == "method_definition":
            key = node.child_by_field_name("name")
            name = _unquoted(key) if key is not None and key.type == "string" else _text(key)
            if name and ("." in name or _pascal_case(name)):
                yield name, node, _place(node)


def _returned_by(member: Node | None, plugins: set[tuple[int, int]]) -> bool:
    """Whether the pair or method is in an object literal that a plugin function gives back
    (`=> ({...})`, `return {...}`): the plugin's hooks, not a table of handlers of its own nor
    what a helper function makes."""
    child = member.parent if member is not None else None
    parent = child.parent if child is not None and child.type == "object" else None
    while parent is not None and parent.type in ("parenthesized_expression", "as_expression",
                                                 "satisfies_expression"):
        child, parent = parent, parent.parent
    if parent is not None and parent.type == "arrow_function" and parent.child_by_field_name("body") == child:
        function: Node | None = parent
    elif parent is not None and parent.type == "return_statement":
        function = parent.parent
        while function is not None and function.type not in FUNCTIONS | {"method_definition"}:
            function = function.parent
    else:
        return False
    return function is not None and (function.start_byte, function.end_byte) in plugins


def _plugin_functions(root: Node) -> set[tuple[int, int]]:
    """Where the functions are that opencode calls as plugins: every function the module exports
    (named, default, or through a top-level name), and the methods of an exported object (its
    `server`)."""
    declared = _top_level_values(root)
    values: list[Node | None] = []
    for statement in (c for c in root.children if c.type == "export_statement"):
        declaration = statement.child_by_field_name("declaration")
        values.append(statement.child_by_field_name("value"))
        if declaration is not None:
            values.append(declaration)
            values += [c.child_by_field_name("value") for c in declaration.children if c.type == "variable_declarator"]
        values += [declared.get(_text(n.child_by_field_name("name"))) for n in _walk(statement)
                   if n.type == "export_specifier"]
    found = set()
    for value in map(_unwrapped, values):
        if value is not None and value.type == "identifier":
            value = declared.get(_text(value))
        if value is None:
            continue
        if value.type in FUNCTIONS:
            found.add((value.start_byte, value.end_byte))
        elif value.type == "object":
            for member in value.named_children:
                inner = member.child_by_field_name("value") if member.type == "pair" else member
                if inner is not None and inner.type in FUNCTIONS | {"method_definition"}:
                    found.add((inner.start_byte, inner.end_byte))
    return found


def _pascal_case(name: str) -> bool:
    return name.isalpha() and name[0].isupper() and not name.isupper()


def _throws(function: Node) -> list[Place]:
    """Where the hook itself throws: not a function inside it, nor a try around the throw that catches it."""
    return [_place(node) for node in _throw_nodes(function)]


def _throw_nodes(function: Node) -> list[Node]:
    return [node for node in _own_nodes(function) if node.type == "throw_statement"]


def _own_nodes(function: Node) -> Iterator[Node]:
    """The nodes of the hook itself: not those of a function inside it, nor those a try around
    them catches."""
    if function.end_byte - function.start_byte >= BIG_SUBTREE:
        return iter(_big_own_nodes(function))
    return _own_nodes_under(function)


@lru_cache(maxsize=4)
def _big_own_nodes(function: Node) -> tuple[Node, ...]:
    """A big hook's own nodes, listed once (as _big_subtree: five checks ask for them; listed
    for each, they were a third of doctor's CPU on the long plugin of tests/hostile_analysis.py)."""
    return tuple(_own_nodes_under(function))


def _own_nodes_under(function: Node) -> Iterator[Node]:
    stack = [*reversed(function.children)]
    while stack:
        node = stack.pop()
        yield node
        if node.type not in FUNCTIONS | {"method_definition", "class_body", "throw_statement"}:
            caught = node.child_by_field_name("body") if node.type == "try_statement" and \
                node.child_by_field_name("handler") is not None else None
            stack.extend(c for c in reversed(node.children) if c != caught)


def _commonjs(root: Node) -> Place | None:
    """Where a module without any ES export gives its exports the CommonJS way (`module.exports =`,
    `exports.P =`)."""
    if any(c.type == "export_statement" for c in root.children):
        return None
    for statement in root.children:
        expression = statement.named_children[0] if statement.type == "expression_statement" and \
            statement.named_children else None
        left = expression.child_by_field_name("left") if expression is not None and \
            expression.type == "assignment_expression" else None
        if left is not None and (_text(left) == "module.exports" or _text(left).startswith(("module.exports.",
                                                                                             "exports."))):
            return _place(statement)
    return None


def _params(function: Node) -> dict[str, str]:
    """{"input": name of the first parameter, "output": of the second, "tool" and "args": the names
    they are destructured to}."""
    found: dict[str, str] = {}
    parameters = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    if parameters is None:
        return found
    names = [p for p in parameters.named_children if p.type not in ("comment",)] if parameters.type != "identifier" \
        else [parameters]
    for role, param in zip(("input", "output"), names):
        pattern = param.child_by_field_name("pattern") if param.type in ("required_parameter", "optional_parameter") \
            else param
        if pattern is None:
            continue
        if pattern.type == "identifier":
            found[role] = _text(pattern)
        elif pattern.type == "object_pattern":  # ({ tool }, { args }) and ({ tool: name }, { args: a })
            wanted = "args" if role == "output" else "tool"
            for part in pattern.named_children:
                if _text(part).split(":")[0].strip() == wanted:
                    found[wanted] = _text(part).split(":")[-1].split("=")[0].strip()
    return found


def _args_test(function: Node, params: dict[str, str]) -> tuple[Callable[[Node | None], bool], set[str]]:
    """Whether a node is the call's arguments (`output.args`, or a name given them: `const args =
    output.args`, a destructured `{ args }`), and those names."""
    output, aliases = params.get("output"), {params["args"]} if "args" in params else set()

    def is_args(node: Node | None) -> bool:
        while node is not None and node.type in ("as_expression", "parenthesized_expression", "non_null_expression"):
            node = node.named_children[0] if node.named_children else None
        if node is None:
            return False
        if node.type == "identifier":
            return _text(node) in aliases
        return node.type == "member_expression" and _text(node.child_by_field_name("property") or node) == "args" \
            and _text(node.child_by_field_name("object") or node) == output

    for node in _walk(function):  # `const args = output.args` and the like
        if node.type == "variable_declarator" and is_args(node.child_by_field_name("value")):
            name = node.child_by_field_name("name")
            if name is not None and name.type == "identifier":
                aliases.add(_text(name))
    return is_args, aliases


def _reads(function: Node, args_params: dict[str, str], scope: Scope) -> list[Read]:
    """The hook's reads of the call's arguments, each with the tools the hook picks where it reads
    them (None where it picks none by name, or every tool but some)."""
    found = []
    for key, where, picked in _args_reads(function, args_params, scope):
        names = None if picked.but or not picked.names else picked.names
        found.append(Read(key, where, names, picked.prefixed))
    return found


def _handler_reads(function: Node, params: dict[str, str], scope: Scope) -> list[Read]:
    """The argument reads of a table of handlers by tool that the hook calls with the call's
    arguments (`HANDLERS[input.tool]?.(output.args)`, `const check = HANDLERS[input.tool]; check(input,
    output)`), each picking the tool of its key."""
    is_args, _ = _args_test(function, params)
    found = []
    for node in _walk(function):
        table = _table_by_tool(node, scope)
        if table is None:
            continue
        calls = [node.parent] if node.parent is not None and node.parent.type == "call_expression" else []
        if node.parent is not None and node.parent.type == "variable_declarator":
            name = _text(node.parent.child_by_field_name("name"))
            calls = [n for n in _walk(function) if n.type == "call_expression"
                     and _text(n.child_by_field_name("function")).rstrip("?.") == name]
        for call in calls:
            arguments = call.child_by_field_name("arguments")
            given = arguments.named_children if arguments is not None else []
            for tool, key in _keys(table, scope.consts):
                member = key.parent
                handler = member.child_by_field_name("value") if member is not None and member.type == "pair" else member
                if handler is None or handler.type not in FUNCTIONS | {"method_definition"}:
                    continue
                roles = {}
                for value, name in zip(given, _params_of(handler)):
                    if is_args(value):
                        roles["args"] = name
                    elif _text(value) == params.get("output"):
                        roles["output"] = name
                found += [Read(key_read, where, frozenset({tool}), False)
                          for key_read, where, _ in _args_reads(handler, roles, Scope(frozenset(), scope.consts, {}))]
    return found


def _table_by_tool(node: Node, scope: Scope) -> Node | None:
    """The object literal `node` looks a tool up in (`GUARDS[input.tool]`, through a `const`), if it does."""
    if node.type != "subscript_expression" or _text(node.child_by_field_name("index")) not in scope.spellings:
        return None
    table = _unwrapped(node.child_by_field_name("object"))
    if table is not None and table.type == "identifier":
        table = _unwrapped(scope.consts.get(_text(table)))
    return table if table is not None and table.type == "object" else None


def _keys(table: Node, consts: dict[str, Node]) -> Iterator[tuple[str, Node]]:
    """The keys of an object literal that are names (`Bash:`, `"Bash":`), each with its node."""
    for member in table.named_children:
        key = member.child_by_field_name("key") if member.type == "pair" else \
            member.child_by_field_name("name") if member.type == "method_definition" else \
            member if member.type == "shorthand_property_identifier" else None
        name = _constant(key, consts) if key is not None and key.type == "string" else _text(key) if key is not None \
            and key.type in ("property_identifier", "shorthand_property_identifier") else None
        if name and key is not None:
            yield name, key


def _params_of(function: Node) -> list[str]:
    """The names of a function's plain parameters, in order ("" for a destructured one)."""
    parameters = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    if parameters is None:
        return []
    if parameters.type == "identifier":
        return [_text(parameters)]
    names = []
    for param in parameters.named_children:
        pattern = param.child_by_field_name("pattern") if param.type in ("required_parameter", "optional_parameter") \
            else param
        names.append(_text(pattern) if pattern is not None and pattern.type == "identifier" else "")
    return names


class Picked(Record):
    """The tools a condition lets through: `names`, or every tool but them (`but`); `prefixed`: it
    also tests input.tool by a prefix (an MCP server's tools, maybe)."""
    names: frozenset[str]
    but: bool
    prefixed: bool = False

    def __and__(self, other: Picked) -> Picked:
        prefixed = self.prefixed or other.prefixed
        if self.but and other.but:
            return Picked(self.names | other.names, True, prefixed)
        if self.but or other.but:
            kept, dropped = (other.names, self.names) if self.but else (self.names, other.names)
            return Picked(kept - dropped, False, prefixed)
        return Picked(self.names & other.names, False, prefixed)

    def __or__(self, other: Picked) -> Picked:
        prefixed = self.prefixed or other.prefixed
        if not self.but and not other.but:
            return Picked(self.names | other.names, False, prefixed)
        if self.but and other.but:
            return Picked(self.names & other.names, True, prefixed)
        every_but, some = (self.names, other.names) if self.but else (other.names, self.names)
        return Picked(every_but - some, True, prefixed)


    def meets(self, other: Picked) -> bool:
        """Whether some tool is picked by both."""
        both = self & other
        return both.but or bool(both.names)


ANY_TOOL = Picked(frozenset(), True)


class Scope(Record):
    """What a hook's conditions are read with: how it writes input.tool, the module's constants, and
    (filled as it is read) what the early exits of each block let through before each statement."""
    spellings: frozenset[str]
    consts: dict[str, Node]
    exits: dict[tuple[int, int], dict[tuple[int, int], Picked]]


def _picked_at(node: Node, function: Node, scope: Scope) -> Picked:
    """The tools for which the hook reaches `node`: the conditions it is inside (`if`, `&&`, `||`,
    `?:`, a `case` of a switch on input.tool), and the early exits before it in each enclosing
    block (`if (!TOOLS.has(input.tool)) return`)."""
    picked, child, parent = ANY_TOOL, node, node.parent
    while parent is not None and child != function:
        kind = parent.type
        if kind == "if_statement":
            condition = parent.child_by_field_name("condition")
            if child == parent.child_by_field_name("consequence"):
                picked &= _when(condition, True, scope)
            elif child == parent.child_by_field_name("alternative"):
                picked &= _when(condition, False, scope)
        elif kind == "binary_expression" and child == parent.child_by_field_name("right"):
            operator = _text(parent.child_by_field_name("operator"))
            if operator in ("&&", "||"):
                picked &= _when(parent.child_by_field_name("left"), operator == "&&", scope)
        elif kind == "ternary_expression" and child != parent.child_by_field_name("condition"):
            picked &= _when(parent.child_by_field_name("condition"),
                            child == parent.child_by_field_name("consequence"), scope)
        elif kind == "switch_case" or kind == "switch_default":
            picked &= _switch_case(parent, scope)
        if kind in ("statement_block", "program", "switch_case", "switch_default"):
            picked &= _after_exits(parent, scope).get((child.start_byte, child.end_byte), ANY_TOOL)
        child, parent = parent, parent.parent
    return picked


def _after_exits(block: Node, scope: Scope) -> dict[tuple[int, int], Picked]:
    """For each statement of a block, the tools the early exits before it let through
    (`if (input.tool !== "bash") return`), read once per block."""
    where = (block.start_byte, block.end_byte)
    if where not in scope.exits:
        found, picked = {}, ANY_TOOL
        for statement in block.named_children:
            found[(statement.start_byte, statement.end_byte)] = picked
            if statement.type == "if_statement" and statement.child_by_field_name("alternative") is None \
                    and _leaves(statement.child_by_field_name("consequence")):
                picked &= _when(statement.child_by_field_name("condition"), False, scope)
        scope.exits[where] = found
    return scope.exits[where]


def _leaves(statement: Node | None) -> bool:
    """Whether a statement always leaves the hook or the loop (`return`, `throw`, `continue`), as the
    body of an early exit."""
    while statement is not None and statement.type == "statement_block":
        statement = statement.named_children[-1] if statement.named_children else None
    return statement is not None and statement.type in ("return_statement", "throw_statement",
                                                         "continue_statement", "break_statement")


def _switch_case(case: Node, scope: Scope) -> Picked:
    """The tools a `case` of `switch (input.tool)` runs for: its label and those of the empty cases
    falling into it; `default`, every tool no label names."""
    body = case.parent
    switch = body.parent if body is not None else None
    if body is None or switch is None or switch.type != "switch_statement" or \
            _text(switch.child_by_field_name("value")).strip("()").strip() not in scope.spellings:
        return ANY_TOOL
    cases = [c for c in body.named_children if c.type in ("switch_case", "switch_default")]
    labels = [_constant(c.child_by_field_name("value"), scope.consts) if c.type == "switch_case" else None
              for c in cases]
    if case.type == "switch_default":
        return Picked(frozenset(label for label in labels if label is not None), True)
    names: set[str] = set()
    for index in range(cases.index(case), -1, -1):
        if index < cases.index(case) and cases[index].child_by_field_name("body") is not None \
                and any(c.type != "comment" for c in cases[index].children_by_field_name("body")):
            break  # (a case with statements of its own does not fall into this one)
        label = labels[index]
        if label is None:
            return ANY_TOOL
        names.add(label)
    return Picked(frozenset(names), False)


DEPTH = 64  # how deep a condition or a value is read (deeper: read as saying nothing)


def _when(condition: Node | None, truth: bool, scope: Scope, depth: int = 0) -> Picked:
    """The tools for which `condition` is `truth`; every tool where it says nothing of input.tool."""
    condition = _unwrapped(condition)
    if condition is None or depth > DEPTH:
        return ANY_TOOL
    if condition.type == "unary_expression" and _text(condition.child_by_field_name("operator")) == "!":
        return _when(condition.child_by_field_name("argument"), not truth, scope, depth + 1)
    if condition.type == "binary_expression":
        operator = _text(condition.child_by_field_name("operator"))
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        if operator in ("&&", "||"):
            first, second = _when(left, truth, scope, depth + 1), _when(right, truth, scope, depth + 1)
            return first & second if (operator == "&&") == truth else first | second
        if operator in ("===", "==", "!==", "!="):
            for a, b in ((left, right), (right, left)):
                if _text(a) in scope.spellings and (value := _constant(b, scope.consts)) is not None:
                    return Picked(frozenset({value}), (operator in ("===", "==")) != truth)
        return ANY_TOOL
    if condition.type == "call_expression":
        callee = condition.child_by_field_name("function")
        arguments = condition.child_by_field_name("arguments")
        values = arguments.named_children if arguments is not None else []
        if callee is None or callee.type != "member_expression":
            return ANY_TOOL
        method, owner = _text(callee.child_by_field_name("property")), callee.child_by_field_name("object")
        if method in ("startsWith", "endsWith") and _text(owner) in scope.spellings:
            return Picked(frozenset(), True, True)
        if method in ("has", "includes") and len(values) == 1 and _text(values[0]) in scope.spellings \
                and (listed := _strings(owner, scope.consts)) is not None:
            return Picked(frozenset(value for value, _ in listed), not truth)
    return ANY_TOOL


def _constant(node: Node | None, consts: dict[str, Node], depth: int = 0) -> str | None:
    """The string a node always has: a literal, a template or a `+` of constants, a `const` naming one."""
    node = _unwrapped(node)
    if node is None or depth > 8:
        return None
    if node.type == "string":
        return _text(node)[1:-1]
    if node.type == "template_string":
        return _template_text(node.children, consts, depth + 1)
    if node.type == "binary_expression" and _text(node.child_by_field_name("operator")) == "+":
        left = _constant(node.child_by_field_name("left"), consts, depth + 1)
        right = _constant(node.child_by_field_name("right"), consts, depth + 1)
        return left + right if left is not None and right is not None else None
    if node.type == "identifier" and _text(node) in consts:
        return _constant(consts[_text(node)], consts, depth + 1)
    return None


def _strings(node: Node | None, consts: dict[str, Node], depth: int = 0) -> list[tuple[str, Node]] | None:
    """The strings of an array or a `new Set([...])` of constants (through a `const` naming it), each
    with where it is written."""
    node = _unwrapped(node)
    if node is None or depth > 8:
        return None
    if node.type == "identifier" and _text(node) in consts:
        return _strings(consts[_text(node)], consts, depth + 1)
    if node.type == "new_expression" and _text(node.child_by_field_name("constructor")) == "Set":
        arguments = node.child_by_field_name("arguments")
        return _strings(arguments.named_children[0], consts, depth + 1) if arguments is not None \
            and len(arguments.named_children) == 1 else None
    if node.type == "array":
        values = [(_constant(item, consts, depth + 1), item) for item in node.named_children]
        return [(value, item) for value, item in values if value is not None] \
            if all(value is not None for value, _ in values) else None
    return None


def _constants(root: Node) -> dict[str, Node]:
    """The value of every `const` in the module (the first, where a name is declared twice)."""
    found: dict[str, Node] = {}
    for node in _walk(root):
        if node.type == "lexical_declaration" and _text(node).startswith("const"):
            for declarator in (c for c in node.named_children if c.type == "variable_declarator"):
                name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
                if name is not None and name.type == "identifier" and value is not None:
                    found.setdefault(_text(name), value)
    return found


def _args_reads(function: Node, params: dict[str, str], scope: Scope) -> list[tuple[str, Place, Picked]]:
    """The arguments the hook reads (`output.args.file_path`, `args["cmd"]`, `const { file_path } =
    output.args`), where, and the tools the hook picks there: not those it only sets."""
    is_args, _ = _args_test(function, params)
    found = []
    for node in _walk(function):
        if node.type == "member_expression" and is_args(node.child_by_field_name("object")):
            key = _text(node.child_by_field_name("property"))
        elif node.type == "subscript_expression" and is_args(node.child_by_field_name("object")):
            key = _unquoted(node.child_by_field_name("index")) or ""
        elif node.type == "variable_declarator" and is_args(node.child_by_field_name("value")) and \
                (pattern := node.child_by_field_name("name")) is not None and pattern.type == "object_pattern":
            around = _picked_at(node, function, scope)
            found += [(_text(part).split(":")[0].split("=")[0].strip(), _place(part), around)
                      for part in pattern.named_children if part.type != "rest_pattern"]
            continue
        else:
            continue
        parent = node.parent  # (tree-sitter finds a parent from the root down: asked of every node, a 3,000-deep hook took 13 s)
        written = parent is not None and parent.type in ("assignment_expression", "augmented_assignment_expression") \
            and parent.child_by_field_name("left") == node
        deleted = parent is not None and parent.type == "unary_expression" and _text(parent).startswith("delete ")
        if key and not written and not deleted:
            found.append((key, _place(node), _picked_at(node, function, scope)))
    return found


def _args_writes(function: Node, params: dict[str, str], scope: Scope | None = None) -> tuple[list[Write], list[Place]]:
    """The changes the hook makes to the call's arguments, with (given `scope`) the tools each is
    made for; and where it assigns output.args a new object instead."""
    output = params.get("output")
    is_args, aliases = _args_test(function, params)
    writes, reassigns = [], []
    for node in _walk(function):
        if node.type in ("assignment_expression", "augmented_assignment_expression"):
            left = node.child_by_field_name("left")
            if left is not None and left.type == "member_expression" and is_args(left.child_by_field_name("object")):
                writes.append(Write(_text(left.child_by_field_name("property")), _place(node),
                                    _picked_at(node, function, scope) if scope is not None else None))
            elif left is not None and left.type == "subscript_expression" and is_args(left.child_by_field_name("object")):
                writes.append(Write(_unquoted(left.child_by_field_name("index")) or UNKNOWN, _place(node),
                                    _picked_at(node, function, scope) if scope is not None else None))
            elif output and left is not None and left.type == "member_expression" and \
                    _text(left) == f"{output}.args":
                reassigns.append(_place(node))
            elif left is not None and left.type == "identifier" and node.type == "assignment_expression" \
                    and _text(left) in aliases:  # `args = {...}` with args a name for output.args: a new object
                reassigns.append(_place(node))
        elif node.type == "unary_expression" and _text(node).startswith("delete "):
            target = node.named_children[0] if node.named_children else None
            if target is not None and target.type == "member_expression" and is_args(target.child_by_field_name("object")):
                writes.append(Write(_text(target.child_by_field_name("property")), _place(node)))
        elif node.type == "call_expression" and _text(node.child_by_field_name("function") or node) == "Object.assign":
            arguments = node.child_by_field_name("arguments")
            values = arguments.named_children if arguments is not None else []
            if values and is_args(values[0]):
                sources: list[Node | None] = [*values[1:]] or [None]  # (no source: any key)
                for source in sources:
                    keys = _object_keys(source)
                    writes += [Write(key, _place(node)) for key in keys] if keys else [Write(UNKNOWN, _place(node))]
    return writes, reassigns


def _handed(function: Node, params: dict[str, str], scope: Scope) -> list[Handed]:
    """The objects with a `tool_input` key the hook builds (`{tool_name, tool_input: output.args}`),
    in the hook or in a function of the module it calls: Claude Code's payload, made of opencode's call."""
    is_args, _ = _args_test(function, params)
    found = []
    for node in _walk(_root(function)):
        if node.type != "object":
            continue
        pairs = {(_unquoted(k) if k is not None and k.type == "string" else _text(k)): pair for pair in
                 node.named_children if pair.type == "pair" and (k := pair.child_by_field_name("key")) is not None}
        if "tool_input" not in pairs:
            continue
        inside = _encloses(function, node)
        value = _unwrapped(pairs["tool_input"].child_by_field_name("value"))
        spread = [c for c in value.named_children if c.type == "spread_element"] if value is not None and \
            value.type == "object" else []
        as_args = (is_args if inside else _args_named)
        args = as_args(value) or any(as_args(c.named_children[0] if c.named_children else None) for c in spread)
        renamed = frozenset(_text(pair.child_by_field_name("key")).strip("'\"`") for pair in
                            (value.named_children if value is not None and value.type == "object" else ())
                            if pair.type == "pair")
        tool = _unwrapped(pairs["tool_name"].child_by_field_name("value")) if "tool_name" in pairs else None
        own_name = tool is not None and (_text(tool) in scope.spellings if inside else _text(tool).endswith(".tool"))
        found.append(Handed(_place(pairs["tool_input"]), args, renamed, _place(pairs["tool_name"]) if own_name else None,
                            _answer_read(function) if inside else None))
    return found


def _input_args(function: Node) -> list[Place]:
    """Where tool.execute.before reads `input.args` (or destructures `{ args }` from its input):
    its input is {tool, sessionID, callID}, the arguments are output.args (docs/hosts/opencode.md#events)."""
    parameters = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    first = next((p for p in parameters.named_children if p.type != "comment"), None) if parameters is not None \
        and parameters.type != "identifier" else parameters
    pattern = first.child_by_field_name("pattern") if first is not None and first.type in (
        "required_parameter", "optional_parameter") else first
    if pattern is None:
        return []
    if pattern.type == "object_pattern":
        return [_place(part) for part in pattern.named_children if _text(part).split(":")[0].split("=")[0].strip()
                == "args"]
    name = _text(pattern) if pattern.type == "identifier" else None
    return [_place(n) for n in _walk(function) if name and n.type == "member_expression"
            and _text(n.child_by_field_name("object")) == name and _text(n.child_by_field_name("property")) == "args"]


def _local_changes(function: Node, params: dict[str, str], writes: list[Write]) -> list[tuple[str, Place]]:
    """`let cmd = output.args.command; cmd = "rtk " + cmd`: a change of a copy of an argument (a
    string: a value, not the object), where the hook writes nothing back to that argument."""
    is_args, _ = _args_test(function, params)
    copies: dict[str, str] = {}  # name: the argument it copies
    declarators = (node for declaration in _walk(function) if declaration.type in DECLARATIONS
                   and declaration.children[0].type in ("let", "var") for node in declaration.named_children
                   if node.type == "variable_declarator")  # (from the declaration down: a node's parent is found from the root)
    for node in declarators:
        name, value = node.child_by_field_name("name"), _unwrapped(node.child_by_field_name("value"))
        if name is not None and name.type == "identifier" and value is not None and value.type == "member_expression" \
                and is_args(value.child_by_field_name("object")):
            copies[_text(name)] = _text(value.child_by_field_name("property"))
        elif name is not None and name.type == "object_pattern" and is_args(value):
            for part in name.named_children:
                if part.type == "shorthand_property_identifier_pattern":
                    copies[_text(part)] = _text(part)
    written = {write.key for write in writes}
    if UNKNOWN in written:
        return []
    return [(copies[_text(left)], _place(node)) for node in _walk(function)
            if node.type in ("assignment_expression", "augmented_assignment_expression")
            and (left := node.child_by_field_name("left")) is not None and left.type == "identifier"
            and _text(left) in copies and copies[_text(left)] not in written]


def _compared_literals(function: Node) -> list[tuple[str, Place]]:
    """The dotted strings the `event` hook compares something with (`event.type === "x.y"`, `case "x.y":`)."""
    found = []
    for node in _walk(function):
        operands = [node.child_by_field_name("left"), node.child_by_field_name("right")] if node.type == \
            "binary_expression" and _text(node.child_by_field_name("operator")) in ("===", "==", "!==", "!=") else \
            [node.child_by_field_name("value")] if node.type == "switch_case" else []
        for operand in operands:
            value = _unquoted(operand)
            if value is not None and operand is not None and "." in value:
                found.append((value, _place(operand)))
    return found


EXIT_STATUS = frozenset({"status", "exitCode"})  # spawnSync's, Bun.spawnSync's and execa's


def _answer_read(function: Node) -> tuple[str, Place] | None:
    """Whether the hook reads the answer of the program it runs by its exit status alone
    (`r.status === 2`) or by its stdout alone (`JSON.parse(r.stdout)`), and where."""
    status = [n for n in _walk(function) if n.type == "member_expression"
              and _text(n.child_by_field_name("property")) in EXIT_STATUS]
    output = [n for n in _walk(function) if n.type == "member_expression"
              and _text(n.child_by_field_name("property")) == "stdout"]
    if status and not output:
        return "status", _place(status[0])
    if output and not status:
        return "stdout", _place(output[0])
    return None


# what holds a program's exit status: spawnSync's `status`, Bun's and execa's `exitCode`, a close
# event's `code` (`child.on("close", (code) => ...)`)
STATUS_NAMES = EXIT_STATUS | {"code", "exitCode", "status"}
EQUAL, UNEQUAL = frozenset({"===", "=="}), frozenset({"!==", "!="})


def _status_tests(root: Node) -> Iterator[StatusTest]:
    """Each `if` of the module that tests an exit status against numbers (`r.status === 1`,
    `code !== 0 && code !== 3`) and refuses on one side: a throw or a reject() in the branch it
    takes (or, where that branch returns, in what follows or in its else)."""
    for node in _walk(root):
        if node.type != "if_statement":
            continue
        tested = _statuses_tested(_unwrapped(node.child_by_field_name("condition")))
        if tested is None:
            continue
        statuses, when_in = tested
        taken, other = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
        place = _place(node.child_by_field_name("condition") or node)
        if taken is not None and _refuses(taken):
            yield StatusTest(statuses, not when_in, place)
        elif taken is not None and _ends(taken) and (other is not None and _refuses(other) or other is None and any(
                _refuses(after) for after in _following(node))):
            yield StatusTest(statuses, when_in, place)


# child_process and execa calls that throw when the program exits non-zero (Node's docs: "If the
# child process ... has a non-zero exit code, this method will throw"); the async ones once awaited
THROWING_SYNC_CALLS = frozenset({"execFileSync", "execSync", "execaSync"})
THROWING_AWAITED_CALLS = frozenset({"execa", "execAsync", "execFileAsync", "execaCommand"})


class Caught(Record):
    """A refusal the hook's own try/catch turns into a pass: a throw in the try whose catch neither
    throws again nor refuses after it, Bun's `$` run there without .nothrow(), which throws a
    ShellError on any exit but 0 before the test of its exitCode is reached, or a call that throws
    when its program exits non-zero (execFileSync), whose throw is the refusal itself."""

    place: Place  # the `$` call (shell), or the catch clause (throw, call, function: the change goes there)
    what: str  # "shell", "call", "throw", or "function" (a function of the plugin's own that throws)
    catch: Place  # the catch clause (or the .catch() callback, Promise.allSettled)
    line: int  # the line of the refusal the catch swallows (the throw, the exitCode test, the throwing call)
    name: str = ""  # (function) the function called, whose throw is the refusal
    thrown: int = 0  # (function) the line of its throw (0: in another module of the plugin's)


def _caught_refusals(function: Node, functions: dict[str, Node]) -> list[Caught]:
    """Each try of a tool.execute.before hook that refuses inside (a throw, or a test of the exit
    status of Bun's `$`) and whose catch takes every error for a pass: Bun 1.3.14 (opencode
    1.18.33's) throws ShellError("Failed with exit code 2") from `await $`...`.quiet()` when the
    program exits 2, and returns its exitCode only with .nothrow() (measured here with the bun
    inside opencode 1.18.33, BUN_BE_BUN=1); a catch that logs and goes on lets the call run."""
    found = []
    for node in _walk(function):
        handler = node.child_by_field_name("handler") if node.type == "try_statement" else None
        body = node.child_by_field_name("body") if handler is not None else None
        if handler is None or body is None or _refuses(handler) or not _ends(handler) and any(
                _refuses(a) for a in _following(node)):
            continue  # (a catch that goes on to a refusal after the try: a flag set, or a result still unread)
        catch = _place(handler)
        throws = [n for n in _walk(body) if n.type == "throw_statement" and not _in_function_below(n, body)]
        tested = [n for part in (body, *_following(node)) for n in _walk(part) if n.type == "member_expression"
                  and _text(n.child_by_field_name("property")) in EXIT_STATUS]  # (in the try, or after it)
        shells = [n for n in _walk(body) if n.type == "call_expression" and _shell_call(n)]
        throwing = [n for n in shells if "nothrow" not in _methods_around(n)]
        calls = [n for n in _walk(body) if n.type == "call_expression" and _throws_on_failure(n)
                 and not _in_function_below(n, body)]
        own = [(n, thrown) for n in _walk(body) if n.type == "call_expression" and not _in_function_below(n, body)
               and (thrown := _thrown_by_call(n, functions)) is not None]
        if throwing and (tested or throws):
            refusal = (tested or throws)[0]
            found.append(Caught(_place(throwing[0]), "shell", catch, refusal.start_point[0] + 1))
        elif throws:
            found.append(Caught(catch, "throw", catch, throws[0].start_point[0] + 1))
        elif calls and not tested:  # (its throw is the refusal: nothing else in the try refuses)
            found.append(Caught(catch, "call", catch, calls[0].start_point[0] + 1))
        elif own:
            call, thrown = own[0]
            found.append(Caught(catch, "function", catch, call.start_point[0] + 1,
                                _text(call.child_by_field_name("function")), _line_in_module(thrown)))
    return found + _settled_refusals(function, functions)


def _thrown_by_call(call: Node, functions: dict[str, Node], depth: int = 0, settled: bool = False) -> Node | None:
    """The throw a call of the plugin's own function ends in (`check(cmd)` where check throws, or
    calls another of its own that does), one level or more down; None when the function is not the
    module's, never throws where its caller can catch it (an async one not awaited rejects a
    promise instead), or catches its own throws."""
    name = _text(call.child_by_field_name("function"))
    called = functions.get(name)
    if called is not None and called.type == "program":  # (imported: it throws in its own module)
        return called
    if called is None or depth > 3 or _is_async(called) and not (settled or _awaited(call)):
        return None
    throws = _throw_nodes(called)
    if throws:
        return throws[0]
    for inner in _own_nodes(called):
        if inner.type == "call_expression" and inner != call:
            thrown = _thrown_by_call(inner, functions, depth + 1)
            if thrown is not None:
                return thrown
    return None


def _line_in_module(thrown: Node) -> int:
    """The line of a throw in this module; 0 for one in another module (an imported function's)."""
    return 0 if thrown.type == "program" else thrown.start_point[0] + 1


def _settled_refusals(function: Node, functions: dict[str, Node]) -> list[Caught]:
    """A refusal of the plugin's own function turned into a value before it reaches opencode:
    `check(cmd).catch((e) => log(e))`, whose callback neither throws nor rejects again, and
    `Promise.allSettled([check(cmd)])`, whose rejections are results that nothing after it throws on."""
    found = []
    for node in _own_nodes(function):
        if node.type != "call_expression":
            continue
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        values = arguments.named_children if arguments is not None else []
        if callee is not None and callee.type == "member_expression" and \
                _text(callee.child_by_field_name("property")) == "catch" and values:
            target = _unwrapped(callee.child_by_field_name("object"))
            handler = values[0]
            name = _text(target.child_by_field_name("function")) if target is not None \
                and target.type == "call_expression" else ""
            called = functions.get(name) if name else None
            thrown = [called] if called is not None and called.type == "program" else \
                _throw_nodes(called) if called is not None and _is_async(called) else []
            if thrown and not _refuses(handler) and "Promise.reject" not in _text(handler):
                found.append(Caught(_place(handler), "function", _place(handler), node.start_point[0] + 1,
                                    name, _line_in_module(thrown[0])))
        elif _text(callee) == "Promise.allSettled" and values:
            inner = [(n, t) for n in _walk(values[0]) if n.type == "call_expression"
                     and (t := _thrown_by_call(n, functions, settled=True)) is not None]
            statement = node
            while statement.parent is not None and statement.parent.type not in ("statement_block", "program"):
                statement = statement.parent
            if inner and not any(_refuses(after) for after in _following(statement)):
                call, throw = inner[0]
                found.append(Caught(_place(node), "function", _place(node), call.start_point[0] + 1,
                                    _text(call.child_by_field_name("function")), _line_in_module(throw)))
    return found


def _throws_on_failure(call: Node) -> bool:
    """A call that throws when the program it runs exits non-zero: execFileSync and its kin, or an
    awaited execa, a promisified execFile (`await promisify(execFile)(...)`, `await execFileAsync(...)`)."""
    callee = call.child_by_field_name("function")
    if callee is None:
        return False
    name = _text(callee.child_by_field_name("property")) if callee.type == "member_expression" else _text(callee)
    if name in THROWING_SYNC_CALLS:
        return True
    awaited = call.parent is not None and call.parent.type == "await_expression"
    promisified = callee.type == "call_expression" and _text(callee.child_by_field_name("function")) == "promisify"
    return awaited and (name in THROWING_AWAITED_CALLS or promisified)


def _shell_call(node: Node) -> bool:
    """`$`...``: Bun's shell, run on a template."""
    callee, arguments = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    return callee is not None and callee.type == "identifier" and _text(callee) == "$" \
        and arguments is not None and arguments.type == "template_string"


def _methods_around(call: Node) -> list[str]:
    """The methods called on a call's result in its chain (`$`x`.quiet().nothrow()`: quiet, nothrow)."""
    methods, node = [], call
    while node.parent is not None and node.parent.type == "member_expression" and node.parent.parent is not None \
            and node.parent.parent.type == "call_expression":
        methods.append(_text(node.parent.child_by_field_name("property")))
        node = node.parent.parent
    return methods


def _in_function_below(node: Node, top: Node) -> bool:
    """The node is inside a function defined within `top` (its throw is that function's)."""
    parent = node.parent
    while parent is not None and parent != top:
        if parent.type in FUNCTIONS | {"method_definition"}:
            return True
        parent = parent.parent
    return False


def _statuses_tested(condition: Node | None) -> tuple[frozenset[int], bool] | None:
    """The numbers an exit status is compared with, and whether the condition holds when the
    status is one of them (`s === 1 || s === 3`) or when it is none (`s !== 0 && s !== 3`);
    None for any other condition."""
    if condition is None or condition.type != "binary_expression":
        return None
    operator = _text(condition.child_by_field_name("operator"))
    left, right = (_unwrapped(condition.child_by_field_name(side)) for side in ("left", "right"))
    if operator in ("||", "&&"):
        first, second = _statuses_tested(left), _statuses_tested(right)
        if first is None or second is None or first[1] != second[1] or first[1] != (operator == "||"):
            return None
        return first[0] | second[0], first[1]
    if operator not in EQUAL | UNEQUAL or left is None or right is None:
        return None
    status, number = (left, right) if right.type == "number" else (right, left)
    named = _text(status.child_by_field_name("property")) if status.type == "member_expression" else _text(status)
    if number.type != "number" or named not in STATUS_NAMES or not _text(number).isdigit():
        return None
    return frozenset({int(_text(number))}), operator in EQUAL


def _refuses(node: Node) -> bool:
    """It throws or calls reject(), outside a function of its own."""
    return any(n.type == "throw_statement" or n.type == "call_expression" and _text(n.child_by_field_name("function"))
               == "reject" for n in _walk(node))


def _ends(node: Node) -> bool:
    """It returns (or is a bare `return`) without refusing."""
    return any(n.type == "return_statement" for n in _walk(node)) and not _refuses(node)


def _following(node: Node) -> list[Node]:
    """The statements after it in its block."""
    siblings = node.parent.named_children if node.parent is not None else []
    return [s for s in siblings if s.start_byte > node.end_byte]


def _root(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


def _encloses(outer: Node, inner: Node) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def _args_named(node: Node | None) -> bool:
    """Outside the hook: a value that reads as the call's arguments by its name (`output.args`, `args`)."""
    text = _text(_unwrapped(node))
    return text == "args" or text.endswith(".args")


def _object_keys(node: Node | None) -> list[str]:
    if node is None or node.type != "object":
        return []
    keys = []
    for part in node.named_children:
        if part.type == "pair":
            key = part.child_by_field_name("key")
            keys.append(_unquoted(key) or _text(key))
        elif part.type == "shorthand_property_identifier":
            keys.append(_text(part))
        else:  # a spread: any key
            return []
    return keys


def _tool_spellings(function: Node, params: dict[str, str]) -> frozenset[str]:
    """How the hook writes `input.tool`: that, the name it is destructured to, `const t = input.tool`,
    and each of those lower- or upper-cased."""
    tool = f"{params['input']}.tool" if "input" in params else params.get("tool")
    if tool is None:
        return frozenset()
    names = {tool}
    for node in _walk(function):
        if node.type == "variable_declarator" and _text(node.child_by_field_name("value")) == tool:
            alias = node.child_by_field_name("name")
            if alias is not None and alias.type == "identifier":
                names.add(_text(alias))
    return frozenset(names | {f"{name}.{case}()" for name in names for case in ("toLowerCase", "toUpperCase")})


def _tool_prefixes(function: Node, scope: Scope) -> set[tuple[str, Place]]:
    """The strings `input.tool.startsWith(...)` is called with (an MCP server's `fs_`, a template of
    a constant: `${SERVER}_`...), and where."""
    found = set()
    for node in _walk(function):
        callee = node.child_by_field_name("function") if node.type == "call_expression" else None
        if callee is not None and callee.type == "member_expression" \
                and _text(callee.child_by_field_name("property")) == "startsWith" \
                and _text(callee.child_by_field_name("object")) in scope.spellings:
            arguments = node.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
            if first is not None and (value := _constant(first, scope.consts)) is not None:
                found.add((value, _place(first)))
    return found


def _tool_patterns(function: Node, scope: Scope) -> list[ToolPattern]:
    """The regexes input.tool is tested with (`/re/.test(tool)`, `tool.match(/re/)`, `.search`) and
    the substrings it is looked for in (`tool.includes("x")`, `tool.endsWith("x")`)."""
    found = []
    for node in _walk(function):
        callee = node.child_by_field_name("function") if node.type == "call_expression" else None
        arguments = node.child_by_field_name("arguments") if callee is not None else None
        if callee is None or callee.type != "member_expression" or arguments is None \
                or len(arguments.named_children) != 1:
            continue
        method, subject = _text(callee.child_by_field_name("property")), callee.child_by_field_name("object")
        argument = arguments.named_children[0]
        if method == "test" and _text(argument) in scope.spellings:
            regex = _regex(subject, scope.consts)
        elif method in ("match", "search") and _text(subject) in scope.spellings:
            regex = _regex(argument, scope.consts)
        elif method in ("includes", "endsWith") and _text(subject) in scope.spellings:
            value = _constant(argument, scope.consts)
            if value is not None:
                found.append(ToolPattern(re.escape(value) + ("$" if method == "endsWith" else ""), False,
                                         f'input.tool.{method}("{value}")', _place(argument)))
            continue
        else:
            continue
        if regex is not None:
            pattern, flags = _text(regex.child_by_field_name("pattern")), _text(regex.child_by_field_name("flags"))
            found.append(ToolPattern(pattern, "i" in flags, _text(regex), _place(regex)))
        elif (built := _regexp_built(subject if method == "test" else argument, scope.consts)) is not None:
            found.append(built)
    return found


def _regexp_built(node: Node | None, consts: dict[str, Node]) -> ToolPattern | None:
    """`new RegExp("Bash")` (or `RegExp(MATCHER, "i")`) of constant text: a matcher copied from a
    Claude Code config into a plugin, as converters write it."""
    node = _unwrapped(node)
    if node is not None and node.type == "identifier" and _text(node) in consts:
        node = _unwrapped(consts[_text(node)])
    if node is None or node.type not in ("new_expression", "call_expression"):
        return None
    callee = node.child_by_field_name("constructor") or node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if _text(callee) != "RegExp" or arguments is None or not arguments.named_children:
        return None
    pattern = _constant(arguments.named_children[0], consts)
    flags = _constant(arguments.named_children[1], consts) if len(arguments.named_children) > 1 else ""
    if pattern is None:
        return None
    return ToolPattern(pattern, "i" in (flags or ""), _text(node), _place(node))


def _tools_compared(function: Node, scope: Scope) -> set[tuple[str, Place]]:
    """The strings `input.tool` is compared with (===, !==, ==, a list's includes, a Set's has, case),
    and where (through `const t = input.tool`, and constants, too)."""
    found = set()
    for node in _walk(function):
        if node.type == "binary_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            for a, b in ((left, right), (right, left)):
                if a is not None and b is not None and _text(a) in scope.spellings \
                        and (value := _constant(b, scope.consts)) is not None:
                    found.add((value, _place(b)))
        elif node.type == "call_expression":
            callee = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            if callee is not None and callee.type == "member_expression" \
                    and _text(callee.child_by_field_name("property")) in ("includes", "has") and arguments is not None \
                    and len(arguments.named_children) == 1 and _text(arguments.named_children[0]) in scope.spellings:
                found |= {(value, _place(item)) for value, item in
                          _strings(callee.child_by_field_name("object"), scope.consts) or ()}
        elif node.type == "subscript_expression" and (table := _table_by_tool(node, scope)) is not None:
            found |= {(name, _place(key)) for name, key in _keys(table, scope.consts)}
        elif node.type == "switch_statement" and \
                _text(node.child_by_field_name("value") or node).strip("()").strip() in scope.spellings:
            found |= {(value, _place(label)) for case in _walk(node) if case.type == "switch_case"
                      and (label := case.child_by_field_name("value")) is not None
                      and (value := _constant(label, scope.consts)) is not None}
    return found


# ---- what opencode does with a hook's value, its promises, and a default export ----------------------

BLOCKING_LOOKING = frozenset({"false", "object", "string"})  # `return false`, `return {block: true}`, `return "deny"`


def _ignored_returns(function: Node) -> list[Place]:
    """`return false` (or an object, a string) in tool.execute.before: opencode awaits the hook and
    drops its value, so only a throw stops the call."""
    found = []
    for node in _own_nodes(function):
        value = _unwrapped(node.named_children[0]) if node.type == "return_statement" and node.named_children else None
        if value is not None and value.type in BLOCKING_LOOKING:
            found.append(_place(node))
    return found


SHELL_RESULT = frozenset({"exitCode", "stdout", "stderr"})


# Node's calls that run a function they are given later, once the hook has returned: timers, a child
# process's or an fs call's completion callback (`execFile(cmd, args, (err) => ...)`), and an event's
# listener (`child.on("close", ...)`)
LATER_CALLS = frozenset({"setTimeout", "setImmediate", "setInterval", "nextTick", "execFile", "exec", "fork",
                         "readFile", "writeFile", "appendFile", "stat", "lstat", "access", "readdir", "mkdir",
                         "unlink", "rm", "rename", "open", "realpath", "exists", "copyFile", "on", "once",
                         "addListener", "prependListener"})
# a call that hands each item to its callback: with an async one it starts promises nobody awaits
EACH_CALLS = frozenset({"forEach", "map", "filter", "some", "every"})


class Lost(Record):
    """What a hook starts and never waits for, whose answer (a throw, a change of the arguments)
    comes after opencode has gone on with the call."""
    place: Place  # the statement that starts it
    what: str  # "promise" (not awaited), "callback" (run later by Node), "args" (a change of output.args later)


def _lost_promises(function: Node, writes: list[Write]) -> list[Lost]:
    """What the hook starts without awaiting or returning it, whose answer counts: a chain with a
    `.then`/`.catch` on Bun's `$` or with a throw in its callback, `const r = $`...`` read as a
    result (`r.exitCode`: a promise has none), a callback Node runs later (a timer, `execFile`'s,
    an fs call's, an event's) that throws or changes `output.args`, a `new Promise` or a call of an
    async function that throws, and `forEach(async ...)` that throws. opencode awaits the hook's own
    promise and nothing else; measured on 1.18.33, none of these stopped or changed the call
    (a change in a `.then` of a settled promise runs first, and does change it)."""
    found = []
    pending: dict[str, Node] = {}
    changes = {w.place for w in writes}
    asyncs = _async_functions(_root(function))
    for node in _own_nodes(function):
        if (node.type == "expression_statement" or _return_then_statement(node)) and node.named_children:
            value = _unwrapped(node.named_children[-1])
            where = _place(node if node.type == "expression_statement" else node.named_children[-1])
            shell, methods, callbacks = _chain(value)
            if {"then", "catch"} & set(methods) and (shell or any(_throws_in(c) for c in callbacks)):
                found.append(Lost(where, "promise"))
            elif (lost := _started_and_left(value, callbacks, asyncs, changes)) is not None:
                found.append(Lost(where, lost))
        elif node.type == "variable_declarator" and (value := node.child_by_field_name("value")) is not None \
                and _chain(value)[0] and (name := node.child_by_field_name("name")) is not None:
            pending[_text(name)] = node
        elif node.type == "member_expression" and _text(node.child_by_field_name("object")) in pending \
                and _text(node.child_by_field_name("property")) in SHELL_RESULT:
            found.append(Lost(_place(pending.pop(_text(node.child_by_field_name("object")))), "promise"))
    return sorted(found)


def _return_then_statement(node: Node) -> bool:
    """`return` with its value on a later line: JavaScript ends the return at the line break (it
    returns undefined) and runs nothing more, but the parser reads one `return value` statement,
    and a value that starts a new line with `[` or `(` is the next statement to a reader."""
    value = node.named_children[-1] if node.type == "return_statement" and node.named_children else None
    return value is not None and value.start_point[0] > node.start_point[0]


def _started_and_left(value: Node | None, callbacks: list[Node], asyncs: dict[str, Node],
                      changes: set[Place]) -> str | None:
    """Of a statement the hook neither awaits nor returns: "callback" when it hands Node a function
    that runs later and throws, "args" when that function changes output.args, "promise" for a
    `new Promise`, an async function or an async `forEach` callback that throws; else None."""
    if value is None:
        return None
    if value.type == "new_expression" and _text(value.child_by_field_name("constructor")) == "Promise":
        arguments = value.child_by_field_name("arguments")
        executor = [a for a in (arguments.named_children if arguments is not None else []) if a.type in FUNCTIONS]
        return "promise" if any(_throws_in(e) or _rejects(e) for e in executor) else None
    if value.type != "call_expression":
        return None
    callee = value.child_by_field_name("function")
    name = _text(callee.child_by_field_name("property") if callee is not None and callee.type == "member_expression"
                 else callee)
    arguments = value.child_by_field_name("arguments")
    given = [a for a in (arguments.named_children if arguments is not None else []) if a.type in FUNCTIONS]
    if callee is not None and callee.type == "identifier" and name in asyncs:
        return "promise" if _throws_in(asyncs[name]) else None
    if name in EACH_CALLS:
        return "promise" if any(_is_async(f) and _throws_in(f) for f in given) else None
    if name in LATER_CALLS:
        later = given + [c for c in callbacks if c not in given]
        if any(_throws_in(f) for f in later):
            return "callback"
        if any(_place(n) in changes for f in later for n in _walk(f)):
            return "args"
    return None


def _throws_in(function: Node) -> bool:
    return any(n.type == "throw_statement" for n in _walk(function))


def _rejects(executor: Node) -> bool:
    """A `new Promise` executor that calls its second parameter (reject)."""
    params = _params_of(executor)
    return len(params) > 1 and any(n.type == "call_expression" and _text(n.child_by_field_name("function")) == params[1]
                                   for n in _walk(executor))


def _is_async(function: Node) -> bool:
    return any(child.type == "async" for child in function.children)


def _async_functions(root: Node) -> dict[str, Node]:
    """The async functions the module names (`async function check()`, `const check = async () =>`)."""
    found = {}
    for node in _walk(root):
        if node.type == "function_declaration" and _is_async(node) and (name := node.child_by_field_name("name")):
            found[_text(name)] = node
        elif node.type == "variable_declarator" and (value := _unwrapped(node.child_by_field_name("value"))) \
                is not None and value.type in FUNCTIONS and _is_async(value) \
                and (name := node.child_by_field_name("name")) is not None:
            found[_text(name)] = value
    return found


def _chain(node: Node | None) -> tuple[bool, list[str], list[Node]]:
    """Of a call chain (`$`cmd`.quiet().then(fn)`), not awaited: whether it starts at Bun's `$`, the
    methods it calls, and the functions it gives them."""
    shell, methods, callbacks = False, [], []  # type: tuple[bool, list[str], list[Node]]
    while node is not None and node.type in ("call_expression", "member_expression", "parenthesized_expression"):
        if node.type == "parenthesized_expression":
            node = node.named_children[0] if node.named_children else None
            continue
        if node.type == "member_expression":
            node = node.child_by_field_name("object")
            continue
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if callee is not None and callee.type == "identifier" and _text(callee) == "$" \
                and arguments is not None and arguments.type == "template_string":
            shell = True
            break
        if callee is not None and callee.type == "member_expression":
            methods.append(_text(callee.child_by_field_name("property")))
            callbacks += [a for a in (arguments.named_children if arguments is not None else []) if a.type in FUNCTIONS]
        node = callee
    return shell, methods, callbacks


def _default_without_id(root: Node) -> Place | None:
    """`export default { server }` with no `id`: opencode 1.18.33 refuses such a file plugin
    ("Path plugin ... must export id") and loads none of it."""
    for statement in (c for c in root.children if c.type == "export_statement"):
        value = _unwrapped(statement.child_by_field_name("value"))
        if value is not None and value.type == "object":
            keys = {_text(p.child_by_field_name("key") or p) for p in value.named_children}
            if "server" in keys and "id" not in keys:
                return _place(statement)
    return None


# ---- a change that puts text first, and a guard anchored at the start ------------------------------

def _prefixings(function: Node, params: dict[str, str], scope: Scope) -> list[Prefixing]:
    """`output.args.command = `rtk ${cmd}`` (or `"rtk " + cmd`): the argument's value, after text of its own."""
    is_args, _ = _args_test(function, params)
    found = []
    for node in _walk(function):
        left = node.child_by_field_name("left") if node.type == "assignment_expression" else None
        if left is None or left.type != "member_expression" or not is_args(left.child_by_field_name("object")):
            continue
        prefix, dynamic = _leading_text(node.child_by_field_name("right"), scope.consts)
        if dynamic and prefix.strip():
            found.append(Prefixing(_text(left.child_by_field_name("property")), prefix, _place(node),
                                   _picked_at(node, function, scope), _gate(node, function, scope.consts)))
    return found


def _leading_text(node: Node | None, consts: dict[str, Node], depth: int = 0) -> tuple[str, bool]:
    """The constant text a value starts with, and whether anything not constant follows it."""
    node = _unwrapped(node)
    if node is None or depth > DEPTH:
        return "", True
    if node.type == "template_string":
        text = ""
        for child in node.children:
            if child.type == "template_substitution":
                inner = child.named_children[0] if child.named_children else None
                value = _constant(inner, consts)
                if value is None:
                    return text, True
                text += value
            elif child.type == "string_fragment":
                text += _text(child)
        return text, False
    if node.type == "binary_expression" and _text(node.child_by_field_name("operator")) == "+":
        text, dynamic = _leading_text(node.child_by_field_name("left"), consts, depth + 1)
        if dynamic:
            return text, True
        more, dynamic = _leading_text(node.child_by_field_name("right"), consts, depth + 1)
        return text + more, dynamic
    value = _constant(node, consts)
    return (value, False) if value is not None else ("", True)


def _gate(node: Node, function: Node, consts: dict[str, Node]) -> frozenset[str] | None:
    """The words a value must start with for the hook to reach `node`: a start-anchored regex it
    tests, or a `startsWith`, in a condition that holds there (None: no such condition)."""
    child, parent = node, node.parent
    while parent is not None and child != function:
        holds = parent.child_by_field_name("condition") if parent.type == "if_statement" and \
            child == parent.child_by_field_name("consequence") else parent.child_by_field_name("left") \
            if parent.type == "binary_expression" and _text(parent.child_by_field_name("operator")) == "&&" \
            and child == parent.child_by_field_name("right") else None
        for test in (n for n in _conjuncts(holds) if n.type == "call_expression"):
            callee = test.child_by_field_name("function")
            method = _text(callee.child_by_field_name("property")) if callee is not None and \
                callee.type == "member_expression" else ""
            arguments = test.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
            if method == "test" and callee is not None and \
                    (regex := _regex(callee.child_by_field_name("object"), consts)) is not None:
                lead = _lead(regex)
                if lead is not None:
                    return lead[0]
            elif method == "startsWith" and (value := _constant(first, consts)) and (word := _WORD.match(value)):
                return frozenset({word.group(0)})
        child, parent = parent, parent.parent
    return None


def _conjuncts(condition: Node | None) -> Iterator[Node]:
    """The parts of `a && b && c` (each one holds when the whole does)."""
    stack = [condition]
    while stack:
        part = _unwrapped(stack.pop())
        if part is not None and part.type == "binary_expression" and \
                _text(part.child_by_field_name("operator")) == "&&":
            stack += [part.child_by_field_name("right"), part.child_by_field_name("left")]
        elif part is not None:
            yield part


def _regex(node: Node | None, consts: dict[str, Node]) -> Node | None:
    node = _unwrapped(node)
    if node is not None and node.type == "identifier" and _text(node) in consts:
        node = _unwrapped(consts[_text(node)])
    return node if node is not None and node.type == "regex" else None


def _anchored(function: Node, consts: dict[str, Node]) -> list[Anchored]:
    """The start-anchored regexes a hook tests: written in it, or in the constants it names (a
    list of rules at the top of the module)."""
    seen: set[tuple[int, int]] = set()
    named: set[str] = set()
    found = []
    stack: list[tuple[Node, int]] = [(function, 0)]
    while stack:
        node, depth = stack.pop()
        for inner in _walk(node):
            if inner.type == "identifier" and depth < 3 and _text(inner) in consts and _text(inner) not in named:
                named.add(_text(inner))
                stack.append((consts[_text(inner)], depth + 1))
            elif inner.type == "regex" and (inner.start_byte, inner.end_byte) not in seen:
                seen.add((inner.start_byte, inner.end_byte))
                lead = _lead(inner)
                call = inner.parent.parent if inner.parent is not None else None
                strips = call is not None and call.type == "call_expression" and _text(
                    call.child_by_field_name("function")).endswith((".replace", ".replaceAll"))
                if strips and _text(inner.child_by_field_name("pattern")).startswith("^"):
                    found.append(Anchored(lead[0] if lead else frozenset(), bool(lead and lead[1]), _place(inner), True))
                elif lead is not None and not strips:
                    found.append(Anchored(lead[0], lead[1], _place(inner)))
            elif inner.type == "call_expression" and depth == 0 and (word := _starts_with_word(inner, consts)):
                found.append(Anchored(frozenset({word}), False, _place(inner)))
    return sorted(found, key=lambda a: a.place)


def _starts_with_word(call: Node, consts: dict[str, Node]) -> str | None:
    """The first word of `value.startsWith("git push")` on a value that is not the tool's name
    (`input.tool.startsWith("mcp_")` picks tools): a test anchored at the start like `/^git push/`."""
    callee = call.child_by_field_name("function")
    if callee is None or callee.type != "member_expression" or _text(callee.child_by_field_name("property")) != "startsWith" \
            or _text(callee.child_by_field_name("object")).endswith(".tool"):
        return None
    arguments = call.child_by_field_name("arguments")
    value = _constant(arguments.named_children[0], consts) if arguments is not None and arguments.named_children else None
    word = _WORD.match(value) if value else None
    return word.group(0) if word is not None and value is not None and value[word.end():word.end() + 1] in ("", " ") \
        else None


_WORD = lazy(r"[A-Za-z0-9_.-]+")
_SPACES = lazy(r"^(?:\\s[*+?]?|\(\?:\\s[*+?]?\)[*+?]?| [*+?]?)*")
_LEADING_WORDS = lazy(r"^(?:\((?:\?:)?(?P<group>[A-Za-z0-9_|-]+)\)|(?P<word>[A-Za-z0-9_-]+))(?P<after>[?*{]?)")


def _lead(regex: Node) -> tuple[frozenset[str], bool] | None:
    """The words a start-anchored regex requires first (`^\\s*(git|gh)\\b`: git, gh), and whether it
    ignores case; None where it is not anchored or starts otherwise."""
    pattern = _text(regex.child_by_field_name("pattern"))
    flags = _text(regex.child_by_field_name("flags"))
    if not pattern.startswith("^") or "m" in flags:
        return None
    rest = pattern[1:]
    rest = rest[_SPACES.match(rest).end():]
    match = _LEADING_WORDS.match(rest)
    if match is None:
        return None
    if match.group("word") is not None:
        word = match.group("word")
        word = word[:-1] if match.group("after") else word  # (`gits?`: the s is optional)
        words = [word] if word else []
    else:
        if match.group("after") in ("?", "*"):
            return None
        words = match.group("group").split("|")
    return (frozenset(words), "i" in flags) if words and all(words) else None


# ---- what runs while opencode loads the plugin ---------------------------------------------------------

def _imports(root: Node, typescript: bool) -> Iterator[tuple[str, Place]]:
    """Each module the file imports at run time: not `import type`, nor (in TypeScript, whose
    imports of types only Bun drops) one whose names are used as types alone."""
    statements = [c for c in root.children if c.type in ("import_statement", "export_statement")
                  and (source := c.child_by_field_name("source")) is not None and source.type == "string"
                  and not any(part.type == "type" for part in c.children)]
    # the names used outside the imports as values (a type is a `type_identifier` to the TypeScript grammar)
    used = {_text(child) for n in _walk(root) if n.type not in ("import_specifier", "import_clause", "namespace_import")
            for child in n.children if child.type == "identifier"} if typescript else set()
    for statement in statements:
        clause = next((c for c in statement.named_children if c.type == "import_clause"), None)
        if typescript and clause is not None:
            names = {_text(n.child_by_field_name("alias") or n.child_by_field_name("name"))
                     for n in _walk(clause) if n.type == "import_specifier"}
            names |= {_text(n) for n in clause.named_children if n.type == "identifier"}
            names |= {_text(c) for n in clause.named_children if n.type == "namespace_import"
                      for c in n.named_children if c.type == "identifier"}
            if names and not names & used:
                continue  # (used as types only, or not at all: Bun drops the import)
        yield _unquoted(statement.child_by_field_name("source")) or "", _place(statement)


def _load_imports(root: Node, plugins: set[tuple[int, int]]) -> Iterator[tuple[str, Place]]:
    """`require("x")` and `await import("x")` run while the plugin loads: at the module's top level
    or in a plugin function outside its hooks, not in a try (Bun resolves both as an import)."""
    for body in _load_bodies(root, plugins):
        for node in _own_nodes(body):
            if node.type != "call_expression":
                continue
            callee = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
            if callee is not None and (callee.type == "import" or _text(callee) == "require") and \
                    first is not None and first.type == "string":
                yield _unquoted(first) or "", _place(node)


def _load_bodies(root: Node, plugins: set[tuple[int, int]]) -> list[Node]:
    """What runs while opencode loads the plugin: the module, and each plugin function (of both,
    what is not inside a function of its own: _own_nodes)."""
    return [root, *(n for n in _walk(root) if n.type in FUNCTIONS | {"method_definition"}
                    and (n.start_byte, n.end_byte) in plugins)]


# reads of a file by its path, each of which throws when the file is not there (node:fs, fs/promises)
SYNC_READS = frozenset({"readFileSync", "readdirSync", "statSync", "lstatSync", "openSync", "opendirSync",
                        "accessSync", "realpathSync"})
AWAITED_READS = frozenset({"readFile", "readdir", "stat", "lstat", "open", "access", "realpath"})


def _load_reads(root: Node, plugins: set[tuple[int, int]], consts: dict[str, Node]) -> Iterator[LoadRead]:
    """Files read by a relative path while the plugin loads: at the module's top level, or in a
    plugin function outside the hooks it returns; not in a try, nor of a path it tests with
    existsSync first."""
    tested = {_constant(arguments.named_children[0], consts) for n in _walk(root)
              if n.type == "call_expression" and _called(n) == "existsSync"
              and (arguments := n.child_by_field_name("arguments")) is not None and arguments.named_children}
    for body in _load_bodies(root, plugins):
        for node in _own_nodes(body):
            if node.type != "call_expression":
                continue
            name = _called(node)
            awaited = _awaited(node)
            bun_file = name == "file" and _text(node.child_by_field_name("function")) == "Bun.file" and awaited
            if name not in SYNC_READS and not (name in AWAITED_READS and awaited) and not bun_file:
                continue
            arguments = node.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
            path = _path_constant(first, consts)
            if path and path not in tested and not path.startswith(("/", "~", "file:")) and "${" not in path:
                yield LoadRead(path, _place(node), body is not root,
                               first is not None and any(_text(part) in WORKING_FOLDER for part in _walk(first)),
                               _parsed_as_json(node))


def _parsed_as_json(read: Node) -> bool:
    """`JSON.parse(readFileSync(...))`, `JSON.parse(await readFile(...))`, `await Bun.file(...).json()`."""
    parent = read.parent
    while parent is not None and parent.type in ("await_expression", "parenthesized_expression", "arguments"):
        parent = parent.parent
    if parent is not None and parent.type == "call_expression" and _text(parent.child_by_field_name("function")) == \
            "JSON.parse":
        return True
    member = read.parent
    return member is not None and member.type == "member_expression" and \
        _text(member.child_by_field_name("property")) == "json"


def _awaited(call: Node) -> bool:
    """`await call(...)`, or `await call(...).json()` (Bun.file's reads)."""
    node = call.parent
    while node is not None and node.type in ("member_expression", "call_expression", "parenthesized_expression"):
        node = node.parent
    return node is not None and node.type == "await_expression"


# what names the folder opencode works in, for a path joined to it: the working folder, and the
# plugin context's `directory` and `worktree` (the project, and its git root: the same folder for a
# session started at the root, docs/hosts/opencode.md#plugin-loading)
WORKING_FOLDER = frozenset({"process.cwd()", "directory", "worktree", "ctx.directory", "ctx.worktree",
                            "input.directory", "input.worktree", "context.directory", "context.worktree"})


def _path_constant(node: Node | None, consts: dict[str, Node]) -> str | None:
    """A path a read always gets, relative to opencode's working folder: a constant, or
    `join(...)`/`resolve(...)` of constants and of the working folder (`process.cwd()`, the
    plugin's `directory`), or a template that starts with that folder (`${directory}/policy.json`)."""
    node = _unwrapped(node)
    if node is not None and node.type == "template_string":
        substitutions = [c for c in node.children if c.type == "template_substitution"]
        if substitutions and _text(substitutions[0].named_children[0] if substitutions[0].named_children else None) \
                in WORKING_FOLDER and node.children[1] == substitutions[0]:
            rest = _template_after(node, substitutions[0], consts)
            return rest.lstrip("/") if rest else None
    if node is not None and node.type == "call_expression" and _called(node) in ("join", "resolve"):
        arguments = node.child_by_field_name("arguments")
        parts = [part for part in (arguments.named_children if arguments is not None else ())
                 if _text(part) not in WORKING_FOLDER]
        values = [value for part in parts if (value := _constant(part, consts))]
        return "/".join(v.strip("/") if i else v.rstrip("/") for i, v in enumerate(values)) \
            if parts and len(values) == len(parts) else None
    return _constant(node, consts)


def _template_after(template: Node, first: Node, consts: dict[str, Node]) -> str | None:
    """The constant text of a template after its first substitution (None: more that varies)."""
    return _template_text(template.children[template.children.index(first) + 1:], consts, 0)


def _template_text(children: list[Node], consts: dict[str, Node], depth: int) -> str | None:
    """The text of these parts of a template, each substitution a constant (None: one varies)."""
    parts = []
    for child in children:
        if child.type == "template_substitution":
            value = _constant(child.named_children[0] if child.named_children else None, consts, depth)
            if value is None:
                return None
            parts.append(value)
        elif child.type == "string_fragment":
            parts.append(_text(child))
    return "".join(parts)


def _called(call: Node) -> str:
    """The name a call calls: `readFileSync` of `readFileSync(...)` and of `fs.readFileSync(...)`."""
    callee = call.child_by_field_name("function")
    if callee is not None and callee.type == "member_expression":
        return _text(callee.child_by_field_name("property"))
    return _text(callee)


def _unreturned(root: Node, plugins: set[tuple[int, int]]) -> Iterator[tuple[str, Place, str]]:
    """Hook functions under a dotted key that opencode never gets: nested under another key of the
    object a plugin function returns (`{hooks: {"tool.execute.before": ...}}`), or in a plugin
    function with a body and no `return` at all (it returns undefined)."""
    silent = [n for n in _walk(root) if n.type in FUNCTIONS | {"method_definition"} and (n.start_byte, n.end_byte) in plugins
              and (body := n.child_by_field_name("body")) is not None and body.type == "statement_block"
              and not any(inner.type == "return_statement" for inner in _own_nodes(body))]
    for key, function, place in _hook_functions(root):
        if "." not in key or function is None:
            continue
        pair = function.parent if function.type != "method_definition" else function
        outer = pair.parent.parent if pair is not None and pair.parent is not None and pair.parent.type == "object" \
            else None
        if outer is not None and outer.type == "pair" and _returned_by(outer, plugins):
            outer_key = outer.child_by_field_name("key")
            yield key, place, (_unquoted(outer_key) or "" if outer_key is not None and outer_key.type == "string"
                               else _text(outer_key))
        elif any(_encloses(plugin, function) for plugin in silent):
            yield key, place, ""


# ---- hooks the returned object loses ---------------------------------------------------------------

class Twice(Record):
    """A hook key the object a plugin function returns holds twice: the later value replaces the
    earlier one, whose function opencode never gets."""
    key: str
    lost: Place  # the earlier key (or the spread, Object.assign source that brings it)
    kept: Place  # the later one
    guard: bool  # the lost function refuses calls (throws)


def _twice(root: Node, plugins: set[tuple[int, int]], consts: dict[str, Node],
           imported_hooks: frozenset[tuple[str, str, bool]] = frozenset()) -> Iterator[Twice]:
    """Hook keys given twice in what a plugin function returns: `{"a.b": f, "a.b": g}`, quoted,
    unquoted or computed alike; `{...x, ...y}` and `Object.assign({}, x, y)` where x and y (an
    object, another plugin function's hooks, `await Other(ctx)`) both hold the key. A later value
    that calls the earlier one (`base["tool.execute.before"](input, output)`) wraps it, and is left alone."""
    functions = _functions_by_name(root)
    # another module's plugin function: its keys, each with the module's root for a guard (it throws)
    elsewhere: dict[str, list[tuple[str, Node | None]]] = {}
    for name, key, guard in sorted(imported_hooks):
        elsewhere.setdefault(name, []).append((key, root if guard else None))
    for node in _walk(root):
        if node.type == "object" and node.named_children and _returned_by(node.named_children[0], plugins):
            parts = [(member, _members(member, consts, functions, elsewhere=elsewhere)) for member in node.named_children]
        elif node.type == "call_expression" and _text(node.child_by_field_name("function")) == "Object.assign" \
                and _returned_call(node, plugins) and (arguments := node.child_by_field_name("arguments")) is not None:
            parts = [(source, _members(source, consts, functions, spread=True, elsewhere=elsewhere))
                     for source in arguments.named_children]
        else:
            continue
        seen: dict[str, tuple[Node, Node | None]] = {}
        for where, members in parts:
            for key, value in members:
                if "." not in key and key not in ("event", "tool", "config", "auth"):
                    continue
                earlier = seen.get(key)
                if earlier is not None and not (value is not None and _calls_the_earlier(value, key)):
                    lost = earlier[1]
                    yield Twice(key, _place(earlier[0]), _place(where), lost is not None and (
                        lost.type == "program" or lost.type in FUNCTIONS | {"method_definition"}
                        and bool(_throw_nodes(lost))))
                seen[key] = (where, value)


def _returned_call(call: Node, plugins: set[tuple[int, int]]) -> bool:
    """The call is what a plugin function returns (`=> Object.assign(...)`, `return Object.assign(...)`)."""
    parent = call.parent
    while parent is not None and parent.type in WRAPPING | {"await_expression"}:
        parent = parent.parent
    function = parent if parent is not None and parent.type == "arrow_function" else None
    if parent is not None and parent.type == "return_statement":
        function = parent.parent
        while function is not None and function.type not in FUNCTIONS | {"method_definition"}:
            function = function.parent
    return function is not None and (function.start_byte, function.end_byte) in plugins


def _members(member: Node, consts: dict[str, Node], functions: dict[str, Node], spread: bool = False,
             depth: int = 0, elsewhere: dict[str, list[tuple[str, Node | None]]] | None = None
             ) -> list[tuple[str, Node | None]]:
    """(key, value) of an object's member: a pair or a method gives one; a spread (or, `spread`, a
    source of Object.assign) gives the keys of the object it spreads, where that can be read."""
    if member.type == "pair":
        key = member.child_by_field_name("key")
        name = _unquoted(key) if key is not None and key.type == "string" else \
            _constant(key.named_children[0], consts) if key is not None and key.type == "computed_property_name" \
            and key.named_children else _text(key)
        return [(name, member.child_by_field_name("value"))] if name else []
    if member.type == "method_definition":
        key = member.child_by_field_name("name")
        name = _unquoted(key) if key is not None and key.type == "string" else _text(key)
        return [(name, member)] if name else []
    if member.type == "spread_element" or spread:
        value = member.named_children[0] if member.type == "spread_element" and member.named_children else member
        return _object_members(value, consts, functions, depth, elsewhere or {})
    return []


def _object_members(value: Node | None, consts: dict[str, Node], functions: dict[str, Node],
                    depth: int, elsewhere: dict[str, list[tuple[str, Node | None]]]) -> list[tuple[str, Node | None]]:
    """The members of the object a value is: a literal, a `const` naming one, or what a plugin
    function of the module (or, `elsewhere`, of another module of the plugin's) returns (`await
    Guard(ctx)`, `Guard(ctx)`)."""
    value = _unwrapped(value)
    if value is not None and value.type == "await_expression" and value.named_children:
        value = _unwrapped(value.named_children[0])
    if value is None or depth > 3:
        return []
    if value.type == "identifier":
        named = consts.get(_text(value))
        return _object_members(named, consts, functions, depth + 1, elsewhere) if named is not None else []
    if value.type == "call_expression":
        name = _text(value.child_by_field_name("function"))
        called = functions.get(name)
        returned = _returned_object(called) if called is not None else None
        return _object_members(returned, consts, functions, depth + 1, elsewhere) if returned is not None \
            else elsewhere.get(name, [])
    if value.type == "object":
        return [found for member in value.named_children for found in _members(member, consts, functions,
                                                                                 depth=depth + 1, elsewhere=elsewhere)]
    return []


def _returned_object(function: Node) -> Node | None:
    """The object literal a function returns: `=> ({...})`, or its one `return {...}`."""
    body = function.child_by_field_name("body")
    body = _unwrapped(body)
    if body is not None and body.type == "object":
        return body
    returns = [n for n in _own_nodes(body) if n.type == "return_statement"] if body is not None else []
    values = [_unwrapped(r.named_children[0]) for r in returns if r.named_children]
    objects = [v for v in values if v is not None and v.type == "object"]
    return objects[0] if len(objects) == 1 else None


def _functions_by_name(root: Node) -> dict[str, Node]:
    """The module's functions by the name a call gives them: `function check() {}`, `const check =
    () => {}` (at any depth: a plugin's helpers live inside it too), and `lib.check` for a function
    in an object a `const` names (`const lib = { check(cmd) {...} }`), and `policy.check` for a method
    of a class of the module that `policy` is made from (`const policy = new Policy()`)."""
    found: dict[str, Node] = {}
    classes = {_name(n): n for n in _walk(root) if n.type in CLASSES and n.child_by_field_name("name") is not None}
    for node in _walk(root):
        if node.type in ("function_declaration", "generator_function_declaration"):
            found.setdefault(_name(node), node)
        elif node.type == "variable_declarator":
            name, value = _text(node.child_by_field_name("name")), _unwrapped(node.child_by_field_name("value"))
            if value is not None and value.type in FUNCTIONS:
                found.setdefault(name, value)
            elif value is not None and value.type == "new_expression" and \
                    (made := classes.get(_text(value.child_by_field_name("constructor")))) is not None:
                body = made.child_by_field_name("body")  # (`const policy = new Policy()`: policy.check)
                for method in (m for m in (body.named_children if body is not None else []) if m.type == "method_definition"):
                    found.setdefault(f"{name}.{_text(method.child_by_field_name('name'))}", method)
            elif value is not None and value.type == "object":
                for member in value.named_children:
                    inner = member.child_by_field_name("value") if member.type == "pair" else member
                    key = member.child_by_field_name("key" if member.type == "pair" else "name")
                    if inner is not None and inner.type in FUNCTIONS | {"method_definition"} and key is not None:
                        found.setdefault(f"{name}.{_unquoted(key) or _text(key)}", inner)
    return found


def _calls_the_earlier(value: Node, key: str) -> bool:
    """The later hook calls the one it replaces (`base["tool.execute.before"]?.(input, output)`)."""
    return value.type in FUNCTIONS | {"method_definition"} and any(
        n.type == "subscript_expression" and _unquoted(n.child_by_field_name("index")) == key for n in _walk(value))


# ---- refusals written in another protocol ------------------------------------------------------------

# what other hooks and hosts refuse with: permission.ask's `output.status = "deny"`, Claude Code's and
# Codex's answer fields, and the words a guard names its verdict by (`output.block = true`)
ANSWER_FIELDS = frozenset({"status", "block", "blocked", "abort", "aborted", "deny", "denied", "decision",
                           "permissionDecision", "permissionDecisionReason", "permission", "allow", "allowed",
                           "cancel", "cancelled", "canceled", "reason", "hookSpecificOutput", "continue", "stopReason",
                           "error", "reject", "rejected", "skip", "approved"})
PRINTS = frozenset({"console.log", "console.info", "process.stdout.write", "console.error", "process.stderr.write"})


class Unread(Record):
    """A refusal tool.execute.before writes where opencode never reads it: a field of `output` but
    `args` (`output.status = "deny"`), `process.exitCode`, or an answer printed in Claude Code's
    JSON; with no throw beside it, the call runs."""
    what: str  # "field", "exit" or "printed"
    name: str  # the field as written (output.status...), or the printed key (permissionDecision...)
    place: Place


def _unread_refusals(function: Node, params: dict[str, str]) -> list[Unread]:
    """The refusals a tool.execute.before writes where opencode does not look (its `trigger` awaits
    each hook with `(input, {args})` and reads back `args` alone: docs/hosts/opencode.md#blocking),
    in a block that does not throw too."""
    output = params.get("output")
    found, blocks = [], set()
    for node in _own_nodes(function):
        unread: Unread | None = None
        if node.type in ("assignment_expression", "augmented_assignment_expression"):
            left = node.child_by_field_name("left")
            target = field = ""
            if left is not None and left.type in ("member_expression", "subscript_expression"):
                target = _text(left.child_by_field_name("object"))
                field = _text(left.child_by_field_name("property")) if left.type == "member_expression" \
                    else _unquoted(left.child_by_field_name("index")) or ""
            if target and target in (output, params.get("input")) and field in ANSWER_FIELDS:
                unread = Unread("field", f"{target}.{field}", _place(node))
            elif target == "process" and field == "exitCode":
                unread = Unread("exit", field, _place(node))
        elif node.type == "call_expression":
            called = _text(node.child_by_field_name("function"))
            arguments = node.child_by_field_name("arguments")
            values = arguments.named_children if arguments is not None else []
            if called == "Object.assign" and output and values and _text(values[0]) == output:
                fields = [key for source in values[1:] for key in _object_keys(source) if key in ANSWER_FIELDS]
                unread = Unread("field", f"{output}.{fields[0]}", _place(node)) if fields else None
            elif called in PRINTS and values:
                printed = [_unquoted(n.child_by_field_name("key")) or _text(n.child_by_field_name("key"))
                           for n in _walk(values[0]) if n.type == "pair"]
                keys = [key for key in printed if key in ("permissionDecision", "decision", "hookSpecificOutput")]
                unread = Unread("printed", keys[0], _place(node)) if keys else None
        block = _block_of(node) if unread is not None else None
        if unread is not None and block is not None and not _refuses(block) and block.start_byte not in blocks:
            blocks.add(block.start_byte)  # (one finding a block: `output.status = "deny"; output.reason = ...`)
            found.append(unread)
    return found


def _block_of(node: Node) -> Node:
    """The block (or the branch of an if without braces) a node's statement is in."""
    parent = node.parent
    while parent is not None and parent.type not in ("statement_block", "if_statement", "else_clause",
                                                      "switch_case", "program"):
        parent = parent.parent
    return parent if parent is not None else node


# ---- paths compared as the model never sends them ----------------------------------------------------

# the arguments opencode's tools take as an absolute path: read, write and edit's schemas in the
# 1.18.33 binary ("The absolute path to the file to write (must be absolute, not relative)"); lsp's
# takes either, and glob's and grep's `path` is a folder that may be relative
ABSOLUTE_ARGUMENTS = frozenset({"filePath"})
# what a hook does to a path that makes its own comparisons fit either form: relative to the project,
# its last part, the project's folder cut off
PATH_FITTING = frozenset({"relative", "basename", "replace", "replaceAll", "slice", "substring", "substr",
                          "split", "normalize", "toRelative", "matchesGlob", "minimatch", "isMatch", "micromatch",
                          "picomatch", "match", "test", "resolve", "fileURLToPath", "realpathSync"})


SUBSTRING_TESTS = frozenset({"endsWith", "includes", "indexOf", "lastIndexOf", "search"})


class RelativeTest(Record):
    """A test of an absolute path argument against relative names (`filePath === "src/a.ts"`,
    `PROTECTED.has(filePath)` with `.env` in it, `filePath.startsWith(".env")`): never true."""
    argument: str
    written: str  # the first relative name it is compared with
    place: Place


def _relative_tests(function: Node, params: dict[str, str], consts: dict[str, Node]) -> list[RelativeTest]:
    """The hook's tests of an absolute path argument (ABSOLUTE_ARGUMENTS) against relative names, in a
    hook that never fits the path to them (path.relative, basename, endsWith...: PATH_FITTING)."""
    is_args, _ = _args_test(function, params)
    names: dict[str, str] = {}

    def argument(node: Node | None) -> str | None:
        node = _unwrapped(node)
        if node is not None and node.type == "call_expression" and _text(node.child_by_field_name("function")) == "String":
            arguments = node.child_by_field_name("arguments")
            node = _unwrapped(arguments.named_children[0]) if arguments is not None and arguments.named_children else None
        if node is not None and node.type == "binary_expression" and _text(node.child_by_field_name("operator")) in (
                "??", "||"):
            node = _unwrapped(node.child_by_field_name("left"))
        if node is None:
            return None
        if node.type == "member_expression" and is_args(node.child_by_field_name("object")):
            key = _text(node.child_by_field_name("property"))
        elif node.type == "subscript_expression" and is_args(node.child_by_field_name("object")):
            key = _unquoted(node.child_by_field_name("index")) or ""
        else:
            return names.get(_text(node)) if node.type == "identifier" else None
        return key if key in ABSOLUTE_ARGUMENTS else None

    for node in _walk(function):  # the names a path argument is given (`const file = output.args.filePath`)
        if node.type != "variable_declarator":
            continue
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is not None and name.type == "identifier" and (bound := argument(value)) is not None:
            names[_text(name)] = bound
        elif name is not None and name.type == "object_pattern" and is_args(value):
            for part in name.named_children:
                written, _, local = _text(part).split("=")[0].partition(":")
                if written.strip() in ABSOLUTE_ARGUMENTS:
                    names[(local or written).strip()] = written.strip()
    found = []
    for node in _walk(function):  # (a hook that fits the path to its names somewhere: its tests are left alone)
        callee = node.child_by_field_name("function") if node.type == "call_expression" else None
        if callee is None:
            continue
        on_path = callee.type == "member_expression" and argument(callee.child_by_field_name("object")) is not None
        if on_path and _called(node) in SUBSTRING_TESTS or _called(node) in PATH_FITTING and any(
                argument(n) is not None for n in _walk(node)):
            return []
    for node in _walk(function):
        tested: list[tuple[str, Node]] | None = None
        key: str | None = None
        if node.type == "binary_expression" and _text(node.child_by_field_name("operator")) in EQUAL | UNEQUAL:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            for path, other in ((left, right), (right, left)):
                literal = _constant(other, consts)
                if (key := argument(path)) is not None and literal is not None:
                    tested = [(literal, node)]
                    break
        elif node.type == "call_expression" and (callee := node.child_by_field_name("function")) is not None \
                and callee.type == "member_expression":
            method = _text(callee.child_by_field_name("property"))
            arguments = node.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
            if method in ("has", "includes") and (key := argument(first)) is not None:
                tested = _strings(callee.child_by_field_name("object"), consts)
            elif method == "startsWith" and (key := argument(callee.child_by_field_name("object"))) is not None:
                prefix = _constant(first, consts)
                tested = [(prefix, node)] if prefix is not None else None
        elif node.type == "switch_statement" and (key := argument(node.child_by_field_name("value"))) is not None:
            tested = [(label, case) for case in _walk(node) if case.type == "switch_case"
                      and (label := _constant(case.child_by_field_name("value"), consts)) is not None] or None
        if key is None or not tested or not all(_relative_name(value) for value, _ in tested):
            continue
        found.append(RelativeTest(key, tested[0][0], _place(node)))
    return found


def _relative_name(value: str) -> bool:
    """A name that is no absolute path and no pattern: `src/secrets.ts`, `.env`, `./config.json`."""
    return bool(value) and not value.startswith(("/", "~", "\\\\")) and "*" not in value and "$" not in value \
        and not (len(value) > 1 and value[1] == ":")



# ---- the plugin's own modules ------------------------------------------------------------------------

def local_imports(path: Path, source: bytes) -> dict[str, tuple[str, str]]:
    """The names the plugin binds from its own modules (a relative import): local name -> (module
    as written, the name it exports; "*" for a namespace, whose members are `ns.name`)."""
    root = _parser(path.suffix.lower() in (".ts", ".mts", ".cts")).parse(source).root_node
    found: dict[str, tuple[str, str]] = {}
    for statement in (c for c in root.children if c.type == "import_statement"):
        module = _unquoted(statement.child_by_field_name("source")) or ""
        clause = next((c for c in statement.named_children if c.type == "import_clause"), None)
        if not module.startswith(("./", "../")) or clause is None:
            continue
        for node in _walk(clause):
            if node.type == "import_specifier":
                name = _text(node.child_by_field_name("name"))
                found[_text(node.child_by_field_name("alias") or node.child_by_field_name("name"))] = (module, name)
            elif node.type == "namespace_import":
                found.update({_text(c): (module, "*") for c in node.named_children if c.type == "identifier"})
        found.update({_text(n): (module, "default") for n in clause.named_children if n.type == "identifier"})
    return found


def throwing_exports(path: Path, source: bytes) -> frozenset[str]:
    """The functions a module of the plugin's own exports that throw where their caller can catch
    it (a throw of their own, or of a function of the module they call): `export function check`,
    `export const check = () => ...`, `export { check as verify }`."""
    root = _parser(path.suffix.lower() in (".ts", ".mts", ".cts")).parse(source).root_node
    functions = _functions_by_name(root)
    exported: dict[str, str] = {}  # exported name -> local name
    for statement in (c for c in root.children if c.type == "export_statement"):
        declaration = statement.child_by_field_name("declaration")
        if declaration is not None and declaration.type in FUNCTIONS:
            exported[_name(declaration)] = _name(declaration)
        elif declaration is not None:
            exported.update({_name(d): _name(d) for d in declaration.named_children if d.type == "variable_declarator"})
        for specifier in (n for n in _walk(statement) if n.type == "export_specifier"):
            local = _text(specifier.child_by_field_name("name"))
            exported[_text(specifier.child_by_field_name("alias") or specifier.child_by_field_name("name"))] = local
    throwing = set()
    for name, local in exported.items():
        function = functions.get(local)
        if function is None or function.type not in FUNCTIONS | {"method_definition"}:
            continue
        if _throw_nodes(function) or any(n.type == "call_expression" and _thrown_by_call(n, functions, 1) is not None
                                         for n in _own_nodes(function)):
            throwing.add(name)
    return frozenset(throwing)



def plugin_hooks(path: Path, source: bytes) -> frozenset[tuple[str, str, bool]]:
    """(export, hook key, whether its function throws) of each plugin function a module of the
    plugin's own exports by name and whose returned object can be read: a plugin that merges two of
    them (`{...(await Guard(ctx)), ...(await Audit(ctx))}`) keeps one function per key."""
    root = _parser(path.suffix.lower() in (".ts", ".mts", ".cts")).parse(source).root_node
    declared = _top_level_values(root)
    found = set()
    for statement in (c for c in root.children if c.type == "export_statement"):
        declaration = statement.child_by_field_name("declaration")
        named = [(_name(declaration), declaration)] if declaration is not None and declaration.type in FUNCTIONS else \
            [(_name(d), d.child_by_field_name("value")) for d in declaration.named_children
             if d.type == "variable_declarator"] if declaration is not None else \
            [(_text(n.child_by_field_name("alias") or n.child_by_field_name("name")),
              declared.get(_text(n.child_by_field_name("name")))) for n in _walk(statement) if n.type == "export_specifier"]
        for name, function in named:
            function = _unwrapped(function)
            returned = _returned_object(function) if function is not None and function.type in FUNCTIONS else None
            for member in returned.named_children if returned is not None else ():
                for key, value in _members(member, {}, {}):
                    if "." in key or key == "event":
                        found.add((name, key, value is not None and value.type in FUNCTIONS | {"method_definition"}
                                   and bool(_throw_nodes(value))))
    return frozenset(found)

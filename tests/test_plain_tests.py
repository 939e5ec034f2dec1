"""The plain tests that stand for a regex doctor used to compile: each answers as the pattern it
replaced (written out here) on texts made of the pattern's own pieces and of characters around
them, so that a change to either is caught. (A compile is 0.2 to 1.6 M instructions of doctor
on a typical file: docs/contributing.md.)"""
import re
from pathlib import Path

from hookwright.doctor.checks.commands import _positional, written_bare
from hookwright.doctor.checks.matchers import _glob_of_names, _miscased_mcp
from hookwright.doctor.checks.scripts.answers import input_field_reads
from hookwright.doctor.checks.scripts.script_files import sh_shebang
from hookwright.doctor.checks.scripts.units import INLINE_TEXTS, INLINE_WORDS
from hookwright.doctor.checks.structure.settings import _parses_as_permission_rule, _plain_rule
from hookwright.doctor.scripts.flow import raw_flag
from hookwright.doctor.scripts.keys import _statement_end, with_own_folder
from hookwright.doctor.scripts.shell_status import _names_a_child
from hookwright.doctor.shell.resolve import _portable, python_name
from hookwright.hooks.regex import _compiles, classify, named_servers
from hookwright.hosts.base import runtime_parts
from hookwright.patterns import holds_word
from hookwright.valid import _class_escape
from hypothesis import example, given, settings
from hypothesis import strategies as st

# pieces a text is made of: the patterns' own words and marks, blanks, and characters a
# regex's classes tell apart (a digit of another script, a letter of another script, `_`, `-`)
MARKS = ["$", "{", "}", "(", ")", "\\", "/", ".", "..", "-", "--", "_", " ", "\t", "\n", "&&", "||", ";", "|", ",",
         "@", "*", "+", "=", "%", "1", "2", "9", "0", "٣", "é", "x", "Z", "#!", "exe", "\u00b2"]


def _texts(*words: str, size: int = 8) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(MARKS + list(words)), max_size=size).map("".join)


@settings(max_examples=600)
@given(_texts(*INLINE_WORDS, *INLINE_TEXTS, "jqx", "xjq", "settle", "echo_"))
@example("cat >/dev/null")
@example("npx prettier")
def test_the_inline_command_signs_are_found_as_their_regex_found_them(text):
    regex = re.compile(r"\b(?:jq|cat|read|echo|printf|exit|set|tee)\b|updated|continue|decision|permission|"
                       r"behavior|tool_response|hookSpecificOutput|stop_hook_active")
    plain = any(map(text.__contains__, INLINE_TEXTS)) or holds_word(text, INLINE_WORDS)
    assert plain == bool(regex.search(text))


def test_a_word_character_is_one_the_regex_engine_calls_one_in_every_script():
    word = re.compile(r"\w")
    for code in range(0, 0x30000, 7):
        character = chr(code)
        assert holds_word(f"a{character}", ("a",)) == (word.match(character) is None), hex(code)


@settings(max_examples=400)
@given(_texts("-r", "-j", "rc", "raw-output", "join-output", "R"))
@example("--raw-output0\n")
@example("-r\n\n")
def test_a_raw_flag_of_jq_is_told_as_its_regex_told_it(word):
    regex = re.compile(r"-[a-zA-Z]*[rj][a-zA-Z]*$|--raw-output0?$|--join-output$")
    assert raw_flag(word) == bool(regex.match(word))


@settings(max_examples=400)
@given(_texts("python", "pypy", "3", "12", ".exe", size=6))
@example("python3.12.exe")
@example("python.exe\n")
@example("pypy3.")
def test_a_name_of_python_is_told_as_its_regex_told_it(name):
    regex = re.compile(r"(?:python|pypy)(?:\d+(?:\.\d+)?)?(?:\.exe)?$")
    assert python_name(name) == bool(regex.match(name))


@settings(max_examples=400)
@given(_texts("#!", "/usr", "/bin/", "env", "sh", "dash", "bash", size=7))
@example("#! /usr/bin/env  dash -e")
@example("#!/bin/sh\n")
@example("#!/bin/env shell")
def test_a_shebang_that_runs_sh_is_told_as_its_regex_told_it(line):
    match = re.compile(r"#![ \t]*(?:/usr)?/bin/(?:env[ \t]+)?(?:sh|dash)(?=[ \t]|$)").match(line)
    assert sh_shebang(line) == (match.group()[2:].strip() if match else None)


@settings(max_examples=400)
@given(_texts("$1", "${", "${1}", "$@", "${10}", size=6))
@example("echo ${3} $4")
def test_a_positional_parameter_is_found_as_its_regex_found_it(text):
    match = re.compile(r"\$(?:\{[1-9]\}|[1-9@*])").search(text)
    assert _positional(text) == (match.group(0) if match else None)


@settings(max_examples=600)
@given(st.sampled_from(["TOOL_INPUT", "CLAUDE_FILE_PATH", "FILE_PATH"]),
       _texts("TOOL_INPUT", "CLAUDE_FILE_PATH", "FILE_PATH", "FILE_PATHS", "=", "read ", "export ", "${", size=6))
@example("FILE_PATH", "CLAUDE_FILE_PATH=x; echo $FILE_PATH")
@example("FILE_PATH", "read FILE_PATH")
def test_a_variable_written_bare_is_found_as_its_regex_found_it(name, text):
    regex = re.compile(rf"(?<![\w${{]){name}(?!\w)")
    assert written_bare(name, text) == bool(regex.search(text))


@settings(max_examples=400)
@given(_texts("$x", "$A", "${", "$?", "$$", size=6))
def test_a_child_named_by_a_variable_is_found_as_its_regex_found_it(code):
    assert _names_a_child(code) == bool(re.compile(r"\$[{@*1-9A-Za-z_]").search(code))


@settings(max_examples=400)
@given(_texts("Bash", "mcp__", "mcp__x", "Read", "(", "\\(", "a-b", size=6))
@example("Bash(npm run test *)")
@example("mcp__server__tool")
@example("Bash()")
def test_a_plain_permission_rule_is_told_as_its_regex_told_it(rule):
    regex = re.compile(r"mcp__[^(]*|[A-Za-z_][\w-]*(?:\([^()\\]+\))?")
    assert _plain_rule(rule) == bool(regex.fullmatch(rule))


@settings(max_examples=400)
@given(_texts("/home", "/", "/.", "/..", "/...", "a b", size=6))
@example("/home/user/project")
@example("/a/../b")
@example("/..\n")
def test_a_portable_project_folder_is_told_as_its_regex_told_it(folder):
    regex = re.compile(r"(?:/(?!\.\.?(?:/|$))[A-Za-z0-9_+,.@%=-]+)+")
    assert _portable(folder) == bool(regex.fullmatch(folder))


@settings(max_examples=400)
@given(_texts("exec", "python3 x", "&&", size=8), st.integers(0, 12))
def test_a_statement_ends_where_its_regex_said(code, start):
    start = min(start, len(code))
    assert _statement_end(code, start) == re.compile(r"&&|\|\||;|\n|$").search(code, start).start()


@settings(max_examples=300)
@given(_texts("tmp", "hooks", size=6))
def test_a_folder_is_written_into_a_command_where_its_regex_let_it(folder):
    script = Path(folder) / "x.sh"
    plain = re.compile(r"[\w./+-]+").fullmatch(str(script.parent)) is not None
    assert (with_own_folder("echo hi", script) is not None) == plain


@settings(max_examples=400)
@given(_texts("Bash", "Edit", "Write", "mcp__x", "*", size=8))
@example("Edit|Write")
@example(" Bash , Edit |")
@example("Bash Edit|| Write")
def test_a_matcher_of_exact_names_is_told_and_split_as_its_regexes_did(matcher):
    for event, exact in (("PreToolUse", r"[A-Za-z0-9_|, \t-]*"), ("FileChanged", r"[A-Za-z0-9_|]*")):
        found = classify(matcher, event)
        if matcher.strip() in ("", "*"):
            assert found.kind == "all"
            continue
        assert (found.kind == "exact") == bool(re.fullmatch(exact, matcher))
        if found.kind == "exact":
            assert found.names == tuple(n for n in re.split(r"\s*[|,]\s*", matcher.strip()) if n)


def _runtime_commands() -> st.SearchStrategy[str]:
    """Commands near ours: each piece of `python3 -I -S <...>/hookwright/<pack>/<script> --host <host>`
    right or a little wrong, once or twice."""
    piece = st.tuples(*(st.sampled_from(choices) for choices in (
        ["", "$HOME/", '"$CLAUDE_PROJECT_DIR"/.claude/', "hookwright/", "a b", "\n", "'"],
        ["hookwright", "hookwright-local", "hookwrigh", "hookwright-locall"], ["/", "", "//"],
        ["git-guard", "a", "a9-", "A", "", "9a", "-a", "ab/c"], ["/", "", "x"], ["git-guard", "a", "A", "", "9a"],
        ["", "'", '"', "''"], [" --host claude", " --host claudex", "  --host claude", " --host codex", ""],
        ["", " ", "\n", "x", " --option a=1", "\u00a0z", "\t"]))).map("".join)
    return st.tuples(st.sampled_from(["python3", "/usr/bin/python3", "'/a b/python3'", "/", "'/x", "python3.11", "/a'b",
                                      "/a\u00a0b", "'/'", "x"]),
                     st.sampled_from([" -I -S ", " -I -S", " -I  -S "]),
                     st.lists(piece, min_size=1, max_size=2).map("".join)).map("".join)


@settings(max_examples=1500)
@given(_runtime_commands())
@example("python3 -I -S \"$CLAUDE_PROJECT_DIR\"/.claude/hookwright/git-guard/git-guard --host claude")
@example("'/home/a b/python3' -I -S '/home/a b/.claude/hookwright-local/git-guard/git-guard' --host claude --option x=1")
@example("python3 -I -S /p/hookwright/a/b --host claude /q/hookwright/c/d --host claude")
@example("/ -I -S /hookwright/a/b --host claude")
def test_a_runtime_command_of_ours_is_read_as_its_regex_read_it(command):
    for host in ("claude", "codex"):
        match = re.compile(r"""^(?P<python>python3|/[^\s'"]+|'/[^']*') -I -S .*hookwright(?:-local)?/"""
                           r"""(?P<pack>[a-z][a-z0-9-]*)/(?P<script>[a-z][a-z0-9-]*)['"]?"""
                           rf""" --host {host}(?:\s|$)""", re.DOTALL).match(command)
        assert runtime_parts(command, host) == (match.group("python", "pack", "script") if match else None)


@settings(max_examples=600)
@given(_texts("if", "fi", "elif", "case", "esac", ";;", "done", "file", "-if", "if-", "function f", "f", "()", "( )",
              "$(x)", "a)", "a|b)", "(a", size=10))
@example('npx prettier --write "$(jq -r .tool_input.file_path)"')
@example("foo () {")
@example("  a|b) echo x ;;")
def test_a_line_the_str_tests_pass_over_holds_nothing_the_shell_patterns_find(line):
    from hookwright.doctor.scripts import flow

    stripped = line.strip()
    if not flow._opens_or_closes(stripped):
        assert flow.SH_BLOCK_WORD.findall(stripped) == []
    if "function" not in line and not flow._empty_parentheses(line):
        assert flow.SH_FUNCTION.match(line) is None
    if not flow._closes_before_a_blank(line):
        assert flow.CASE_ARM.match(line) is None


@settings(max_examples=400)
@given(_texts("-n", "-e", "-E", "-nE", "-x", "-", "hi", '"a"', size=8))
@example("-n -e  hello")
@example("-n")
def test_an_echo_loses_its_flags_as_its_regex_took_them(rest):
    from hookwright.doctor.scripts.flow import _without_echo_flags

    assert _without_echo_flags(rest).strip() == re.compile(r"^\s*(?:-[neE]+\s+)*").sub("", rest).strip()


@settings(max_examples=400)
@given(_texts("if", "-if", "if-", "fi", ";;", "a;;", ";;b", size=8))
def test_a_block_word_with_a_dash_around_it_is_no_word(text):
    found = re.compile(r"(?<![\w-])(if|elif|else|fi|case|esac|;;)(?![\w-])").search(text) is not None
    assert holds_word(text, ("if", "elif", "else", "fi", "case", "esac", ";;"), also="-") == found


@settings(max_examples=500)
@given(_texts(">", ">>", "&>", ">&", "2", ">|", "&", "/dev/null", "log", "٣", size=6))
@example("echo done >> /tmp/claude-stop.log")
@example("x &>  ")
def test_a_redirection_is_read_as_its_regexes_read_it(text):
    from hookwright.doctor.scripts.flow import _redirection_end, _sent_elsewhere

    assert _sent_elsewhere(text) == bool(re.compile(r""">&\s*2|\d?>\s*\S|&>""").search(text))
    match = re.compile(r"\d*(?:>>?|&>>?|>&|>\|)").match(text)
    assert _redirection_end(text) == (match.end() if match else None)


@settings(max_examples=600)
@given(_texts("<", ">", ">>", "<<<", "<&", ">&", "<>", ">|", "&", "&&", "2", "10", "٣", size=6), st.integers(0, 6))
@example("echo done >> /tmp/claude-stop.log", 10)
@example("2٣>&1", 0)
@example("&<<<x", 0)
def test_a_redirection_the_lexer_reads_ends_where_its_regex_said(text, start):
    from hookwright.doctor.shell.lex import redirect_end

    start = min(start, len(text))
    match = re.compile(r"(?:\d+|&)?(?:>>|>&|<&|<<<|<>|>\||>|<)").match(text, start)
    assert redirect_end(text, start) == (match.end() if match else -1)


def test_a_decimal_digit_is_one_the_regex_engine_calls_one_in_every_script():
    digit = re.compile(r"\d")
    for code in range(0, 0x30000, 3):
        character = chr(code)
        assert character.isdecimal() == (digit.match(character) is not None), hex(code)



@settings(max_examples=1500)
@given(_texts("tool_input", "tool_input", ".get(", "?.", "[", "]", "'", '"', "or", " or ", "cmd", "get", "?", "|", ",",
              "\u2003", "\u00a0", "ortool_input", "_tool_input", size=14))
@example("npx prettier --write \"$(jq -r .tool_input.file_path)\"")
@example("data.get('tool_input', {}).get( 'command') or tool_input ['x'] tool_input or .y")
@example("tool_input" + " " * 12 + ".x tool_input" + " " * 13 + ".y tool_input" + " or" * 6 + ".z")
@example("tool_input.get(x).y tool_input.get(\"\") tool_input?.a tool_input['' tool_inputs.x")
def test_a_read_of_a_tool_input_field_is_found_as_its_regex_found_it(text):
    regex = re.compile(r"tool_input\b(?:[\s\"'()\[\]{},|?]|\bor\b){0,12}?(?:\.get\(\s*['\"]|\?\.|\.|\[\s*['\"])"
                       r"(?P<field>\w+)\b")
    assert list(input_field_reads(text)) == [(m.start("field"), m["field"]) for m in regex.finditer(text)]


@settings(max_examples=800)
@given(_texts("'", '"', "`", "~", "#", "=", "?", "[", "<", ">", "\r", "\u00a0", "a=b", "x.sh", size=8),
       st.integers(0, 4))
@example("echo done >> /tmp/claude-stop.log", 5)
@example("a\r", 0)
@example("ab\n", 0)
def test_a_simple_word_is_read_as_its_former_regex_read_it(text, start):
    from hookwright.doctor.shell.lex import _SIMPLE_WORD

    start = min(start, len(text))
    former = re.compile(r"""[^\s'"\\$`;&|()<>~#=*?\[][^\s'"\\$`;&|()<>=*?\[]*(?=[ \t\n;&|()<>]|$)""").match(text, start)
    match = _SIMPLE_WORD.match(text, start)
    assert (match and match.group()) == (former and former.group())


@settings(max_examples=3000)
@given(_texts("tool_input", "tool_input", ".", ".get(", "[", "]", "'", '"', ")", "=", "==", ";", "||", "??", "or",
              " or", "ortool_input", "const ", "ti", ": str", " ", "\n", "\u2003", size=14))
@example('ti = data.get("tool_input", {})')
@example("const ti = input.tool_input ?? {}")
@example("x = d[ 'tool_input' ]\n  or {}")
@example("let ti: Record<string, any> = input.tool_input || {}")
@example("ti = payload.tool_input")
@example('cmd=$(jq -r ".tool_input.command"); ti = e.get("tool_input", x=1); y')
def test_a_text_the_tool_input_binding_test_passes_over_holds_nothing_its_pattern_finds(text):
    from hookwright.doctor.checks.scripts import answers

    pattern = re.compile(answers._INPUT_VARIABLE.pattern, re.M)
    if not answers._may_bind_input(text):
        assert pattern.search(text) is None


@settings(max_examples=1500)
@given(st.lists(st.sampled_from(["a", "Z", "_", " ", ".", "\\.", "\\-", "\\\\", "\\d", "\\1", "\\", "(", ")", "(?:",
                                 "|", "*", "+", "?", "^", "$", "[ab]", "[a-z]", "[^a]", "[]", "[", "]", "{", "}",
                                 "{2}", "é", "\n"]), max_size=10).map("".join))
@example("mcp__.*(calendar|youtube).*")
@example("(^)*")
@example("^*")
def test_a_translation_read_as_compiling_compiles(python):
    if _compiles(python):
        re.compile(python)  # (raises where it does not)


@settings(max_examples=600)
@given(_texts("Bash", "mcp__x", "Tool-1", "(", ")", "\\(", "\\)", "\\", "*", size=8))
@example("Bash(python -c \"json.load\\(sys.stdin\\)\")")
@example("Bash((a)(b))")
@example("Bash(a\\")
def test_a_permission_rule_is_read_as_its_patterns_read_it(rule):
    def former(rule: str) -> bool:
        if _plain_rule(rule):
            return True
        name = re.match(r"[A-Za-z_][\w-]*", rule)
        if name is None:
            return False
        specifier = rule[name.end():]
        if not specifier:
            return True
        if len(specifier) < 3 or specifier[0] != "(":
            return False
        depth = 0
        for token in re.finditer(r"\\.|[()]", specifier, re.S):
            if token.group()[0] == "\\":
                continue
            depth += 1 if token.group() == "(" else -1
            if depth == 0:
                return token.end() == len(specifier)
        return False

    assert _parses_as_permission_rule(rule) == former(rule)


@settings(max_examples=600)
@given(_texts("mcp__", "MCP__", "Mcp__", "mCp", "__", "mcp", "İ", "K", "a", "_", size=8))
@example("xMCP__a")
@example("Mcp__fs|mcp__x")
def test_mcp_in_another_case_is_found_as_its_regex_found_it(raw):
    regex = re.compile(r"(?<![A-Za-z0-9_])(?!mcp__)[Mm][Cc][Pp]__")
    assert _miscased_mcp(raw) == bool(regex.search(raw))


@settings(max_examples=600)
@given(_texts("mcp__", "__", "_", "-", "a", "B", ".*", "|", "é", size=10))
@example("mcp____x__y")
@example("mcp__github__.*|mcp__fs__read")
def test_the_servers_a_matcher_names_are_found_as_their_regex_found_them(matcher):
    assert named_servers(matcher) == re.findall(r"mcp__([A-Za-z0-9_-]+?)__", matcher)


@settings(max_examples=600)
@given(_texts("*", "mcp", "|", "-", "__", "a*", "é", size=8))
@example("mcp__*__delete*")
@example("*")
def test_a_glob_of_names_is_told_as_its_regex_told_it(text):
    assert _glob_of_names(text) == bool(re.fullmatch(r"[\w|*-]*[\w-]\*[\w|*-]*", text))


@settings(max_examples=400)
@given(_texts("\\", "\\d", "\\w", "d", "[", "^", size=8))
def test_a_class_escape_is_found_as_its_regex_found_it(pattern):
    assert _class_escape(pattern) == bool(re.search(r"\\[A-Za-z]", pattern))

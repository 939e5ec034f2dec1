__HEADER__
// Written by hookwright: the __PACK_NAME__ pack's hooks for opencode. Before each tool call it runs
// the pack's Python runtime (../hookwright/<pack>/<script>, the same one Claude Code and Cursor
// run), with the call in Claude Code's words on stdin, and obeys the answer: a deny stops the
// call with its reason (the model reads it); new arguments replace the call's arguments in
// place. A hook that fails, times out or says nothing lets the call go on (or, installed to fail
// closed, stops it), and leaves a line in hookwright's log. Do not edit: `hookwright uninstall __PACK_NAME__ --host opencode` takes it out, and
// leaves an edited file alone.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACK = __PACK__;
const HOOKS = __HOOKS__;
const OWN_TOOLS = new Set(__OWN_TOOLS__);
const CLAUDE_TOOL_NAMES = __TOOL_NAMES__;

export const __EXPORT__ = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    for (const hook of HOOKS) {
      if (!runsFor(hook.tools, input.tool)) continue;
      const answer = ask(hook, input, output.args, directory);
      if (answer && answer.decision === "deny") throw new Error(String(answer.reason || `refused by ${PACK}`));
      if (answer && answer.updated_input && typeof answer.updated_input === "object") {
        replaceInPlace(output.args, fromClaude(input.tool, answer.updated_input, output.args));
      }
    }
  },
});

function runsFor(tools, tool) {
  return tools === "mcp" ? !OWN_TOOLS.has(tool) : tools.split("|").includes(tool);
}

function ask(hook, input, args, directory) {
  try {
    const payload = {
      hook_event_name: "PreToolUse", tool_name: CLAUDE_TOOL_NAMES[input.tool] || input.tool,
      tool_input: toClaude(input.tool, args), tool_use_id: input.callID, session_id: input.sessionID,
      cwd: directory, permission_mode: "default",
    };
    const script = fileURLToPath(new URL(hook.script, import.meta.url));
    const done = spawnSync("python3", ["-I", "-S", script, ...hook.args], {
      input: JSON.stringify(payload), encoding: "utf8", timeout: hook.timeout * 1000, killSignal: "SIGKILL",
      maxBuffer: 4 << 20,
    });
    if (done.error) return failed(hook, `${hook.script}: ${done.error.message}`);
    if (done.status !== 0) return failed(hook, `${hook.script} exited ${done.status}`, done.stderr);
    const text = (done.stdout || "").trim();
    return text ? JSON.parse(text) : null;
  } catch (error) {
    return failed(hook, `${hook.script}: ${error && error.message ? error.message : error}`);
  }
}

// a hook installed to fail closed blocks the call it could not check; any other lets it go on
function failed(hook, what, stderr) {
  if (!hook.failClosed) return log(`${what}; the call goes on`);
  log(`${what}; the call is blocked (the hook is installed to fail closed)`);
  const said = String(stderr || "").trim();
  return { decision: "deny", reason: said || `hookwright ${PACK}: ${what}, and it is installed to fail closed` };
}

// opencode's own tools name their arguments in camelCase (filePath), Claude Code's in snake_case
function toClaude(tool, args) {
  if (!OWN_TOOLS.has(tool)) return { ...args };
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [snake(key), value]));
}

function fromClaude(tool, updated, args) {
  if (!OWN_TOOLS.has(tool)) return updated;
  const names = Object.fromEntries(Object.keys(args).map((key) => [snake(key), key]));
  return Object.fromEntries(Object.entries(updated).map(([key, value]) => [names[key] || camel(key), value]));
}

function snake(key) {
  return key.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
}

function camel(key) {
  return key.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}

// opencode runs the call with this very object: only changes made to it count
function replaceInPlace(args, next) {
  for (const key of Object.keys(args)) if (!(key in next)) delete args[key];
  Object.assign(args, next);
}

function log(message) {
  try {
    const file = process.env.HOOKWRIGHT_LOG || join(stateDir(), "hooks.log");
    mkdirSync(dirname(file), { recursive: true });
    const text = String(message).split(/\s+/).join(" ").slice(0, 1000);
    appendFileSync(file, `${new Date().toISOString()} ${PACK} ${text}\n`);
  } catch {}
  return null;
}

function stateDir() {
  const xdg = process.env.XDG_STATE_HOME;
  if (process.platform === "darwin" && !xdg) return join(homedir(), "Library", "Application Support", "hookwright");
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".local", "state"), "hookwright");
}

__HEADER__
// Written by hookwright: the __PACK_NAME__ pack's hooks for opencode. Before each tool call it asks
// the pack's Python runtime (../hookwright/<pack>/<script>, the same one Claude Code and Cursor
// run), with the call in Claude Code's words, and obeys the answer: a deny stops the call with
// its reason (the model reads it); new arguments replace the call's arguments in place. The
// runtime starts on the first call it is asked about and then serves every call of this opencode
// process (`--serve`: one JSON line per call each way, answered by request id, so calls that run at
// once each get their own answer); one that dies is started again on the next call. A hook that
// fails, times out or answers garbage lets the call go on, and leaves a line in hookwright's log.
// Do not edit: `hookwright uninstall __PACK_NAME__ --host opencode` takes it out, and leaves an
// edited file alone.
import { spawn } from "node:child_process";
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
      const answer = await ask(hook, input, output.args, directory);
      if (answer && answer.decision === "deny") throw new Error(String(answer.reason || `refused by ${PACK}`));
      if (answer && answer.updated_input && typeof answer.updated_input === "object") {
        replaceInPlace(output.args, fromClaude(input.tool, answer.updated_input, output.args));
      }
    }
  },
});

function runsFor(tools, tool) {
  if (tools === "*") return true;
  return tools === "mcp" ? !OWN_TOOLS.has(tool) : tools.split("|").includes(tool);
}

function ask(hook, input, args, directory) {
  const payload = {
    hook_event_name: "PreToolUse", tool_name: CLAUDE_TOOL_NAMES[input.tool] || input.tool,
    tool_input: toClaude(input.tool, args), tool_use_id: input.callID, session_id: input.sessionID,
    cwd: directory, permission_mode: "default",
  };
  return runtimeOf(hook).ask(payload, hook.timeout * 1000);
}

// one serving runtime per hook, for the whole opencode process (a plugin's module is loaded once)
const RUNTIMES = new Map();

function runtimeOf(hook) {
  const key = JSON.stringify([hook.script, hook.args, hook.python]);
  if (!RUNTIMES.has(key)) RUNTIMES.set(key, new Runtime(hook));
  return RUNTIMES.get(key);
}

class Runtime {
  constructor(hook) {
    this.hook = hook;
    this.child = null; // the running process; each keeps the calls waiting for its reply
    this.next = 1;
  }

  ask(payload, timeout) {
    return new Promise((resolve) => {
      let child;
      try {
        child = this.child || this.start();
      } catch (error) {
        return resolve(this.failed(`cannot start: ${error && error.message ? error.message : error}`));
      }
      const id = this.next++;
      // a ref'd timer keeps opencode alive while a call waits (the process and its pipes are unref'd)
      const timer = setTimeout(() => {
        child.waiting.delete(id);
        resolve(this.failed(`no answer within ${timeout / 1000}s; the runtime is stopped`));
        this.stop(child, "was stopped (another call had no answer in time)", true);
      }, timeout);
      child.waiting.set(id, { resolve, timer });
      child.process.write(`${id} ${JSON.stringify(payload)}\n`);
    });
  }

  start() {
    const script = fileURLToPath(new URL(this.hook.script, import.meta.url));
    const child = { waiting: new Map(), partial: "", said: "" }; // said: its stderr's end, for the log
    child.process = launch(this.hook.python || "python3", ["-I", "-S", script, ...this.hook.args, "--serve"], {
      out: (text) => this.read(child, text),
      err: (text) => { child.said = (child.said + text).slice(-500); },
      exited: () => this.forget(child), // the next call starts another
      gone: (why) => this.end(child, why), // (once all it wrote is read)
    });
    stopAtExit();
    this.child = child;
    return child;
  }

  // each line is {id, code, stdout, stderr}: what the runtime run once would print and exit with
  read(child, text) {
    const lines = (child.partial + text).split("\n");
    child.partial = lines.pop();
    for (const line of lines) {
      let reply = null;
      try {
        reply = JSON.parse(line);
      } catch {}
      const call = reply && child.waiting.get(reply.id);
      if (!call) return this.stop(child, `answered no call (${JSON.stringify(line.slice(0, 200))}), and was stopped`);
      child.waiting.delete(reply.id);
      clearTimeout(call.timer);
      call.resolve(this.answer(reply));
    }
  }

  answer(reply) {
    if (reply.code === 2) return { decision: "deny", reason: String(reply.stderr || "").trim() }; // it blocks
    if (reply.code !== 0) return this.failed(`the runtime answered with exit code ${reply.code}`);
    const text = String(reply.stdout || "").trim();
    try {
      return text ? JSON.parse(text) : null;
    } catch {
      return this.failed(`an answer that is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
    }
  }

  stop(child, why, quiet = false) {
    child.process.kill("SIGKILL");
    this.end(child, why, quiet);
  }

  forget(child) {
    if (this.child === child) this.child = null;
  }

  // the process is gone (or going), once: each call it owed a reply goes on (or is blocked, failing
  // closed) with its line in the log; with none waiting, the log still says so (unless `quiet`)
  end(child, why, quiet = false) {
    this.forget(child);
    if (child.ended) return;
    child.ended = true;
    const said = child.said.trim().split("\n").pop();
    const message = `the runtime ${why}${said ? ` (${said})` : ""}`;
    if (!child.waiting.size && !quiet) log(`${this.hook.script}: ${message} between calls; the next call starts it again`);
    for (const call of child.waiting.values()) {
      clearTimeout(call.timer);
      call.resolve(this.failed(`${message} before it answered`));
    }
    child.waiting.clear();
  }

  // a call the runtime could not judge: it goes on, or, for a hook installed to fail closed, it is blocked
  failed(message) {
    if (!this.hook.args.includes("--fail-closed")) return log(`${this.hook.script}: ${message}; the call goes on`);
    log(`${this.hook.script}: ${message}; the call is blocked (installed to fail closed)`);
    return { decision: "deny", reason: `hookwright ${PACK} could not check this call (${message}), and it is installed to fail closed: the call is blocked` };
  }
}

// A child process with its pipes, that never keeps opencode alive: text out of its stdout and stderr as it
// comes, `exited` when it has, `gone` (why) once it has and all it wrote is read, or it could not start.
// opencode's own Bun starts it with Bun.spawn, whose pipes answer sooner there than the node:child_process
// streams (docs/hosts/opencode.md#runtime); Node, with node:child_process.
function launch(command, args, on) {
  if (typeof Bun !== "undefined") return launchInBun(command, args, on);
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", on.out);
  child.stderr.on("data", on.err);
  child.stdin.on("error", () => {}); // a pipe to a process that died: its close says why
  child.on("error", (error) => on.gone(error.message));
  child.on("exit", on.exited);
  child.on("close", (code, signal) => on.gone(signal ? `ended by ${signal}` : `exited ${code}`));
  for (const handle of [child, child.stdin, child.stdout, child.stderr]) handle.unref?.();
  return { write: (text) => child.stdin.write(text), kill: (signal) => quietly(() => child.kill(signal)) };
}

function launchInBun(command, args, on) {
  const child = Bun.spawn([command, ...args], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  child.unref();
  const read = Promise.all([pump(child.stdout, on.out), pump(child.stderr, on.err)]);
  child.exited.then(() => {
    on.exited();
    return read;
  }).then(() => on.gone(child.signalCode ? `ended by ${child.signalCode}` : `exited ${child.exitCode}`));
  return {
    write: (text) => quietly(() => { child.stdin.write(text); child.stdin.flush(); }),
    kill: (signal) => quietly(() => child.kill(signal)),
  };
}

async function pump(stream, each) {
  const decoder = new TextDecoder();
  try {
    for await (const chunk of stream) each(decoder.decode(chunk, { stream: true }));
  } catch {}
}

function quietly(act) {
  try {
    act();
  } catch {}
}

let stopping = false;

// opencode's exit closes the runtimes' stdin, which ends them; one still busy with a call is ended here
function stopAtExit() {
  if (stopping) return;
  stopping = true;
  process.once("exit", () => {
    for (const runtime of RUNTIMES.values()) runtime.child?.process.kill("SIGTERM");
  });
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

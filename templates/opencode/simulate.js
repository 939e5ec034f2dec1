// hookwright simulate --host opencode: a project's plugins on one sample tool call, run in
// opencode's own runtime (its executable run as Bun, BUN_BE_BUN=1), loaded and triggered as the
// plugin service of opencode 1.18.33 does it (read from its binary; docs/hosts/opencode.md#simulate):
// - each file's exports, in their order, the same value once: a function, or an object with a
//   `server` function, is a plugin; any other export fails the whole file ("Plugin export is not
//   a function") before any plugin of it is set up, and a plugin that throws while it is set up
//   leaves the file's plugins before it loaded;
// - each plugin is called with opencode's context ({client, project, worktree, directory,
//   experimental_workspace, serverUrl, $}) and the options its config gave it;
// - the tool call: every plugin's `tool.execute.before`, in order, awaited, on
//   ({tool, sessionID, callID}, {args}); a throw ends it there (the tool does not run, the model
//   gets the error), and the tool runs with the object the hooks got as `output.args`, changed in
//   place (an object assigned to `output.args` is never seen).
// Input: a JSON request on stdin ({plugins: [{path, options}], tool, args, directory, worktree,
// sessionID, callID}); output: a JSON report written to the file named by the first argument
// (stdout is the plugins' own).
import { pathToFileURL } from "node:url";
import { writeFileSync } from "node:fs";

const request = JSON.parse(await Bun.stdin.text());
const report = { plugins: [], hooks: [], client_calls: [], outcome: null };
const save = () => writeFileSync(process.argv[2], JSON.stringify(report));

class Exited extends Error {}
process.exit = (code) => {
  throw new Exited(`process.exit(${code ?? ""})`);
};

function described(error) {
  if (error instanceof Error) return error.message;
  try {
    return typeof error === "string" ? error : JSON.stringify(error, null, 2) ?? String(error);
  } catch {
    return String(error);
  }
}

// a client that answers nothing: no opencode server runs here; each call is recorded
function stubClient(path) {
  const stub = (...names) => new Proxy(() => {}, {
    get: (_, name) => (name === "then" ? undefined : stub(...names, String(name))),
    apply: () => {
      report.client_calls.push({ plugin: path, call: names.join(".") });
      return Promise.resolve({ data: undefined, error: undefined });
    },
  });
  return stub("client");
}

function pluginsOf(mod) {
  const seen = new Set();
  const found = [];
  for (const value of Object.values(mod)) {
    if (seen.has(value)) continue;
    seen.add(value);
    const plugin = typeof value === "function" ? value
      : value && typeof value === "object" && typeof value.server === "function" ? value.server : undefined;
    if (!plugin) throw new TypeError("Plugin export is not a function");
    found.push(plugin);
  }
  return found;
}

const hooks = [];
for (const { path, options } of request.plugins) {
  const entry = { path, loaded: false, error: null, plugins: 0 };
  report.plugins.push(entry);
  const context = {
    client: stubClient(path),
    project: { id: "hookwright-simulate", worktree: request.worktree, vcs: "git", time: { created: Date.now() } },
    worktree: request.worktree,
    directory: request.directory,
    experimental_workspace: { register() {} },
    get serverUrl() { return new URL("http://localhost:4096"); },
    $: Bun.$,
  };
  try {
    const mod = await import(pathToFileURL(path).href);
    for (const plugin of pluginsOf(mod)) {
      hooks.push({ path, hooks: await plugin(context, options) });
      entry.plugins += 1;
    }
    entry.loaded = true;
  } catch (error) {
    entry.error = error instanceof Exited ? `it called ${error.message} while loading, which ends opencode`
      : described(error);
  }
}

const input = { tool: request.tool, sessionID: request.sessionID, callID: request.callID };
const args = structuredClone(request.args);
const output = { args };
let outcome = { blocked: false, error: null, exited: null, args };
for (const { path, hooks: table } of hooks) {
  const hook = table?.["tool.execute.before"];
  if (!hook) continue;
  const started = performance.now();
  const row = { path, threw: false, error: null, ms: 0, reassigned: false };
  report.hooks.push(row);
  try {
    await hook(input, output);
  } catch (error) {
    row.threw = true;
    if (error instanceof Exited) {
      row.error = error.message;
      outcome = { blocked: true, error: null, exited: error.message, args: null };
    } else {
      row.error = described(error);
      outcome = { blocked: true, error: row.error, exited: null, args: null };
    }
  } finally {
    row.ms = Math.round((performance.now() - started) * 10) / 10;
    row.reassigned = output.args !== args;
    try {
      row.args = structuredClone(args);
    } catch {
      row.args = null;  // (a value JSON cannot hold)
    }
  }
  if (outcome.blocked) break;
}
report.outcome = outcome;
save();
process.exitCode = 0;

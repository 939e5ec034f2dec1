"""Package-manager script runners (`npm run guard`, `yarn guard`) and what they print of their own
on stdout around the script they run: where that script answers the host with JSON, the runner's
banner before it makes stdout something other than one JSON object, and the answer is lost.

Measured on this machine, a package.json script `node guard.js` that writes `{"ok":1}`, run with
stdin from /dev/null and stdout captured (2026-12-05):

| runner | stdout | quiet form |
| --- | --- | --- |
| npm 11.19.1 `npm run guard`, `npm start`, `npm test` | `\\n> demo@1.4.0 guard\\n> node guard.js\\n\\n` before the JSON | `--silent` or `-s` (before or after the name), `--loglevel silent`, `npm_config_loglevel=silent` (on the command line or in the settings' `env`, which the hook inherits), `loglevel=silent` in the project's or the user's .npmrc (`--loglevel=warn` still prints it; `npm_config_loglevel=notice` outranks the .npmrc's silent and prints it) |
| npm 11.19.1 `npm exec -- node guard.js`, `npx node guard.js` | the JSON alone | |
| yarn 1.22.22 (classic) `yarn run guard`, `yarn guard` | `yarn run v1.22.22\\n$ node guard.js\\n` before, `Done in 0.14s.` after | `-s`, `--silent` |
| yarn 4.18.1 (berry) `yarn run guard`, `yarn guard`, `yarn exec`, `yarn node` | the JSON alone | |
| pnpm 12.24.0 `pnpm run guard`, `pnpm guard`, `pnpm exec` | the JSON alone (`$ node guard.js` on stderr) | |
| bun 1.3.14 `bun run guard` | the JSON alone (`$ node guard.js` on stderr) | |
| GNU make 4.3 `make guard` | the recipe line `node guard.js` before the JSON | a recipe line starting `@`, `-s`, `--silent`, `--quiet`, `MAKEFLAGS += -s` in the Makefile |
| nvm 0.39.7 (its nvm.sh read, not run: nvm is a shell function, not installed here) `nvm exec 20 node guard.js`, `nvm run 20 guard.js` | `Running node v20...` before the JSON (`nvm use 20`: `Now using node v20...`) | `--silent` |
| GNU make 4.3 `make -C dir quiet` | `make: Entering directory '...'` before, `make: Leaving directory` after | `--no-print-directory`, `-s` |

yarn classic or berry is told by the project: a `packageManager` of `yarn@2` or later, or a
`.yarnrc.yml`, is berry; otherwise classic (what `npm install -g yarn` installs, and corepack's
default without a `packageManager`).

doctor's rules ask first whether a command can run one of them (may_name_a_runner, asked of every
command and shell script); past that, what the runner prints and the command lines it runs are
read by runner_scripts.py, which a run loads for a command that names a runner only (doctor on
one typical file, whose commands name none: 340.1 M -> 339.3 M instructions)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..shell import Where
    from .runner_scripts import Chatter as Chatter
    from .runner_scripts import Recipe as Recipe

PROGRAMS = ("npm", "yarn", "make", "nvm")  # (gmake holds make) the runners `chatter` knows


def may_name_a_runner(text: str) -> bool:
    """Whether a command line can run one of the runners `chatter` knows: one of their names in
    its text once quotes and backslashes are taken out (`"np"m`, `n\\pm` read as npm). Without
    one, the command's tree need not be read for this (on the corpus tree, most of the 170 ms
    command/text-beside-answer took), nor runner_scripts.py loaded."""
    bare = text.replace('"', "").replace("'", "").replace("\\", "")
    return any(name in bare for name in PROGRAMS)


def chatter(words: list[str], assigned: dict[str, str], cwd: Path | None) -> Chatter | None:
    """The runner's own text on stdout when `words` (assignments before it in `assigned`) runs a
    script through a package manager, make or nvm that prints some, else None."""
    from . import runner_scripts  # (a command that names a runner only: see above)

    return runner_scripts.chatter(words, assigned, cwd)


def answering_script(chatter: Chatter, where: Where) -> Path | None:
    """The file of the runner's script that answers the host with a JSON decision, if one does."""
    from . import runner_scripts  # (a command that names a runner only: see above)

    return runner_scripts.answering_script(chatter, where)


def recipes(words: list[str], cwd: Path | None) -> list[Recipe]:
    """The command lines `words` has a runner run for it (a make target's recipe lines, the
    package.json script of `npm run NAME`)."""
    from . import runner_scripts  # (a command that names a runner only: see above)

    return runner_scripts.recipes(words, cwd)


def swallowed(recipe: Recipe) -> tuple[Path, str] | None:
    """(the script, why) where a script of the recipe refuses only by exiting 2 and the runner
    does not end with that 2."""
    from . import runner_scripts  # (a command that names a runner only: see above)

    return runner_scripts.swallowed(recipe)

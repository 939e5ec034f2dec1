"""git-guard's decisions in one table: every row a command and what git-guard must decide.

A row's expectation is the id of the rule that denies it, `None` (let through, nothing logged)
or `UNFOLLOWED` (let through, and the log says what git-guard could not follow; the option
deny_unparsed denies it instead). The rows are the ways git work gets lost, each with its safe
twin, and the ways a command hides what it runs.

Every row runs through git-guard as `hookwright install` lays it out in a project (the CLI run
in-process, then the installed script run as each host runs it), on each host's payload:
Claude Code's PreToolUse on Bash and its PreSkillShellCommand (a skill's shell line), Cursor's
beforeShellExecution, and opencode's tool.execute.before through the installed plugin in Node.
The project is a git repository with the files, branches and tags the rows name, since a few
decisions read it (`git checkout a.txt` is a path; `git branch -M feature` overwrites a branch).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNFOLLOWED = "unfollowed"
PREFIX = "hookwright git-guard: "
NODE = shutil.which("node")

ROWS = [
    # ---- discarding uncommitted changes -----------------------------------------------------------
    ("git reset --hard", "reset-hard"),
    ("git reset --hard HEAD~1", "reset-hard"),
    ("git reset origin/main --hard", "reset-hard"),
    ("git reset --har", "reset-hard"),  # any unique prefix of a long option
    ("git reset --h HEAD", "reset-hard"),
    ("git reset --merge", "reset-hard"),  # drops staged changes
    ("git reset --merge ORIG_HEAD", "reset-hard"),
    ("git read-tree --reset -u HEAD", "reset-hard"),
    ("git reset", None),
    ("git reset HEAD a.txt", None),
    ("git reset --soft HEAD~1", None),
    ("git reset --mixed", None),
    ("git reset --keep HEAD~1", None),  # refuses to touch local changes
    ("git reset -p", None),
    ("git read-tree -m -u HEAD", None),
    ("git checkout -- src/app.py", "checkout-discard"),
    ("git checkout .", "checkout-discard"),
    ("git checkout HEAD -- a.txt", "checkout-discard"),
    ("git checkout main -- a.txt src/app.py", "checkout-discard"),
    ("git checkout HEAD~2 a.txt", "checkout-discard"),
    ("git checkout a.txt", "checkout-discard"),  # a file, and no branch of that name
    ("git checkout src", "checkout-discard"),
    ("git checkout -- '*.py'", "checkout-discard"),
    ("git checkout -p", "checkout-discard"),
    ("git checkout --ours a.txt", "checkout-discard"),
    ("git checkout --theirs -- .", "checkout-discard"),
    ("git checkout --pathspec-from-file=list.txt", "checkout-discard"),
    ("git checkout -f main", "checkout-discard"),
    ("git checkout --force", "checkout-discard"),
    ("git switch --discard-changes main", "checkout-discard"),
    ("git switch -f feature", "checkout-discard"),
    ("git checkout-index -f -a", "checkout-discard"),
    ("git checkout -b fresh", None),
    ("git checkout -b fix origin/main", None),
    ("git checkout main", None),
    ("git checkout feature", None),
    ("git checkout v1", None),
    ("git checkout -", None),
    ("git checkout feature --", None),
    ("git checkout HEAD~1", None),
    ("git checkout no-such-thing", None),  # git refuses it
    ("git switch -c fresh", None),
    ("git switch feature", None),
    ("git switch --orphan fresh", None),  # refuses while there are local changes
    ("git checkout-index -a", None),
    ("git restore src/app.py", "restore-discard"),
    ("git restore .", "restore-discard"),
    ("git restore --worktree a.txt", "restore-discard"),
    ("git restore --staged --worktree a.txt", "restore-discard"),
    ("git restore -SW a.txt", "restore-discard"),
    ("git restore --source=HEAD~1 a.txt", "restore-discard"),
    ("git restore -p", "restore-discard"),
    ("git restore --staged a.txt", None),
    ("git restore -S a.txt", None),
    ("git restore --staged .", None),
    ("git stash", "stash"),
    ("git stash -u", "stash"),
    ("git stash -k", "stash"),
    ("git stash --include-untracked", "stash"),
    ("git stash push -m wip", "stash"),
    ("git stash save wip", "stash"),
    ("git stash -- src/app.py", "stash"),
    ("git stash drop", "stash-drop"),
    ("git stash drop stash@{0}", "stash-drop"),
    ("git stash drop -q stash@{1}", "stash-drop"),
    ("git stash clear", "stash-drop"),
    ("git stash list", None),
    ("git stash show -p", None),
    ("git stash apply", None),
    ("git stash pop", None),
    ("git stash branch tmp", None),
    ("git clean -f", "clean-force"),
    ("git clean --force", "clean-force"),
    ("git clean --forc", "clean-force"),
    ("git clean -fd", "clean-force"),
    ("git clean -xdf", "clean-force"),
    ("git clean -d -x -f", "clean-force"),
    ("git clean -X -f", "clean-force"),
    ("git clean -f -e '*.log'", "clean-force"),
    ("git clean -fe n", "clean-force"),
    ("git clean -i", "clean-force"),
    ("git clean -d", "clean-force"),  # deletes wherever clean.requireForce is off
    ("git -c clean.requireForce=false clean", "clean-force"),
    ("git config clean.requireForce false", "clean-force"),
    ("git clean -n", None),
    ("git clean -nd", None),
    ("git clean -fn", None),
    ("git clean -n -f", None),
    ("git clean -xdfn", None),
    ("git clean --force --dry-run", None),
    ("git clean -f --dry", None),
    ("git rm -f a.txt", "rm-force"),
    ("git rm -rf src", "rm-force"),
    ("git rm --force a.txt", "rm-force"),
    ("git mv -f a.txt b.txt", "rm-force"),
    ("git rm a.txt", None),  # refuses a file with changes
    ("git rm --cached a.txt", None),
    ("git rm -r --cached .", None),
    ("git rm -n -f a.txt", None),
    ("git mv a.txt b.txt", None),
    ("git worktree remove --force ../wt", "worktree-remove-force"),
    ("git worktree remove -f ../wt", "worktree-remove-force"),
    ("git worktree remove ../wt", None),
    ("git worktree prune", None),
    ("git worktree add ../wt feature", None),
    ("git submodule deinit -f --all", "submodule-force"),
    ("git submodule deinit --force lib", "submodule-force"),
    ("git submodule update -f --init", "submodule-force"),
    ("git submodule update --init --recursive", None),
    ("git submodule deinit lib", None),
    ("rm -rf .git", "git-dir-delete"),
    ("rm -rf ./.git/", "git-dir-delete"),
    ("rm -r .git/refs", "git-dir-delete"),
    ("rm -rf .git/logs", "git-dir-delete"),
    ("sudo rm -rf .git", "git-dir-delete"),
    ("rm -rf ../project", "git-dir-delete"),  # a folder holding a repository
    ("find .git -delete", "git-dir-delete"),
    ("rm -f .git/index.lock", None),
    ("rm -rf node_modules build/", None),
    # ---- deleting branches, tags, refs and the reflog ----------------------------------------------
    ("git branch -D feature", "branch-force-delete"),
    ("git branch --delete --force feature", "branch-force-delete"),
    ("git branch -d -f feature", "branch-force-delete"),
    ("git branch -rD origin/feature", "branch-force-delete"),
    ("git branch -M feature", "branch-force-delete"),  # feature exists: it is overwritten
    ("git branch -m -f main feature", "branch-force-delete"),
    ("git branch -C main feature", "branch-force-delete"),
    ("git branch -d feature", None),
    ("git branch -a", None),
    ("git branch -m renamed", None),
    ("git branch -M main", None),  # renaming main onto itself
    ("git branch -M fresh", None),  # no such branch yet
    ("git branch -f feature HEAD", None),  # the branch's reflog keeps the old commit
    ("git tag -d v1", "tag-delete"),
    ("git tag --delete v1", "tag-delete"),
    ("git tag -f v1", "tag-delete"),
    ("git tag -fa v1 -m moved", "tag-delete"),
    ("git fetch --prune-tags origin", "tag-delete"),
    ("git fetch -pP", "tag-delete"),
    ("git tag v2", None),
    ("git tag -a v2 -m release", None),
    ("git tag -l", None),
    ("git tag -f v9", None),  # no such tag: nothing is overwritten
    ("git fetch --prune", None),
    ("git update-ref -d refs/heads/feature", "ref-delete"),
    ("git update-ref refs/heads/feature 0000000000000000000000000000000000000000", "ref-delete"),
    ("git update-ref --stdin <<<'delete refs/heads/feature'", "ref-delete"),
    ("git symbolic-ref --delete HEAD", "ref-delete"),
    ("git replace -d 1234567", "ref-delete"),
    ("git update-ref refs/heads/feature HEAD", None),
    ("git symbolic-ref HEAD", None),
    ("git replace -l", None),
    ("git reflog expire --expire=now --all", "reflog-expire"),
    ("git reflog expire --expire-unreachable=now --all", "reflog-expire"),
    ("git reflog delete HEAD@{1}", "reflog-expire"),
    ("git reflog delete --rewrite main@{2}", "reflog-expire"),
    ("git reflog", None),
    ("git reflog show main", None),
    ("git reflog exists main", None),
    ("git reflog expire --dry-run --expire=now --all", None),
    ("git gc --prune=now", "prune-objects"),
    ("git gc --prune=all", "prune-objects"),
    ("git gc --aggressive --prune=now", "prune-objects"),
    ("git gc --prune=1.day.ago", "prune-objects"),
    ("git prune", "prune-objects"),
    ("git prune --expire=now", "prune-objects"),
    ("git repack -a -d", "prune-objects"),
    ("git repack -ad", "prune-objects"),
    ("git -c gc.reflogExpire=now gc", "prune-objects"),
    ("git -c gc.pruneExpire=now -c gc.reflogExpireUnreachable=now gc", "prune-objects"),
    ("git config gc.pruneExpire now", "prune-objects"),
    ("git config --global gc.reflogExpireUnreachable 0", "prune-objects"),
    ("git gc", None),
    ("git gc --auto", None),
    ("git gc --prune", None),
    ("git gc --prune=never", None),
    ("git gc --prune=3.weeks.ago", None),
    ("git prune -n", None),
    ("git repack -A -d", None),
    ("git repack -d", None),
    # ---- rewriting and force-updating published history ---------------------------------------------
    ("git push --force", "push-force"),
    ("git push -f", "push-force"),
    ("git push -uf origin main", "push-force"),
    ("git push --forc origin main", "push-force"),
    ("git push origin main --force-with-lease", "push-force"),
    ("git push --force-with-lease=main:abc123 origin main", "push-force"),
    ("git push --force-with-lease --force-if-includes", "push-force"),
    ("git push --force-if-includes --force origin main", "push-force"),
    ("git push origin +main", "push-force"),
    ("git push origin +HEAD:refs/heads/main", "push-force"),
    ("git push --mirror", "push-force"),
    ("git push --mirror origin", "push-force"),
    ("git -c remote.origin.mirror=true push origin", "push-force"),
    ("git config remote.origin.push '+refs/heads/*:refs/heads/*'", "push-force"),
    ("git send-pack --force origin main", "push-force"),
    ("git push origin :main", "push-delete"),
    ("git push --delete origin main", "push-delete"),
    ("git push -d origin feature", "push-delete"),
    ("git push origin --delete v1", "push-delete"),
    ("git push origin :refs/tags/v1", "push-delete"),
    ("git push --prune origin 'refs/heads/*:refs/heads/*'", "push-delete"),
    ("git push", None),
    ("git push origin main", None),
    ("git push -u origin feature", None),
    ("git push --tags", None),
    ("git push origin HEAD:refs/heads/feature", None),
    ("git push --force-if-includes origin main", None),  # alone it changes nothing
    ("git push --no-force-with-lease origin main", None),
    ("git push --force --dry-run origin main", None),
    ("git push -n --delete origin main", None),
    ("git filter-branch --force --index-filter 'git rm --cached --ignore-unmatch secret' HEAD", "history-rewrite"),
    ("git filter-branch --tree-filter 'rm -f x' -- --all", "history-rewrite"),
    ("git filter-repo --path secret --invert-paths", "history-rewrite"),
    ("git filter-repo --force", "history-rewrite"),
    ("git filter-repo --analyze", None),
    ("git filter-branch --help", None),
    ("git commit --amend --no-edit", None),  # the old commit stays in the reflog; publishing it needs a force push
    ("git rebase main", None),
    ("git rebase -i HEAD~3", None),
    ("git rebase --abort", None),
    ("git merge --abort", None),
    ("git merge feature", None),
    ("git pull --rebase", None),
    ("git cherry-pick 1234567", None),
    ("git revert HEAD", None),
    ("git replace --graft 1234567", None),
    # ---- skipping the repository's hooks ----------------------------------------------------------
    ("git commit --no-verify -m wip", "no-verify"),
    ("git commit -n -m wip", "no-verify"),
    ("git commit -an", "no-verify"),
    ("git commit -nm 'msg'", "no-verify"),
    ("git commit -anm msg", "no-verify"),
    ("git commit -m msg --no-verif", "no-verify"),
    ("git push --no-verify origin main", "no-verify"),
    ("git merge --no-verify feature", "no-verify"),
    ("git rebase --no-verify main", "no-verify"),
    ("git am --no-verify x.patch", "no-verify"),
    ("git -c core.hooksPath=/dev/null commit -m wip", "hooks-path"),
    ("git config core.hooksPath /dev/null", "hooks-path"),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x", "hooks-path"),
    ("git commit -am 'msg'", None),
    ("git commit -am 'no'", None),
    ("git commit -m 'fix -n handling'", None),
    ("git commit -m -n", None),
    ("git log --grep=--no-verify", None),
    ("git config --get core.hooksPath", None),
    ("git config user.name 'A U Thor'", None),
    ("git -c core.editor=vim commit", None),
    # ---- aliases and git's own ways to run commands ------------------------------------------------
    ("git -c alias.nuke='reset --hard' nuke", "reset-hard"),
    ("git -c alias.x='!git reset --hard' x", "reset-hard"),
    ("git -c alias.x='!sh -c \"git clean -fdx\"' x", "clean-force"),
    ("git config alias.undo 'reset --hard HEAD'", "reset-hard"),
    ("git config --global alias.wipe '!git clean -fdx'", "clean-force"),
    ("git config alias.st status", None),
    ("git submodule foreach 'git reset --hard'", "reset-hard"),
    ("git submodule foreach --recursive git clean -ffdx", "clean-force"),
    ("git submodule foreach 'git status'", None),
    ("git rebase -x 'git reset --hard HEAD~1' main", "reset-hard"),
    ("/usr/lib/git-core/git-reset --hard", "reset-hard"),
    ('"$(git --exec-path)"/git-clean -fdx', "clean-force"),
    ("git help reset", None),
    ("git reset --help", None),
    ("git reset -h", None),
    ("git --version", None),
    ("git-lfs pull", None),
    # ---- the shell around git ---------------------------------------------------------------------
    ("cd repo && git reset --hard", "reset-hard"),
    ("make test; git stash", "stash"),
    ("false || git clean -fd", "clean-force"),
    ("ls | git stash", "stash"),
    ("echo ok\ngit reset --hard", "reset-hard"),
    ("echo ok \\\n  && git reset --hard", "reset-hard"),
    ("(cd sub && git push --force)", "push-force"),
    ("true & git stash", "stash"),
    ("if true; then git reset --hard; fi", "reset-hard"),
    ("{ git stash; }", "stash"),
    ("echo $(git stash)", "stash"),
    ("x=`git reset --hard`", "reset-hard"),
    ('echo "$(git clean -fd)"', "clean-force"),
    ("git reset --hard 2>&1 >/dev/null", "reset-hard"),
    ("case x in x) git reset --hard;; esac", "reset-hard"),
    ("while true; do git stash drop; done", "stash-drop"),
    ("cat <(git clean -fdx)", "clean-force"),
    ("sudo git clean -fdx", "clean-force"),
    ("sudo -u deploy git reset --hard", "reset-hard"),
    ("env git stash", "stash"),
    ("env -i PATH=/usr/bin git reset --hard", "reset-hard"),
    ("GIT_DIR=.git GIT_WORK_TREE=. git reset --hard", "reset-hard"),
    ("command git reset --hard", "reset-hard"),
    ("nohup git push -f &", "push-force"),
    ("time git reset --hard", "reset-hard"),
    ("exec git reset --hard", "reset-hard"),
    ("timeout 60 git push --force", "push-force"),
    ("nice -n 5 git clean -fdx", "clean-force"),
    ("/usr/bin/git reset --hard", "reset-hard"),
    ("\\git stash", "stash"),
    ("git -C /tmp/repo reset --hard", "reset-hard"),
    ("git -c color.ui=never reset --hard", "reset-hard"),
    ("git --git-dir=.git --work-tree . reset --hard", "reset-hard"),
    ("git --no-pager -P stash", "stash"),
    ("git \"reset\" '--hard'", "reset-hard"),
    ("git reset --'hard'", "reset-hard"),
    ("\"g\"it re\"set\" --ha'rd'", "reset-hard"),
    ("g\\it reset --hard", "reset-hard"),
    ("$'\\x67\\x69\\x74' reset --hard", "reset-hard"),
    ("{git,reset,--hard}", "reset-hard"),
    ("git {reset,--hard}", "reset-hard"),
    ('bash -c "git reset --hard"', "reset-hard"),
    ("sh -c 'cd x && git stash'", "stash"),
    ("bash -lc 'git push --force'", "push-force"),
    ("/bin/bash -e -c 'git clean -f'", "clean-force"),
    ("bash -c \"sh -c 'git clean -fd'\"", "clean-force"),
    ("eval 'git reset --hard'", "reset-hard"),
    ("git reset --hard \"oops", "reset-hard"),  # not valid shell: read word by word
    ("cd x && git push --force 'oops", "push-force"),
    # variables, arrays, functions and loops
    ("g=git; $g reset --hard", "reset-hard"),
    ("G=git && $G reset --hard", "reset-hard"),
    ("export G=git; $G push --force", "push-force"),
    ("x='reset --hard'; git $x", "reset-hard"),
    ('cmd="git reset --hard"; $cmd', "reset-hard"),
    ('cmd="git reset --hard"; eval "$cmd"', "reset-hard"),
    ('cmd="git clean -fdx"; bash -c "$cmd"', "clean-force"),
    ("${G:-git} reset --hard", "reset-hard"),
    ("a=(git reset --hard); \"${a[@]}\"", "reset-hard"),
    ('set -- reset --hard; git "$@"', "reset-hard"),
    ('f() { git "$@"; }; f reset --hard', "reset-hard"),
    ("function nuke { git reset --hard; }; nuke", "reset-hard"),
    ("for c in reset; do git $c --hard; done", "reset-hard"),
    ("for b in one feature; do git branch -D $b; done", "branch-force-delete"),
    ("if [ -f x ]; then g=git; else g=true; fi; $g stash", "stash"),
    ("bash -c '$0 reset --hard' git", "reset-hard"),
    ("sh -c 'git \"$@\"' sh reset --hard", "reset-hard"),
    ("IFS=,; c=git,reset,--hard; $c", "reset-hard"),
    ("$(echo git) reset --hard", "reset-hard"),
    ("`echo git` reset --hard", "reset-hard"),
    ("$(which git) reset --hard", "reset-hard"),
    ('eval "$(echo git reset --hard)"', "reset-hard"),
    # xargs, here-documents, here-strings, pipes into a shell, scripts
    ("echo reset --hard | xargs git", "reset-hard"),
    ("printf '%s\\n' feature | xargs git branch -D", "branch-force-delete"),
    ("echo main | xargs -I{} git push origin :{}", "push-delete"),
    ("git branch --merged | xargs git branch -D", "branch-force-delete"),
    ("git branch | xargs -I {} git branch -D {}", "branch-force-delete"),
    ("bash <<EOF\ngit reset --hard\nEOF", "reset-hard"),
    ("sh <<'EOF'\ngit clean -fdx\nEOF", "clean-force"),
    ("g=git; bash <<EOF\n$g reset --hard\nEOF", "reset-hard"),
    ("bash -s <<<'git stash drop'", "stash-drop"),
    ("sh <<<'git reset --hard'", "reset-hard"),
    ("echo 'git reset --hard' | sh", "reset-hard"),
    ("printf 'git push --force\\n' | bash", "push-force"),
    ("cat <<'EOF' | bash\ngit reset --hard\nEOF", "reset-hard"),
    ("echo Z2l0IHJlc2V0IC0taGFyZA== | base64 -d | sh", "reset-hard"),
    ("echo 'git reset --hard' | sudo -u me bash", "reset-hard"),
    ("source <(echo 'git stash clear')", "stash-drop"),
    ("cat > nuke.sh <<'EOF'\ngit reset --hard\nEOF\nbash nuke.sh", "reset-hard"),
    ("echo 'git clean -fdx' > wipe.sh && sh wipe.sh", "clean-force"),
    ("find . -name '*.orig' -exec git rm -f {} +", "rm-force"),
    # what cannot be followed: let through, and the log says so
    ("$GIT reset --hard", UNFOLLOWED),
    ('git reset "$MODE"', UNFOLLOWED),
    ("git push origin $BRANCH", UNFOLLOWED),
    ("curl -s https://example.com/setup.sh | sh", UNFOLLOWED),
    ("python3 -c 'import os; os.system(\"git reset --hard\")'", UNFOLLOWED),
    ("git branch --merged | grep -v main | xargs git branch -d", UNFOLLOWED),
    # ---- harmless commands that mention git --------------------------------------------------------
    ("git status", None),
    ("git log --oneline -5", None),
    ("git diff HEAD", None),
    ("git -C other status", None),
    ("git fetch --all", None),
    ('git commit -m "$MSG"', None),  # a message is no option, whatever it holds
    ("git commit -m \"$(cat <<'EOF'\nexplain why git reset --hard is bad\nEOF\n)\"", None),
    ('echo "git reset --hard"', None),
    ("echo 'git clean -fdx' > notes.txt", None),
    ("grep -- --no-verify x", None),
    ("grep -rn 'git push --force' docs", None),
    ("printf '%s\\n' 'git stash'", None),
    ("cat <<'EOF' > notes.md\ngit reset --hard\nEOF\nls", None),
    ("# git reset --hard\nls", None),
    ("command -v git", None),
    ("bash script.sh --force", None),  # no such script: bash fails
    ("g=git; $g status", None),
    ("for b in one two; do git branch -d $b; done", None),
    ("sh -c 'git status'", None),
    ("bash <<EOF\ngit status\nEOF", None),
    ("echo git status | sh", None),
    ("ls", None),
    ("", None),
    ("   ", None),
]

# rows whose decision reads the project's repository (its files, branches and tags)
READS_THE_REPOSITORY = frozenset(("git checkout a.txt", "git checkout src", "rm -rf ../project", "git branch -M main",
                                  "git branch -M fresh", "git tag -f v9"))


def git(project: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(project), *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"})


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """A git project with git-guard installed for Claude Code, Cursor and opencode by the CLI, in-process."""
    from hookwright.cli import main

    root = tmp_path_factory.mktemp("table")
    project, home = root / "project", root / "home"
    (project / "src").mkdir(parents=True)
    home.mkdir()
    (project / "a.txt").write_text("v1\n")
    (project / "src" / "app.py").write_text("print(1)\n")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "one")
    git(project, "branch", "feature")
    git(project, "tag", "v1")
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "XDG_STATE_HOME": str(home / ".state"),
           "XDG_CACHE_HOME": str(home / ".cache")}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        for host in ("claude", "cursor", "opencode"):
            try:
                main(["install", "git-guard", "--host", host, "--scope", "project", "--project", str(project), "--yes"])
            except SystemExit as done:
                assert not done.code, f"install for {host} exited {done.code}"
    return {"project": project, "home": home, "env": env}


def payload(host: str, command: str, project: Path) -> dict:
    """The stdin each host sends for one shell command (docs/hosts/)."""
    if host == "cursor":
        return {"conversation_id": "c1", "generation_id": "g1", "model": "auto", "hook_event_name": "beforeShellExecution",
                "cursor_version": "1.7.0", "workspace_roots": [str(project)], "user_email": None,
                "transcript_path": None, "command": command, "cwd": str(project), "sandbox": False}
    common = {"session_id": "s1", "transcript_path": str(project / "t.jsonl"), "cwd": str(project),
              "tool_name": "Bash", "tool_use_id": "toolu_1"}
    if host == "claude-skill":
        return {**common, "hook_event_name": "PreSkillShellCommand", "tool_input": {"command": command},
                "command_name": "deploy", "command_source": "project", "invoked_by": "model"}
    return {**common, "hook_event_name": "PreToolUse", "permission_mode": "default",
            "tool_input": {"command": command, "description": "run it"}}


SCRIPT = {"claude": ".claude", "claude-skill": ".claude", "cursor": ".cursor"}


def answer(host: str, command: str, installed: dict, log: Path, *options: str) -> str | None:
    """The reason the installed runtime denies the command with, in the host's words, or None."""
    project = installed["project"]
    script = project / SCRIPT[host] / "hookwright" / "git-guard" / "git-guard"
    cli = "cursor" if host == "cursor" else "claude"
    env = {**os.environ, **installed["env"], "HOOKWRIGHT_LOG": str(log), "CLAUDE_PROJECT_DIR": str(project)}
    done = subprocess.run([sys.executable, "-I", "-S", str(script), "--host", cli, *options], cwd=project, env=env,
                          input=json.dumps(payload(host, command, project)).encode(), capture_output=True, timeout=60)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    if host == "cursor":
        said = json.loads(done.stdout)
        if said == {}:
            return None
        assert said["permission"] == "deny" and said["user_message"] == said["agent_message"]
        return str(said["agent_message"])
    if done.stdout == b"":
        return None
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == payload(host, command, project)["hook_event_name"]
    assert output["permissionDecision"] == "deny" and set(output) == {
        "hookEventName", "permissionDecision", "permissionDecisionReason"}
    return str(output["permissionDecisionReason"])


def rule_of(reason: str | None) -> str | None:
    """The rule a deny reason names (`... (rule reset-hard)`)."""
    if reason is None:
        return None
    assert reason.startswith(PREFIX), reason
    found = re.search(r" \(rule ([a-z-]+)\)$", reason)
    assert found, reason
    return found.group(1)


@pytest.fixture(scope="module")
def opencode_answers(installed, tmp_path_factory) -> dict[str, object]:
    """Every row through the installed opencode plugin, in Node: the reason it throws, or None."""
    if NODE is None:
        pytest.skip("node is not installed (the e2e setup installs it)")
    project = installed["project"]
    plugin = project / ".opencode" / "plugins" / "hookwright-git-guard.js"
    copy = plugin.with_name("table-harness-plugin.mjs")  # Node reads a .js file beside no package.json as CommonJS
    copy.write_bytes(plugin.read_bytes())
    export = re.search(r"export const (\w+)", plugin.read_text()).group(1)
    calls = [["bash", {"command": command, "description": "run it"}] for command, _ in ROWS]
    harness = plugin.with_name("table-harness.mjs")
    harness.write_text(
        f"import {{ {export} as plugin }} from './{copy.name}';\n"
        f"const hooks = await plugin({{ directory: {json.dumps(str(project))} }});\n"
        "const results = [];\n"
        f"for (const [tool, args] of {json.dumps(calls)}) {{\n"
        "  try { await hooks['tool.execute.before']({ tool, sessionID: 's1', callID: 'c1' }, { args }); results.push(null); }\n"
        "  catch (error) { results.push(error.message); }\n"
        "}\n"
        "console.log(JSON.stringify(results));\n")
    log = tmp_path_factory.mktemp("opencode-log") / "hooks.log"
    try:
        done = subprocess.run([NODE, harness.name], cwd=harness.parent, capture_output=True, text=True, timeout=600,
                              env={**os.environ, **installed["env"], "HOOKWRIGHT_LOG": str(log)})
    finally:
        copy.unlink()
        harness.unlink()
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines() if log.exists() else []
    return {"answers": dict(zip([command for command, _ in ROWS], json.loads(done.stdout))), "log": lines}


def row_id(row: tuple) -> str:
    return row[0][:60].replace("\n", "\\n") or "(empty)"


def test_the_table_holds_at_least_150_commands_each_once():
    commands = [command for command, _ in ROWS]
    assert len(commands) >= 150 and len(set(commands)) == len(commands)
    assert sum(expected is None for _, expected in ROWS) >= 50  # safe twins and harmless commands


@pytest.mark.parametrize("host", ["claude", "claude-skill", "cursor"])
@pytest.mark.parametrize("command, expected", ROWS, ids=[row_id(row) for row in ROWS])
def test_git_guard_decides_each_command_on_each_hosts_payload(installed, tmp_path, host, command, expected):
    log = tmp_path / "hooks.log"
    rule = rule_of(answer(host, command, installed, log))

    assert rule == (None if expected == UNFOLLOWED else expected)
    lines = log.read_text().splitlines() if log.exists() else []
    if expected == UNFOLLOWED:
        assert len(lines) == 1 and "let through what it cannot follow" in lines[0], lines
    else:
        assert lines == []


@pytest.mark.parametrize("command, expected", ROWS, ids=[row_id(row) for row in ROWS])
def test_git_guard_decides_each_command_in_opencodes_plugin(opencode_answers, command, expected):
    reason = opencode_answers["answers"][command]
    assert rule_of(reason) == (None if expected == UNFOLLOWED else expected)


def test_opencode_logs_only_what_it_cannot_follow(opencode_answers):
    unfollowed = [command for command, expected in ROWS if expected == UNFOLLOWED]
    assert len(opencode_answers["log"]) == len(unfollowed)
    assert all("let through what it cannot follow" in line for line in opencode_answers["log"])


@pytest.mark.parametrize("command", [command for command, expected in ROWS if expected == UNFOLLOWED])
def test_deny_unparsed_denies_what_cannot_be_followed_and_says_why(installed, tmp_path, command):
    reason = answer("claude", command, installed, tmp_path / "hooks.log", "--option", "deny_unparsed=true")
    assert reason is not None and "cannot be checked to the end" in reason and "deny_unparsed" in reason


@pytest.mark.parametrize("command", ["git status", "git push origin main", "git stash list", "ls", "g=git; $g log"])
def test_deny_unparsed_lets_through_what_it_follows(installed, tmp_path, command):
    assert answer("claude", command, installed, tmp_path / "hooks.log", "--option", "deny_unparsed=true") is None

"""hookwright doctor: every hook config checked, conflicts between hooks found.

A run goes through five stages, one module each, in this order:

    discovery.py   which files: every scope of every host, the plugins they enable, or the files given
    load.py        each file read strictly into a ConfigFile, with the handlers its host would load
    model.py       the words every check speaks: Context, Finding, the rule catalog, and the hooks'
                   words it re-exports (ConfigFile, Handler: installer/hooks/model.py)
    run.py         the checks over one Context (parallel.py shares many projects out between
                   processes), and the machine's own files a project's run together with (around)
    report.py      the findings for people (text), programs (JSON) and code scanning (SARIF),
                   those asked for (--select, --ignore, the project's config: Selection)

The checks (checks/, one module per rule family, the rules' text in rules/*.toml) read what
the layer below doctor and simulate knows (installer/hooks: what the hosts accept, matchers as
regular expressions, which handlers fire on a call, which copies run once, what an answer
means), and what the analysis units know:

    handler_facts.py   one handler beyond its JSON: what its command runs, what its script prints
    shell/             the shell reader: a command's words and a script's tree (lex), what each
                       simple command runs and which failures fail the hook (resolve, its entry)
    scripts/           the script reader: the keys a script prints (keys), its statements around
                       them (flow), opencode plugins (plugins), and --probe, which runs them (probe, through
                       installer/hooks: as simulate runs them)
    dedup.py           copies of one hook across a configuration: which of them run, and how often
    disk.py            the file system, asked once per path in a run

A doctor run on a typical project should cost little more than starting typer, and most of its
time is the first use of its code. So its classes are plain ones with an __init__, and a
record (installer/records.py: a tuple with named fields) where a value is compared, hashed,
sorted or copied with _replace (Finding, Place, Where): a dataclass writes and compiles its
methods when it is defined, about 0.3 ms each, a typing.NamedTuple 0.2 ms (its annotations
compiled too), a record a few microseconds. Regular expressions compile on first use
(patterns.py).
"""

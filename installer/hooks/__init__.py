"""What fires and what an answer means, below doctor, simulate and list (neither imports the other):

    model.py     the words: a file that holds hooks, a handler as its host loads it, a project's Configs
    events.py    what Claude Code accepts, as tables (events, matchers, handler fields, tools), and Cursor's names
    regex/       matchers as regular expressions: what one can match, where two meet
    firing.py    when the host runs a handler: kill switches, a permission rule (`if`), which copies of
                 one hook it runs once
    calls.py     which handlers run on one call, and the permission rules that still decide it (simulate's)
    payload.py   the payload a hook gets on an event
    running.py   running handlers as the host runs them
    answers.py   what a handler's answer means, and how several combine
"""

"""One plain function per command, each returning a Result with a payload of its own (result.py):
cli.py calls them, output.py prints what they return, planning/apply.py carries out what they plan."""

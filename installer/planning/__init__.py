"""Planning, checking and applying a change: what each writing command would change, computed
from the files as they are and writing nothing (install.py, uninstall.py, rollback.py, into a
plan.py Plan), what it does to doctor's findings (plan_check.py), and consent and the writes
(apply.py). A command module names the steps."""

"""The compiled programs of the patterns installer/patterns.py defines, one module per regex
engine (sre_<_sre.MAGIC>.py: each Python minor version has its own), built by
scripts/build_regex_programs.py. Generated: rebuild them after editing a pattern, never edit them."""

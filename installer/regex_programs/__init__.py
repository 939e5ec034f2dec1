"""The compiled programs of the patterns installer/patterns.py defines, by regex engine
(_sre.MAGIC: each Python minor version has its own; those that compile alike share a module),
built by scripts/build_regex_programs.py. Generated: rebuild them after editing a pattern, never
edit them."""

# _sre.MAGIC: the module with that engine's programs (engines that compile alike share one)
ENGINES = {
    20171005: 'sre_20171005',
    20220615: 'sre_20220615',
    20221023: 'sre_20220615',
    20230612: 'sre_20220615',
}

"""The rules, one module per family: each module's check(ctx) yields its findings, and where a
model.RuleTable holds its rules (commands, matchers, structure's handler rules), each rule is one function."""

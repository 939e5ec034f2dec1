from installer.cli import entry

entry()

"""hookwright: install, check and remove the hooks of AI coding agents."""

__version__ = "0.1.0"

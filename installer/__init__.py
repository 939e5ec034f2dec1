"""hookwright: install, check and remove the hooks of AI coding agents."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("hookwright")
except PackageNotFoundError:  # running from a source checkout
    __version__ = "0.0.0+source"

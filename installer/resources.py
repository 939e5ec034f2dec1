"""Where the bundled templates and schemas are: inside the wheel, or at the repo root."""
from __future__ import annotations

import json
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

from . import safe_read
from .errors import HookwrightError
from .patterns import lazy

TOML_ERROR_PLACE = lazy(r" ?\(at line (\d+), column (\d+)\)")  # as tomllib words it


@cache
def data_root() -> Path:
    """installer/_data in a wheel (the package is always a plain folder: we read the data as files,
    so the cost of importlib.resources.files, a tenth of a small doctor run, buys nothing)."""
    here = Path(__file__).resolve().parent
    packaged = here / "_data"
    return packaged if packaged.is_dir() else here.parent


def packs_dir() -> Path:
    return data_root() / "templates" / "packs"


def pack_dirs() -> list[Path]:
    """Where packs are looked up: the bundled ones, then HOOKWRIGHT_PACKS_PATH (your own)."""
    extra = [Path(p) for p in os.environ.get("HOOKWRIGHT_PACKS_PATH", "").split(os.pathsep) if p]
    return [packs_dir(), *extra]


@cache
def pack_flags() -> dict[str, dict[str, bool]]:
    """Which bundled packs' scripts rewrite input (compiled from their pack.toml: packs.compile_flags)."""
    flags: dict[str, dict[str, bool]] = json.loads(bundled_text("templates", "packs", "flags.json"))
    return flags


def bundled_text(*parts: str) -> str:
    """One of hookwright's own files (a template, a schema, the rule catalog), as text."""
    return safe_read.read(data_root().joinpath(*parts), safe_read.BUNDLED).decode("utf-8")


def runtime_dir() -> Path:
    return data_root() / "templates" / "runtime"


@cache
def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(bundled_text("schemas", name))
    return loaded


def schema_errors(name: str, data: Any) -> list[Any]:
    """jsonschema-rs's errors for `data` against schemas/<name>, without loading jsonschema-rs
    when the data is valid (the common case, told apart by installer/valid.py)."""
    from . import valid

    try:
        if valid.valid(schema(name), data):
            return []
    except valid.Unsure:
        pass
    try:
        return list(validator(name).iter_errors(data))
    except UnicodeEncodeError:  # a lone surrogate ("Pre\udc00"), which no Rust string holds: checked as U+FFFD
        return list(validator(name).iter_errors(encodable(data)))


def encodable(data: Any) -> Any:
    """`data` with every lone surrogate in its strings (keys too) made U+FFFD, as a host's UTF-8
    encoder writes it (and as jsonschema-rs sees it)."""
    if isinstance(data, str):
        return data if data.isascii() else "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in data)
    if isinstance(data, dict):
        return {encodable(key): encodable(value) for key, value in data.items()}
    if isinstance(data, list):
        return [encodable(item) for item in data]
    return data


@cache
def validator(name: str) -> Any:
    """The compiled validator of schemas/<name> (its `$schema` picks the draft). jsonschema-rs:
    the pure-Python jsonschema takes longer to import than doctor takes to check a settings file.
    Its errors carry `instance_path` and `message`. "format" stays an annotation, as the drafts
    say by default: no host checks a URL's form."""
    import jsonschema_rs  # (a schema check only: 20 ms on doctor's start otherwise, python -X importtime)

    return jsonschema_rs.validator_for(schema(name), validate_formats=False)


def read_toml(path: Path, hint: str, kind: safe_read.Kind) -> dict[str, Any]:
    """A TOML file of the user's or a pack's (`kind`: its safe_read.Kind); a syntax error names
    its line and column."""
    return toml_from(path, safe_read.read(path, kind), hint)


def toml_from(path: Path, raw: bytes, hint: str) -> dict[str, Any]:
    """TOML from a file's bytes; text that is not UTF-8 or not TOML is an error naming the place."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib

    try:
        data: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
        return data
    except UnicodeDecodeError as error:
        raise HookwrightError(f"cannot read {path.name}: {error}", path=path, hint=hint) from None
    except tomllib.TOMLDecodeError as error:
        where = TOML_ERROR_PLACE.search(str(error))
        said = str(error).replace(where[0], "") if where else str(error)  # (the location says where)
        raise HookwrightError(f"invalid TOML: {said}", path=path, line=int(where[1]) if where else None,
                              column=int(where[2]) if where else None, hint=hint) from None

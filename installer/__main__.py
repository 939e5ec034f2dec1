"""The `hookwright` program: `python -m hookwright`, and the console script's `main`.

The cyclic garbage collector goes off before the first import, and stays off: a one-shot
process frees what a command drops by reference counting, and each collection would only
rescan the objects that importing typer and the checks makes (none of them garbage), then a
config's many small objects over and over (a fifth of doctor's time on the corpus)."""
import gc


def main() -> None:
    gc.disable()
    from .cli import entry

    entry()


if __name__ == "__main__":
    main()

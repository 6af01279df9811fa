"""``python -m vizgrad``: the same command as ``vizgrad``."""

from .cli.commands import main

if __name__ == "__main__":  # pragma: no branch
    main(prog_name="vizgrad")

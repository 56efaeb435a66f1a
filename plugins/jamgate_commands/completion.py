"""`jamgate completion SHELL`: a shell completion script generated from the parser (shtab).

The script is static: pressing TAB runs no Python. It covers every command a plugin installed
when it was generated, so it is regenerated after adding a plugin.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from jamgate_core.cli import EXIT_OK
from jamgate_core.hookspecs import hookimpl

if TYPE_CHECKING:
    from jamgate_core.contracts import Register

SHELLS = ("bash", "zsh", "fish", "tcsh", "powershell")
HOW = ("bash: eval \"$(jamgate completion bash)\" in ~/.bashrc; "
       "zsh: jamgate completion zsh > ~/.zfunc/_jamgate (a folder on $fpath); "
       "fish: jamgate completion fish > ~/.config/fish/completions/jamgate.fish")


def _completion(args: argparse.Namespace) -> int:
    import shtab

    from jamgate_core.cli import build_parser

    print(shtab.complete(build_parser(), shell=args.shell))
    return EXIT_OK


@hookimpl
def jamgate_register_commands(register: Register) -> None:
    command = register(
        "completion", "print a shell completion script for jamgate", _completion,
        description=f"Print a completion script for SHELL on stdout. {HOW}.")
    command.add_argument("shell", choices=SHELLS)

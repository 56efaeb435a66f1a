"""`jamgate completion`: the generated bash script, sourced in a real bash, completes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def script(shell: str) -> str:
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "completion", shell],
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


def complete_in_bash(tmp_path: Path, words: list[str]) -> list[str]:
    """COMPREPLY after TAB on the last of `words`, through the function `complete` registered."""
    (tmp_path / "jamgate.bash").write_text(script("bash"))
    words_list = " ".join(f"'{w}'" for w in words)
    program = (f"source {tmp_path / 'jamgate.bash'}\n"
               "function=$(complete -p jamgate | sed -E 's/.* -F ([^ ]+) .*/\\1/')\n"
               f"COMP_WORDS=({words_list}); COMP_CWORD={len(words) - 1}\n"
               'COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}\n'
               '"$function" jamgate "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"\n'
               'printf "%s\\n" "${COMPREPLY[@]}"\n')
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_bash_completes_a_command_name(tmp_path: Path) -> None:
    assert complete_in_bash(tmp_path, ["jamgate", "comp"]) == ["compact", "completion"]
    assert "recall" in complete_in_bash(tmp_path, ["jamgate", ""])


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_bash_completes_an_option_and_a_choice(tmp_path: Path) -> None:
    assert complete_in_bash(tmp_path, ["jamgate", "recall", "--li"]) == ["--limit"]
    assert complete_in_bash(tmp_path, ["jamgate", "list", "--status", "sup"]) == ["superseded"]


@pytest.mark.parametrize("shell", ["zsh", "fish", "tcsh", "powershell"])
def test_every_shell_gets_the_commands(shell: str) -> None:
    text = script(shell)
    assert "recall" in text and "completion" in text and "--status" in text


def test_an_unknown_shell_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "completion", "csh"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "invalid choice" in done.stderr

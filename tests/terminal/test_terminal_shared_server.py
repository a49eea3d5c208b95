"""The SSH wrapper in docs/shared-server.md, run as written: a terminal, private saves, refusals."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from stored import stored_records
from termhelpers import Pane, needs_tmux, wait_until

DOC = Path(__file__).resolve().parents[2] / "docs" / "shared-server.md"


def wrapper_script() -> str:
    """The shell script that follows `<!-- cubilete-ssh -->` in the doc."""
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- cubilete-ssh -->\s*```sh\n(.*?)```", text, re.DOTALL)
    assert match, "docs/shared-server.md lost its cubilete-ssh wrapper"
    return match.group(1)


@pytest.fixture
def installed(tmp_path: Path) -> dict[str, str]:
    """The wrapper and a `cubilete` command on PATH, a fresh home: the environment sshd gives."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "cubilete-ssh"
    wrapper.write_text(wrapper_script(), encoding="utf-8")
    command = bin_dir / "cubilete"
    command.write_text(f'#!/bin/sh\nexec {sys.executable} -m app "$@"\n', encoding="utf-8")
    for path in (wrapper, command):
        path.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    return {
        "wrapper": str(wrapper),
        "HOME": str(home),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
    }


def run_without_terminal(installed: dict[str, str], **env: str) -> subprocess.CompletedProcess:
    environment = os.environ | {"HOME": installed["HOME"], "PATH": installed["PATH"]} | env
    environment.pop("XDG_DATA_HOME", None)
    return subprocess.run(
        ["/bin/sh", installed["wrapper"]],
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=20,
    )


def test_without_a_terminal_the_wrapper_says_to_use_ssh_t(installed):
    result = run_without_terminal(installed)
    assert result.returncode == 1
    assert "ssh -t" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("name", ["../ana", "ana bruno", "ana;rm", "ana/x"])
def test_a_player_name_that_is_not_a_plain_word_is_refused(installed, name):
    result = run_without_terminal(installed, CUBILETE_PLAYER=name)
    assert result.returncode == 1
    assert not (Path(installed["HOME"]) / ".local").exists()


@needs_tmux
def test_each_player_key_gets_a_private_data_dir(installed):
    home = Path(installed["HOME"])
    env: dict[str, str | None] = {
        "HOME": str(home),
        "PATH": installed["PATH"],
        "TERM": "xterm-256color",
        "CUBILETE_PLAYER": "ana",
        "XDG_DATA_HOME": None,
        "CUBILETE_DATA_DIR": None,
        "ESCDELAY": None,
    }
    with Pane(80, 24) as pane:
        pane.start(["/bin/sh", installed["wrapper"]], env=env)
        pane.wait_for(r"Start \(F2\)")
        pane.keys("F2")
        pane.wait_for(r"Cubilete — ")
        players = home / ".local" / "share" / "cubilete" / "players"
        ana = players / "ana"
        wait_until(lambda: stored_records(ana), 10, "the game's record")
        files = [ana / "records.db", *ana.glob("records.db-*"), *ana.glob("saves")]
        for path in (players, ana, *files):
            assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path
        pane.keys("C-q")
        assert pane.exit_status() == 0

"""The command line: bad input is a clear error on stderr, never a crash or a silent fallback."""

from __future__ import annotations

import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=60
    )


def test_a_die_face_out_of_range_is_refused_with_the_reason():
    result = run("--dice", "3,7,2")
    assert result.returncode == 2
    assert "'7' is not a die face (1 to 6)" in result.stderr
    assert result.stdout == ""


def test_loaded_and_seeded_dice_do_not_mix():
    result = run("--dice", "1,2", "--seed", "3")
    assert result.returncode == 2
    assert "--dice and --seed cannot be used together" in result.stderr


def test_an_unknown_game_is_refused():
    result = run("--game", "chess")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_python_dash_m_app_is_the_cubilete_command():
    result = run("--help")
    assert result.returncode == 0
    assert "cubilete" in result.stdout
    assert "--dice" in result.stdout

"""The SSH wrapper in docs/shared-server.md, run as written: a terminal, private saves, refusals."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from stored import stored_records
from termhelpers import Pane, needs_tmux, wait_until

DOC = Path(__file__).resolve().parents[2] / "docs" / "shared-server.md"


def guide_block(marker: str) -> str:
    """The shell block that follows `<!-- marker -->` in the guide."""
    text = DOC.read_text(encoding="utf-8")
    match = re.search(rf"<!-- {marker} -->\s*```sh\n(.*?)```", text, re.DOTALL)
    assert match, f"docs/shared-server.md lost its {marker} block"
    return match.group(1)


def wrapper_script() -> str:
    """The shell script that follows `<!-- cubilete-ssh -->` in the doc."""
    return guide_block("cubilete-ssh")


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


# -- the guide, as written, on a Debian machine ---------------------------------------------
REPO = DOC.parents[1]
SYSTEM_PATHS = {
    "/opt/cubilete": "opt/cubilete",
    "/usr/local/bin/": "bin/",
    "/etc/ssh/sshd_config.d/": "sshd_config.d/",
}
"""Where the guide installs, and where under its own folder this test installs instead."""
DEBIAN_TOOLS = ("apt-get", "useradd", "userdel", "passwd", "runuser", "getent", "install")

needs_root = pytest.mark.skipif(
    os.geteuid() != 0,
    reason="runs the guide's commands, which create Unix users and install for all of them: "
    "needs root (CI runs the tests as root)",
)
needs_debian = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in DEBIAN_TOOLS) or not Path("/usr/bin/python3").exists(),
    reason=f"the guide is written for Debian: needs {', '.join(DEBIAN_TOOLS)} and /usr/bin/python3",
)


@pytest.fixture
def machine() -> Iterator[tuple[Path, dict[str, str]]]:
    """A folder every user can reach that stands for the guide's system paths, and unique
    names for the accounts the test creates. The accounts and the folder go afterwards."""
    root = Path(tempfile.mkdtemp(prefix="cubilete-guide-", dir="/tmp"))
    root.chmod(0o755)
    roles = ("account", "player", "server")
    users = {role: f"cubi{role[0]}{uuid.uuid4().hex[:8]}" for role in roles}
    try:
        yield root, users
    finally:
        for name in users.values():
            subprocess.run(["userdel", "--remove", name], capture_output=True, check=False)
        shutil.rmtree(root, ignore_errors=True)


ACCOUNTS = {"ACCOUNT": "cubilete", "SERVER_ACCOUNT": "cubilete-server"}
"""The guide's two accounts: the players' SSH account, and the system user of the server."""


def as_written_here(block: str, root: Path, names: dict[str, str]) -> str:
    """A block of the guide with its system paths moved under `root` and its account names
    made unique (`names`: the guide's variable -> this test's name); every command stays as
    written."""
    for path, here in SYSTEM_PATHS.items():
        block = block.replace(path, f"{root}/{here}")
    block = block.replace("/path/to/a/clone/of/cubilete", str(root / "src"))
    for variable, name in ACCOUNTS.items():
        assert f"\n{variable}=" not in f"\n{block}" or f"\n{variable}={name}\n" in f"\n{block}"
        block = re.sub(rf"(?m)^{variable}={name}$", f"{variable}={names[variable]}", block)
    return block


@needs_root
@needs_debian
def test_the_guide_as_written_installs_for_every_user_and_a_locked_account(machine):
    root, users = machine
    account, player, server = users["account"], users["player"], users["server"]
    shutil.copytree(  # what a clone holds
        REPO,
        root / "src",
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "*.egg-info", "build", "__pycache__", ".*_cache"
        ),
    )
    for folder in ("bin", "sshd_config.d"):
        (root / folder).mkdir()
    wrapper = root / "bin" / "cubilete-ssh"  # "install this wrapper as .../cubilete-ssh (755)"
    wrapper.write_text(guide_block("cubilete-ssh"), encoding="utf-8")
    wrapper.chmod(0o755)
    markers = ("install", "account", "sshd", "server-account", "postgres-extra")
    written = [guide_block(marker) for marker in markers]  # (in the guide's order)
    text = DOC.read_text(encoding="utf-8")
    assert [text.index(f"<!-- {marker} -->") for marker in markers] == sorted(
        text.index(f"<!-- {marker} -->") for marker in markers
    )
    for path in SYSTEM_PATHS:  # (the guide still installs where this test expects it to)
        assert any(path in block for block in written), path
    # the server runs as its own system user, never as the players' account
    unit = re.search(r"<!-- cubilete-server-unit -->\s*```ini\n(.*?)```", text, re.DOTALL)
    assert unit is not None
    assert re.findall(r"(?m)^(User|Group)=(.*)$", unit.group(1)) == [
        ("User", ACCOUNTS["SERVER_ACCOUNT"]),
        ("Group", ACCOUNTS["SERVER_ACCOUNT"]),
    ]
    assert ACCOUNTS["SERVER_ACCOUNT"] != ACCOUNTS["ACCOUNT"]
    names = {"ACCOUNT": account, "SERVER_ACCOUNT": server}
    blocks = [as_written_here(block, root, names) for block in written]
    environment = os.environ | {"PATH": f"{root / 'bin'}:{os.environ['PATH']}"}  # root's PATH
    run = subprocess.run(
        ["/bin/sh", "-e", "-c", "\n".join(blocks)],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "cubilete runs for every user" in run.stdout, run.stderr[-3000:]

    # another user (one that did not exist when root installed) runs the game too
    subprocess.run(["useradd", "--no-create-home", player], check=True)
    other = subprocess.run(
        ["runuser", "-u", player, "--", str(root / "bin" / "cubilete"), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert other.returncode == 0, other.stderr
    # with the postgres extra, from the clone as the guide installs it
    python = str(root / "opt" / "cubilete" / "bin" / "python")
    extra = subprocess.run(
        ["runuser", "-u", player, "--", python, "-c", "import psycopg"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert extra.returncode == 0, extra.stderr
    # the server's own account: a system user with a group of its own, and no login
    entry = subprocess.run(["getent", "passwd", server], capture_output=True, text=True)
    _name, _pw, uid, gid, _gecos, home, shell = entry.stdout.strip().split(":")
    assert (home, shell) == ("/var/lib/cubilete", "/usr/sbin/nologin")
    group = subprocess.run(["getent", "group", gid], capture_output=True, text=True)
    assert group.stdout.split(":")[0] == server

    # the account: a shell, a home of its own, a locked password, root's ~/.ssh
    entry = subprocess.run(["getent", "passwd", account], capture_output=True, text=True)
    _name, _pw, uid, _gid, _gecos, home, shell = entry.stdout.strip().split(":")
    assert shell == "/bin/sh"
    assert Path(home).stat().st_uid == int(uid)
    status = subprocess.run(["passwd", "--status", account], capture_output=True, text=True)
    assert status.stdout.split()[1] == "L", status.stdout  # locked
    for path, mode in (
        (Path(home) / ".ssh", 0o750),
        (Path(home) / ".ssh" / "authorized_keys", 0o640),
    ):
        info = path.stat()
        assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (0, mode), path

    # sshd gives the account the wrapper and nothing else
    conf = (root / "sshd_config.d" / "cubilete.conf").read_text(encoding="utf-8")
    assert f"Match User {account}\n    ForceCommand {wrapper}\n" in conf
    assert conf.rstrip().endswith("Match all")

    # and the account, through the wrapper in a terminal, plays and saves privately
    if shutil.which("tmux") is None:
        return
    player_env = f"TERM=xterm-256color CUBILETE_PLAYER=ana PATH={environment['PATH']}"
    with Pane(80, 24) as pane:
        pane.start(
            ["runuser", "-u", account, "--", "/bin/sh", "-c", f"env {player_env} {wrapper}"],
            env={"XDG_DATA_HOME": None, "CUBILETE_DATA_DIR": None},
        )
        pane.wait_for(r"Start \(F2\)", timeout=30)
        pane.keys("F2")
        pane.wait_for(r"Cubilete — ")
        ana = Path(home) / ".local" / "share" / "cubilete" / "players" / "ana"
        # (not opened here: root's own connection could leave root's files beside it)
        wait_until(lambda: list(ana.glob("records.db-wal")), 10, "the game's records")
        for path in (ana, ana / "records.db", *ana.glob("records.db-*"), *ana.glob("saves")):
            info = path.stat()
            assert info.st_uid == int(uid), path
            assert stat.S_IMODE(info.st_mode) & 0o077 == 0, path
        pane.keys("C-q")
        assert pane.exit_status() == 0

"""Autosave (app/saves.py, app/locations.py): atomic writes, and damaged saves left untouched."""

from __future__ import annotations

import json
import os
import random
import stat
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from waiting import wait_until

from app import saves
from app.dice import LoadedDice, RandomDice
from app.locations import StorageError, data_dir, saves_dir
from app.table import Seat, Table
from kits import KITS
from rules.generala import Box, Fill, Roll


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """Every test gets its own data dir; nothing touches the real one."""
    home = tmp_path / "cubilete-data"
    monkeypatch.setenv("CUBILETE_DATA_DIR", str(home))
    return home


def started_table(*names: str) -> Table:
    table = Table.new(
        "generala", [Seat(name=n) for n in names], dice=LoadedDice([6, 1, 2, 2, 2, 5, 5])
    )
    table.act(Roll())
    return table


def finished_table() -> Table:
    table = Table.new("generala", [Seat(name="Solo")], dice=RandomDice(5))
    while not table.over:
        table.act(Roll())
        table.act(next(a for a in table.game.legal_actions(table.state) if isinstance(a, Fill)))
    return table


def save_files(directory):
    return sorted(p.name for p in directory.iterdir())


# -- where saves live -------------------------------------------------------------------------


def test_the_data_dir_is_created_private_to_the_user(data_home):
    assert not data_home.exists()
    assert data_dir() == data_home
    assert stat.S_IMODE(data_home.stat().st_mode) == 0o700
    assert stat.S_IMODE(saves_dir().stat().st_mode) == 0o700
    assert saves_dir() == data_home / "saves"


# -- writing and reading ----------------------------------------------------------------------


def test_a_saved_table_reads_back_exactly():
    table = started_table("Ana", "Beto")
    path = saves.write(table)
    assert path.parent == saves_dir()
    saved = saves.read(path)
    assert saved.game_id == "generala"
    assert saved.seats == table.seats
    assert saved.state == table.state
    assert saved.log == tuple(table.log)
    assert saved.save_id == table.save_id
    assert not saved.over
    assert saved.summary() == "Generala with Ana, Beto"


def test_a_read_save_plays_on_where_it_stopped():
    table = started_table("Ana", "Beto")
    resumed = saves.read(saves.write(table)).table(LoadedDice([]))
    resumed.act(Fill(box=Box.FULL))
    assert resumed.state.sheets[0][8] == 25
    assert resumed.current_player() == 1
    assert resumed.save_id == table.save_id


def test_saving_again_replaces_the_same_file():
    table = started_table("Ana", "Beto")
    first = saves.write(table)
    table.act(Fill(box=Box.FULL))
    assert saves.write(table) == first
    assert saves.read(first).state == table.state
    assert save_files(saves_dir()) == [first.name]


def test_an_atomic_write_leaves_no_temporary_file():
    saves.write(started_table("Ana", "Beto"))
    saves.write(started_table("Caro"))
    assert all(name.startswith("game-") for name in save_files(saves_dir()))
    assert len(save_files(saves_dir())) == 2


def test_a_write_that_fails_keeps_the_previous_save_and_leaves_no_temporary_file(monkeypatch):
    table = started_table("Ana", "Beto")
    path = saves.write(table)
    before = path.read_bytes()
    table.act(Fill(box=Box.FULL))

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves.json, "dump", disk_full)
    with pytest.raises(OSError):
        saves.write(table)
    assert path.read_bytes() == before
    assert save_files(saves_dir()) == [path.name]


def test_discard_removes_the_save():
    table = started_table("Ana")
    path = saves.write(table)
    saves.discard(table)
    assert not path.exists()
    saves.discard(table)


# -- scanning ---------------------------------------------------------------------------------


def test_scan_offers_unfinished_games_newest_first():
    old, new, done = started_table("Ana"), started_table("Beto"), finished_table()
    for mtime, table in ((1_000_000, old), (3_000_000, new), (4_000_000, done)):
        path = saves.write(table)
        os.utime(path, (mtime, mtime))
    games, errors = saves.scan()
    assert [g.save_id for g in games] == [new.save_id, old.save_id]
    assert errors == []


def test_scan_of_an_empty_data_dir_finds_nothing():
    assert saves.scan() == ([], [])


def write_damaged(name: str, content: bytes):
    path = saves_dir() / name
    path.write_bytes(content)
    return path


def good_save_data() -> dict:
    return json.loads(saves.write(started_table("Ana", "Beto")).read_bytes())


def damaged_saves() -> dict[str, bytes]:
    data = good_save_data()
    wrong_format = {**data, "format": 99}
    unknown_game = {**data, "game": "parchis"}
    bad_state = {**data, "state": {**data["state"], "round": "thirteen"}}
    no_seats = {k: v for k, v in data.items() if k != "seats"}
    return {
        "game-corrupt.json": b'{"format": 1, "game": "gener',
        "game-not-utf8.json": b"\xff\xfe\x00garbage",
        "game-a-list.json": b"[1, 2, 3]",
        "game-wrong-format.json": json.dumps(wrong_format).encode(),
        "game-unknown-game.json": json.dumps(unknown_game).encode(),
        "game-hand-edited.json": json.dumps(bad_state).encode(),
        "game-no-seats.json": json.dumps(no_seats).encode(),
    }


def test_damaged_saves_are_reported_with_their_path_and_left_byte_for_byte():
    contents = damaged_saves()
    damaged = {name: write_damaged(name, content) for name, content in contents.items()}
    stamps = {name: path.stat().st_mtime_ns for name, path in damaged.items()}
    games, errors = saves.scan()
    assert len(games) == 1, "the good save is still offered"
    assert sorted(e.path.name for e in errors) == sorted(damaged)
    assert all(e.reason for e in errors)
    for name, content in contents.items():
        assert damaged[name].read_bytes() == content
        assert damaged[name].stat().st_mtime_ns == stamps[name]


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("game-corrupt.json", "not a readable save"),
        ("game-a-list.json", "not a Cubilete save"),
        ("game-wrong-format.json", "saved in format 99, this version reads 1"),
        ("game-unknown-game.json", "damaged save"),
        ("game-hand-edited.json", "damaged save"),
        ("game-no-seats.json", "damaged save"),
    ],
)
def test_each_kind_of_damage_is_explained(name, reason):
    path = write_damaged(name, damaged_saves()[name])
    with pytest.raises(saves.SaveError, match=reason) as error:
        saves.read(path)
    assert error.value.path == path


def test_a_save_whose_seats_do_not_match_the_players_is_damaged():
    data = good_save_data()
    data["seats"] = data["seats"][:1]
    path = write_damaged("game-one-seat.json", json.dumps(data).encode())
    with pytest.raises(saves.SaveError, match="seats do not match"):
        saves.read(path)


def test_a_hand_edited_state_that_contradicts_itself_is_reported_not_offered():
    data = good_save_data()
    data["state"]["sheets"] = data["state"]["sheets"][:1]
    content = json.dumps(data).encode()
    path = write_damaged("game-one-sheet.json", content)
    saved_path = saves.path_for(data["save_id"])
    saved_path.unlink()
    games, errors = saves.scan()
    assert games == []
    assert [e.path for e in errors] == [path]
    assert path.read_bytes() == content


# -- a saves folder nobody can trust (issue 16: items 4, 5, 7, 8) ----------------------------

READ_TIMEOUT = 60
"""Seconds a scan in a child process may take; a hang (a FIFO opened for reading) fails."""


def scan_in_a_child(data_home, memory_limit: int | None = None) -> dict:
    """`saves.scan()` in a process of its own, so that a hang or a runaway read fails the
    test instead of stopping it: what it offered and reported."""
    script = (
        "import json, resource, sys\n"
        "limit = int(sys.argv[1])\n"
        "if limit: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
        "from app import saves\n"
        "games, errors = saves.scan()\n"
        "json.dump({'games': [g.save_id for g in games],\n"
        "           'errors': {e.path.name: e.reason for e in errors}}, sys.stdout)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(memory_limit or 0)],
        capture_output=True,
        text=True,
        timeout=READ_TIMEOUT,
        env={**os.environ, "CUBILETE_DATA_DIR": str(data_home)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_a_save_nested_deeper_than_python_can_recurse_is_reported_not_fatal():
    data = good_save_data()
    deep = b"[" * 100_000 + b"]" * 100_000
    just_parsable = b"[" * 990 + b"]" * 990
    in_the_state = json.dumps({**data, "state": {**data["state"], "round": "R"}}).encode()
    in_the_state = in_the_state.replace(b'"R"', just_parsable)
    in_the_log = json.dumps({**data, "log": "LOG"}).encode()
    in_the_log = in_the_log.replace(b'"LOG"', b"[" * 900 + b"]" * 900)
    contents = {
        "game-deep.json": deep,
        "game-deep-state.json": in_the_state,
        "game-deep-log.json": in_the_log,
    }
    for name, content in contents.items():
        write_damaged(name, content)
    games, errors = saves.scan()
    assert len(games) == 1, "the good save is still offered"
    assert {e.path.name: e.reason for e in errors}.keys() == contents.keys()
    for name, content in contents.items():
        assert (saves_dir() / name).read_bytes() == content


def test_dangling_links_and_link_loops_are_reported_and_left_alone():
    table = started_table("Ana", "Beto")
    saves.write(table)
    folder = saves_dir()
    (folder / "game-dangling.json").symlink_to(folder / "game-gone.json")
    (folder / "game-loop-a.json").symlink_to(folder / "game-loop-b.json")
    (folder / "game-loop-b.json").symlink_to(folder / "game-loop-a.json")
    games, errors = saves.scan()
    assert [g.save_id for g in games] == [table.save_id]
    reasons = {e.path.name: e.reason for e in errors}
    assert reasons["game-dangling.json"] == "a link to a file that does not exist"
    assert reasons["game-loop-a.json"] == "a link that loops back on itself"
    assert reasons["game-loop-b.json"] == "a link that loops back on itself"
    assert all(os.path.islink(folder / name) for name in reasons)


def test_a_link_to_a_save_in_the_same_folder_is_read_but_never_one_leading_out(tmp_path):
    table = started_table("Ana", "Beto")
    real = saves.write(table)
    folder = saves_dir()
    outside = tmp_path / "elsewhere" / real.name
    outside.parent.mkdir()
    outside.write_bytes(real.read_bytes())
    real.rename(folder / "game-renamed.json.bak")
    (folder / "game-linked.json").symlink_to("game-renamed.json.bak")
    (folder / "game-outside.json").symlink_to(outside)
    games, errors = saves.scan()
    assert [g.path.name for g in games] == ["game-linked.json"]
    assert [e.path.name for e in errors] == ["game-outside.json"]
    assert "outside the saves folder: not followed" in errors[0].reason


def test_a_fifo_in_the_saves_folder_does_not_hang_the_start(data_home):
    table = started_table("Ana", "Beto")
    saves.write(table)
    os.mkfifo(saves_dir() / "game-fifo.json")
    seen = scan_in_a_child(data_home)
    assert seen["games"] == [table.save_id]
    assert seen["errors"] == {"game-fifo.json": "not a regular file (a named pipe)"}
    assert stat.S_ISFIFO(os.lstat(saves_dir() / "game-fifo.json").st_mode)


def test_a_link_to_an_endless_device_is_not_read(data_home):
    """A link to /dev/zero would be read until the memory ran out: the child may use 1 GB."""
    (saves_dir() / "game-zero.json").symlink_to("/dev/zero")
    seen = scan_in_a_child(data_home, memory_limit=1024**3)
    assert seen["games"] == []
    assert seen["errors"] == {
        "game-zero.json": "a link to /dev/zero, outside the saves folder: not followed"
    }


def test_a_save_larger_than_the_cap_is_reported_unread_and_untouched():
    big = saves_dir() / "game-big.json"
    with big.open("wb") as f:  # valid JSON, one byte over the cap
        f.write(b'"')
        f.write(b"x" * (saves.MAX_SAVE_BYTES - 1))
        f.write(b'"')
    stamp = big.stat().st_mtime_ns
    games, errors = saves.scan()
    assert games == []
    assert [(e.path, e.reason) for e in errors] == [
        (big, "larger than 16 MB: not a save Cubilete wrote")
    ]
    assert big.stat().st_size == saves.MAX_SAVE_BYTES + 1
    assert big.stat().st_mtime_ns == stamp


def test_a_folder_named_like_a_save_is_reported():
    (saves_dir() / "game-folder.json").mkdir()
    games, errors = saves.scan()
    assert games == []
    assert [(e.path.name, e.reason) for e in errors] == [
        ("game-folder.json", "not a regular file (a folder)")
    ]


CHURN = """
import os, sys, time
folder, stop = sys.argv[1], sys.argv[2]
content = open(os.path.join(folder, sys.argv[3]), "rb").read()
n = 0
while not os.path.exists(stop):
    names = [os.path.join(folder, f"game-churn{n}-{i}.json") for i in range(20)]
    for name in names:  # written as the app writes: a temporary file, then a rename
        with open(name + ".part", "wb") as f:
            f.write(content)
        os.replace(name + ".part", name)
    for name in names:
        os.unlink(name)
    n += 1
"""


def test_saves_another_instance_removes_while_this_one_scans_are_skipped(data_home, tmp_path):
    """Another instance writes and removes saves all the time (here: a process doing only
    that); a scan never fails on one that went away between the listing and the reading,
    and never reports it."""
    table = started_table("Ana", "Beto")
    kept = saves.write(table)
    stop = tmp_path / "stop"
    churn = subprocess.Popen(
        [sys.executable, "-c", CHURN, str(saves_dir()), str(stop), kept.name],
        stderr=subprocess.PIPE,
    )
    try:
        wait_until(lambda: len(list(saves_dir().glob("game-churn*"))) > 5, 30, "the churn")
        for _ in range(150):
            games, errors = saves.scan()
            assert errors == []
            assert table.save_id in {g.save_id for g in games}
    finally:
        stop.touch()
        churn.wait(timeout=30)
    assert churn.returncode == 0, churn.stderr.read() if churn.stderr else ""


def test_a_data_dir_that_is_a_file_is_one_clear_line_and_no_saves(data_home):
    data_home.parent.mkdir(parents=True, exist_ok=True)
    data_home.write_text("not a folder")
    with pytest.raises(StorageError) as error:
        saves.prepare()
    assert str(error.value) == f"{data_home} is not a folder"
    assert saves.scan() == ([], [])
    assert data_home.read_text() == "not a folder"


def test_a_saves_folder_that_is_a_file_is_one_clear_line_and_no_saves(data_home):
    data_home.mkdir(parents=True)
    (data_home / "saves").write_text("not a folder")
    with pytest.raises(StorageError) as error:
        saves.prepare()
    assert str(error.value) == f"{data_home / 'saves'} is not a folder"
    assert saves.scan() == ([], [])


def test_a_data_dir_under_a_file_is_one_clear_line(data_home):
    data_home.parent.mkdir(parents=True, exist_ok=True)
    data_home.parent.joinpath("file").write_text("x")
    os.environ["CUBILETE_DATA_DIR"] = str(data_home.parent / "file" / "data")
    with pytest.raises(StorageError) as error:
        saves.prepare()
    assert str(error.value) == (
        f"cannot create {data_home.parent / 'file' / 'data'}: "
        "a part of the path is a file, not a folder"
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in read-only folders; see test_start")
def test_a_read_only_data_dir_without_saves_is_one_clear_line(data_home):
    data_home.mkdir(mode=0o500, parents=True)
    try:
        with pytest.raises(StorageError) as error:
            saves.prepare()
        assert str(error.value) == f"cannot create {data_home / 'saves'}: permission denied"
        assert saves.scan() == ([], [])
    finally:
        data_home.chmod(0o700)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in read-only folders; see test_start")
def test_a_read_only_saves_folder_still_offers_its_games_but_cannot_be_written(data_home):
    table = started_table("Ana", "Beto")
    saves.write(table)
    saves_dir().chmod(0o500)
    try:
        with pytest.raises(StorageError) as error:
            saves.prepare()
        assert str(error.value) == f"cannot write in {saves_dir()}: permission denied"
        assert [g.save_id for g in saves.scan()[0]] == [table.save_id]
    finally:
        saves_dir().chmod(0o700)


# -- leftovers of killed writes ---------------------------------------------------------------

HALTED_WRITE = """
import os, sys, time
from app import saves
from app.dice import LoadedDice
from app.table import Seat, Table

def halt(fd):  # the data is written, not yet renamed: the moment a kill leaves a leftover
    open(sys.argv[1], "w").close()
    time.sleep(600)

os.fsync = halt
table = Table.new("generala", [Seat(name="Ana")], dice=LoadedDice([6]))
saves.write(table)
"""


def halted_writer(tmp_path, name: str) -> subprocess.Popen[bytes]:
    """A real process in the middle of writing a save (its temporary file written, locked,
    not yet renamed), until it is killed."""
    marker = tmp_path / name
    writer = subprocess.Popen([sys.executable, "-c", HALTED_WRITE, str(marker)])
    wait_until(marker.exists, 60, "the writer to reach the rename")
    return writer


def temp_files() -> list[str]:
    return sorted(n for n in os.listdir(saves_dir()) if n.startswith(".tmp-"))


def test_the_temporary_files_of_killed_writes_are_removed_at_start(tmp_path):
    writers = [halted_writer(tmp_path, f"writer-{i}") for i in range(3)]
    for writer in writers:
        writer.kill()
        writer.wait(timeout=30)
    leftovers = temp_files()
    assert len(leftovers) == 3
    assert all(n.endswith(".json") for n in leftovers)
    others = ["game-x.json.bak", ".tmp-notes.txt", "notes.json", ".hidden.json", "tmp-1.json"]
    for name in others:
        (saves_dir() / name).write_text("mine")
    saves.prepare()
    assert temp_files() == [".tmp-notes.txt"]
    assert all((saves_dir() / name).read_text() == "mine" for name in others)


def test_the_temporary_file_of_a_write_still_going_on_is_kept(tmp_path):
    writer = halted_writer(tmp_path, "writer")
    try:
        (leftover,) = temp_files()
        saves.prepare()  # another instance starts while this one writes
        assert temp_files() == [leftover]
    finally:
        writer.kill()
        writer.wait(timeout=30)
    saves.prepare()
    assert temp_files() == []


def test_a_temporary_name_that_is_a_link_or_a_folder_is_not_ours_and_stays(tmp_path):
    target = tmp_path / "target.json"
    target.write_text("keep")
    (saves_dir() / ".tmp-link.json").symlink_to(target)
    (saves_dir() / ".tmp-dir.json").mkdir()
    saves.prepare()
    assert temp_files() == [".tmp-dir.json", ".tmp-link.json"]
    assert target.read_text() == "keep"


# -- every field checked ----------------------------------------------------------------------


def strictly_damaged() -> dict[str, tuple[dict, str]]:
    """Saves that a lenient reader would take, each with the reason it must be refused."""
    data = good_save_data()
    state = data["state"]
    seat = data["seats"][0]
    return {
        "log-an-object": ({**data, "log": {"a": 1}}, "log is not a list of lines"),
        "log-of-numbers": ({**data, "log": [1, 2]}, "log is not a list of lines"),
        "save-id-a-list": ({**data, "save_id": ["x"]}, 'save_id ["x"] is not a plain name'),
        "save-id-a-path": ({**data, "save_id": "../../x"}, 'save_id "../../x" is not a plain'),
        "save-id-empty": ({**data, "save_id": ""}, 'save_id "" is not a plain name'),
        "save-id-a-number": ({**data, "save_id": 7}, "save_id 7 is not a plain name"),
        "format-true": ({**data, "format": True}, "saved in format true"),
        "format-a-string": ({**data, "format": "1"}, 'saved in format "1"'),
        "format-a-float": ({**data, "format": 1.0}, "saved in format 1.0"),
        "game-a-list": ({**data, "game": ["generala"]}, 'no game called ["generala"]'),
        "unknown-field": ({**data, "extra": 1}, 'unknown field "extra"'),
        "no-save-id": ({k: v for k, v in data.items() if k != "save_id"}, "no save_id"),
        "seats-an-object": ({**data, "seats": {"0": seat}}, "seats is not a list of seats"),
        "seat-name-a-number": (
            {**data, "seats": [{**seat, "name": 7}, data["seats"][1]]},
            "seats.name: Input should be a valid string",
        ),
        "seat-unknown-kind": (
            {**data, "seats": [{**seat, "kind": "god"}, data["seats"][1]]},
            "seats.kind: Input should be",
        ),
        "state-a-list": ({**data, "state": [state]}, "state is not an object"),
        "round-a-string": ({**data, "state": {**state, "round": "1"}}, "state.round:"),
        "round-a-float": ({**data, "state": {**state, "round": 1.0}}, "state.round:"),
        "over-a-number": ({**data, "state": {**state, "over": 0}}, "state.over:"),
        "players-a-string": ({**data, "state": {**state, "players": "AB"}}, "state.players:"),
    }


@pytest.mark.parametrize("kind", list(strictly_damaged()))
def test_every_field_of_a_save_is_checked_strictly(kind):
    data, reason = strictly_damaged()[kind]
    content = json.dumps(data).encode()
    path = write_damaged(f"game-{kind}.json", content)
    with pytest.raises(saves.SaveError) as error:
        saves.read(path)
    assert reason in error.value.reason
    assert path.read_bytes() == content


def test_a_save_id_that_is_not_a_plain_name_never_becomes_a_file_name():
    data = good_save_data()
    for saved in saves_dir().iterdir():
        saved.unlink()
    write_damaged("game-listed.json", json.dumps({**data, "save_id": ["x"]}).encode())
    games, errors = saves.scan()
    assert games == [] and len(errors) == 1
    for bad in (["x"], "../x", "a/b", "", "x" * 65, "é"):
        with pytest.raises(ValueError):
            saves.path_for(bad)  # type: ignore[arg-type]
    assert sorted(p.name for p in saves_dir().iterdir()) == ["game-listed.json"]


# -- any damage at all ------------------------------------------------------------------------


def real_save(game_id: str, moves: int, seed: int) -> dict:
    """The JSON of a save of `game_id`, `moves` random decisions into a game (seeded)."""
    rng = random.Random(seed)
    seats = [Seat(name="Ana"), Seat(name="Beto", kind="easy")]
    table = Table.new(game_id, seats, dice=RandomDice(seed))
    for _ in range(moves):
        if table.over:
            break
        table.act(rng.choice(table.game.legal_actions(table.state)))
    return json.loads(saves.write(table, saves_dir()).read_bytes())


JUNK: list[object] = [
    None,
    True,
    0,
    -1,
    7,
    2**70,
    1.5,
    float("inf"),
    "",
    "x",
    "[/]",
    [],
    {},
    [[[]]],
    {"a": 1},
]


def mutate(data: object, rng: random.Random) -> object:
    """`data` with one random change somewhere in its tree: a value replaced by junk, a key
    dropped or added, a list cut or doubled, a number nudged."""
    if isinstance(data, dict) and data and rng.random() < 0.7:
        key = rng.choice(sorted(data))
        copy = dict(data)
        roll = rng.random()
        if roll < 0.15:
            del copy[key]
        elif roll < 0.25:
            copy[f"extra{rng.randrange(3)}"] = rng.choice(JUNK)
        else:
            copy[key] = mutate(data[key], rng)
        return copy
    if isinstance(data, list) and data and rng.random() < 0.7:
        index = rng.randrange(len(data))
        roll = rng.random()
        if roll < 0.15:
            return data[:index]
        if roll < 0.25:
            return data + data
        return [*data[:index], mutate(data[index], rng), *data[index + 1 :]]
    if type(data) is int and rng.random() < 0.5:
        return data + rng.choice([-1, 1, 6, -6, 100])
    return rng.choice(JUNK)


def read_mutations(game_id: str, seed: int, count: int) -> tuple[int, int]:
    """Read `count` mutations of a real save: each must read as a save or as a SaveError,
    and stay byte for byte as written. Returns (read as saves, refused)."""
    good = real_save(game_id, moves=seed % 40, seed=seed)
    for path in saves_dir().glob("game-*.json"):
        path.unlink()
    rng = random.Random(seed)
    accepted = refused = 0
    for index in range(count):
        content = json.dumps(mutate(good, rng), ensure_ascii=False).encode()
        path = saves_dir() / f"game-mutant-{index}.json"
        path.write_bytes(content)
        try:
            saves.read(path)
            accepted += 1
        except saves.SaveError as error:
            assert error.reason and "\n" not in error.reason
            refused += 1
        assert path.read_bytes() == content
        path.unlink()
    return accepted, refused


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(game_id=st.sampled_from(list(KITS)), seed=st.integers(0, 10**6))
def test_any_change_to_a_real_save_reads_as_a_save_or_as_a_save_error(game_id, seed):
    accepted, refused = read_mutations(game_id, seed, count=20)
    assert accepted + refused == 20


def barco_save_data() -> dict:
    table = Table.new("barco", [Seat(name="Ana"), Seat(name="Beto")], dice=RandomDice(3))
    return json.loads(saves.write(table).read_bytes())


CONTRADICTIONS = {
    "a hand for a seat that does not exist": lambda s: s["hand"].update(seat=5),
    "a player in the round who is not at the table": lambda s: s.update(playing=[0, 1, 7]),
    "nine dice set aside of five": lambda s: s["hand"].update(filled=9),
    "a score sheet shorter than the table": lambda s: s.update(sheet=[[None]]),
}


@pytest.mark.parametrize("contradiction", list(CONTRADICTIONS))
def test_a_well_typed_state_that_contradicts_itself_is_refused_before_play(contradiction):
    """Each field has its type, but play would trip over the state later: the reader plays
    it on a little (seeded) and refuses it now, untouched, instead of offering it."""
    data = barco_save_data()
    CONTRADICTIONS[contradiction](data["state"])
    content = json.dumps(data).encode()
    path = write_damaged("game-contradiction.json", content)
    with pytest.raises(saves.SaveError, match="inconsistent save"):
        saves.read(path)
    assert path.read_bytes() == content

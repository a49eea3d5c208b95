"""A private PostgreSQL cluster for tests and benchmarks: initdb in a temp dir, a Unix socket in
that dir, no TCP, stopped (and its dir removed) at the end.

PostgreSQL refuses to run as root, and CI runs as root: then the cluster runs as the
unprivileged `nobody`, which every Debian system has (no user is made). Otherwise it runs as
the user running the tests.

    with PrivateCluster.start() as cluster:          # None when PostgreSQL is not installed
        url = cluster.new_database()                 # a fresh, empty database
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PORT = 5432
"""Only names the socket file: there is no TCP, and the socket's dir is the cluster's own."""


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin dir (Debian: /usr/lib/postgresql/N/bin), or one
    on the PATH; None if there is none."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0,
    )
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


class PrivateCluster:
    def __init__(self, bin_dir: Path, root: Path, user: pwd.struct_passwd | None) -> None:
        self.bin_dir, self.root, self.user = bin_dir, root, user
        self.data = root / "pg"
        self.log = root / "pg.log"
        self.databases = 0

    @classmethod
    @contextlib.contextmanager
    def start(cls, *, durable: bool = False) -> Iterator[PrivateCluster | None]:
        """A running cluster (None if PostgreSQL is not installed), stopped on exit however
        the block ends. `durable=False` turns fsync off (tests: faster, the same SQL);
        benchmarks of commits want `durable=True`, PostgreSQL's defaults."""
        bin_dir = binaries()
        if bin_dir is None:
            yield None
            return
        user = pwd.getpwnam("nobody") if os.geteuid() == 0 else None
        root = Path(tempfile.mkdtemp(prefix="cubilete-pg-"))
        cluster = cls(bin_dir, root, user)
        try:
            if user is not None:
                os.chown(root, user.pw_uid, user.pw_gid)
            cluster._run("initdb", "-D", str(cluster.data), "-A", "trust", "-U", "pg",
                         "-E", "UTF8", "--locale=C", "--no-sync")  # fmt: skip
            settings = f"-k {root} -p {PORT} -c listen_addresses='' -c max_connections=200"
            if not durable:
                settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            cluster._run("pg_ctl", "-D", str(cluster.data), "-o", settings, "-l",
                         str(cluster.log), "-w", "-t", "60", "start")  # fmt: skip
            yield cluster
        finally:
            if (cluster.data / "postmaster.pid").exists():
                cluster._run("pg_ctl", "-D", str(cluster.data), "-m", "immediate", "-w", "stop",
                             check=False)  # fmt: skip
            shutil.rmtree(root, ignore_errors=True)

    def _run(self, program: str, *args: str, check: bool = True) -> None:
        options: dict[str, Any] = {}
        if self.user is not None:
            options = dict(user=self.user.pw_uid, group=self.user.pw_gid, extra_groups=[])
        done = subprocess.run(
            [str(self.bin_dir / program), *args],
            capture_output=True,
            text=True,
            cwd=self.root,
            env={"PATH": os.environ.get("PATH", ""), "LANG": "C", "LC_ALL": "C"},
            **options,
        )
        if check and done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{program} failed: {done.stderr.strip()}\n{log}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://pg@/{database}?host={self.root}&port={PORT}"

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql)

    def new_database(self) -> str:
        """A new empty database; its URL."""
        self.databases += 1
        name = f"test{self.databases}"
        self.admin(f"CREATE DATABASE {name}")
        return self.url(name)

    def drop(self, url: str) -> None:
        name = url.split("/", 3)[3].split("?")[0]
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

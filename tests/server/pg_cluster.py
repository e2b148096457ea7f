#!/usr/bin/env python3
"""A throwaway PostgreSQL 15 cluster for the scamcheckd tests.

initdb into a directory, a postgres on 127.0.0.1 at a free port with its
socket in that directory, and a fresh database per server under test. As
root, initdb and postgres (which refuse to run as root) run as the
`postgres` user (or `nobody`) through runuser.

  pg_cluster.py start DIR [NAME=VALUE...]   # CTest fixture setup (settings such as
                                            # fsync=off); prints the URL of DIR's cluster
  pg_cluster.py stop DIR                    # CTest fixture cleanup

Without the PostgreSQL binaries `start` prints the skip marker
(SCAMCHECK_SKIP:) and exits 0, unless CI is set: then it fails.
The binaries are looked up in $SCAMCHECK_PG_BIN, else
/usr/lib/postgresql/15/bin.
"""

import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time

BIN = os.environ.get("SCAMCHECK_PG_BIN", "/usr/lib/postgresql/15/bin")


def available():
    return all(os.access(os.path.join(BIN, tool), os.X_OK)
               for tool in ("initdb", "pg_ctl", "postgres", "psql"))


def skip_or_fail(reason):
    """Reports the test skipped (CTest's marker), or fails it under CI."""
    if os.environ.get("CI"):
        print(f"{reason} (CI is set, so a missing tool is a failure)", file=sys.stderr)
        sys.exit(1)
    print("SCAMCHECK_SKIP: " + reason)
    sys.exit(0)


def _run_as():
    """The command prefix that runs a PostgreSQL tool as a user it accepts."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        try:
            user = pwd.getpwnam(name)
            return ["runuser", "-u", name, "--"], user
        except KeyError:
            continue
    raise RuntimeError("running as root without a postgres or nobody user")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A cluster in `directory` (data/, the socket, port and log files)."""

    def __init__(self, directory):
        self.dir = os.path.abspath(directory)
        self.prefix, self.user = _run_as()
        # The server's own files (data, socket, log) live in a directory of
        # /tmp that its user owns: the build tree may sit below a directory
        # that user cannot enter (e.g. a root-only mktemp directory).
        home_file = os.path.join(self.dir, "home")
        self.home = None
        if os.path.exists(home_file):
            with open(home_file) as f:
                self.home = f.read().strip()
        self._paths()
        self.port = None
        port_file = os.path.join(self.dir, "port")
        if os.path.exists(port_file):
            with open(port_file) as f:
                self.port = int(f.read())

    def _paths(self):
        home = self.home or self.dir
        self.data = os.path.join(home, "data")
        self.log = os.path.join(home, "postgres.log")

    def _tool(self, name, *args, check=True, timeout=60):
        return subprocess.run([*self.prefix, os.path.join(BIN, name), *args],
                              capture_output=True, text=True, check=check, timeout=timeout,
                              cwd="/")

    def start(self, port=None, settings=()):
        """initdb (once) and start; returns self."""
        os.makedirs(self.dir, exist_ok=True)
        if self.home is None:
            self.home = tempfile.mkdtemp(prefix="scamcheck-pg-")
            if self.user is not None:
                os.chown(self.home, self.user.pw_uid, self.user.pw_gid)
            with open(os.path.join(self.dir, "home"), "w") as f:
                f.write(self.home)
            self._paths()
        if not os.path.exists(os.path.join(self.data, "PG_VERSION")):
            self._tool("initdb", "-D", self.data, "-A", "trust", "-U", "postgres",
                       "-E", "UTF8", "--locale=C", "--no-sync")
        self.port = port or self.port or _free_port()
        with open(os.path.join(self.dir, "port"), "w") as f:
            f.write(str(self.port))
        options = (f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 "
                   "-c max_connections=200 " + " ".join(f"-c {s}" for s in settings))
        self._tool("pg_ctl", "-D", self.data, "-l", self.log, "-o", options, "-w", "-t", "30",
                   "start")
        return self

    def stop(self, mode="fast"):
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            self._tool("pg_ctl", "-D", self.data, "-m", mode, "-w", "-t", "30", "stop",
                       check=False)

    def destroy(self):
        self.stop("immediate")
        if self.home:
            shutil.rmtree(self.home, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database="postgres"):
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def psql(self, sql, database="postgres"):
        """Runs SQL; returns its rows as lists of text (unaligned output)."""
        run = subprocess.run([os.path.join(BIN, "psql"), "-X", "-q", "-tA", "-P", "null=<NULL>",
                              "-v", "ON_ERROR_STOP=1", "-d", self.url(database), "-c", sql],
                             capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            raise RuntimeError(f"psql: {run.stderr.strip()}")
        return [line.split("|") for line in run.stdout.splitlines() if line]

    def create_database(self, name):
        """A new, empty database `name`; returns its URL."""
        # From template0, which nobody connects to, so that tests creating
        # databases at the same time never find the template busy.
        self.psql(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("start", "stop"):
        print(__doc__, file=sys.stderr)
        return 64
    cluster = Cluster(sys.argv[2])
    if sys.argv[1] == "stop":
        cluster.destroy()
        return 0
    if not available():
        skip_or_fail(f"the PostgreSQL 15 binaries are not installed ({BIN}; "
                     "apt-get install postgresql-15)")
    cluster.destroy()  # what a crashed earlier run left
    cluster = Cluster(sys.argv[2])
    started = time.monotonic()
    cluster.start(settings=sys.argv[3:])
    print(f"PostgreSQL at {cluster.url()} ({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

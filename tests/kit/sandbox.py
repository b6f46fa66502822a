"""What the sandbox tests need from the machine: a unix-socket canary, and a run as an unprivileged user.

`UnixCanary` listens on a file-system socket (in a folder anyone may reach, under /run where it can) and on an abstract one,
counting the connections it accepts: an example must make none. `as_unprivileged` runs a command as uid
1000 inside a user namespace of its own (util-linux `unshare`), the files of the machine's root appearing
as that uid's, so a pipeline run there is a non-root caller; with `no_more_namespaces` that namespace's
`max_user_namespaces` is used up, the state of a machine where no user namespace can be made.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import threading
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class UnixCanary:
    def __init__(self) -> None:
        # not under /tmp: a sandbox that only covers the world-writable folders would hide it by chance
        self.folder = tempfile.mkdtemp(prefix="unix-canary-", dir="/run" if os.access("/run", os.W_OK) else None)
        os.chmod(self.folder, 0o755)
        self.path = os.path.join(self.folder, "socket")
        self.abstract = f"\0exam-prep-canary-{uuid.uuid4().hex}"
        self.accepted = 0
        self._socks = []
        for address in (self.path, self.abstract):
            sock = socket.socket(socket.AF_UNIX)
            sock.bind(address)
            sock.listen(8)
            sock.settimeout(0.2)
            self._socks.append(sock)
        os.chmod(self.path, 0o777)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            for sock in self._socks:
                try:
                    conn, _ = sock.accept()
                except (TimeoutError, OSError):
                    continue
                self.accepted += 1
                conn.close()

    def __enter__(self) -> UnixCanary:
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for sock in self._socks:
            sock.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def as_unprivileged(argv: list[str], env: dict[str, str], *, no_more_namespaces: bool = False) -> subprocess.CompletedProcess:
    unshare = shutil.which("unshare")
    assert unshare is not None, "util-linux unshare is needed"
    limit = "echo 1 > /proc/sys/user/max_user_namespaces && " if no_more_namespaces else ""
    shell = f'{limit}exec {unshare} --user --map-user=1000 --map-group=1000 -- "$@"'
    full = [unshare, "--user", "--map-root-user", "--", "/bin/sh", "-c", shell, "sh", *argv]
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)}
    return subprocess.run(full, env={**base, **env}, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL)

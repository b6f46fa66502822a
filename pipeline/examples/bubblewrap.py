"""The command line that runs one example under bubblewrap (`bwrap`, Debian's `bubblewrap`): what it sees.

bwrap makes new user, PID, network, mount, IPC and UTS namespaces (`--unshare-all --unshare-user`), and
builds the example's file system from nothing: read-only binds of the interpreter, its standard library,
the shared-library folders the dynamic linker knows (`ldconfig -p`), and the example's environment at
/tmp/env; a fresh /proc (this PID namespace's processes only: the pipeline's own entry, environment and
command line are not there), a minimal /dev, and size-capped tmpfs at /tmp and /dev/shm, gone with the
namespace when the run ends. Nothing else exists inside: no /etc, /home, /root, /run, /var, no /bin/sh,
no file-system socket of the machine; the new network namespace has only its own loopback, so the
machine's loopback and its abstract unix sockets are unreachable. `--clearenv` then sets only what an
example needs; bwrap itself (the namespace's PID 1, whose environment a fresh /proc shows) is started
with nothing but PATH. `--disable-userns` keeps the example from making a namespace of its own,
`--new-session` from reaching the terminal, `--die-with-parent` from outliving the pipeline.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

EXAMPLE_DIR, ENV_DIR = "/tmp/example", "/tmp/env"
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
LOADER_DIRS = ("/lib64", "/usr/lib64", "/lib32", "/libx32")  # where the ELF loader is looked up by absolute path
TOP_LINKS = ("/lib", "/lib64", "/lib32", "/libx32")  # merged-/usr links the loader's path goes through


def executable() -> str | None:
    return shutil.which("bwrap", path=SAFE_PATH)


@functools.cache
def library_dirs() -> tuple[str, ...]:
    """The folders the dynamic linker finds libraries in (real paths, deduplicated)."""
    found: set[str] = set()
    ldconfig = shutil.which("ldconfig", path="/usr/sbin:/sbin:" + SAFE_PATH)
    if ldconfig:
        listed = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=False).stdout
        found |= {os.path.dirname(line.rsplit("=> ", 1)[1]) for line in listed.splitlines() if "=> " in line}
    found |= {d for d in LOADER_DIRS if os.path.isdir(d)}
    return tuple(sorted({os.path.realpath(d) for d in found if os.path.isdir(d)}))


def _binds(paths: list[str]) -> list[str]:
    """`--ro-bind` each real path once, folders before what lies inside them being redundant."""
    args: list[str] = []
    kept: list[str] = []
    for path in sorted({os.path.realpath(p) for p in paths if os.path.exists(p)}):
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
            args += ["--ro-bind", path, path]
    return args


def _top_links() -> list[str]:
    """/lib -> usr/lib and the like, as on the machine, so the loader's recorded path resolves."""
    args: list[str] = []
    for link in TOP_LINKS:
        if os.path.islink(link):
            args += ["--symlink", os.readlink(link), link]
    return args


def argv(python: Path, python_dirs: tuple[str, ...], code: Path, env_dir: Path | None, python_args: list[str],
         environment: dict[str, str], disk_bytes: int) -> list[str]:
    """bwrap's command line for one run: `code` is the host file bound read-only at /tmp/example/example.py."""
    exe = executable()
    assert exe is not None
    interpreter = str(python)
    visible = [interpreter, *python_dirs, *library_dirs()]
    if os.path.exists("/etc/ld.so.cache"):
        visible.append("/etc/ld.so.cache")  # where the linker looks libraries up (a list of paths, no secret)
    args = [exe, "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
            "--cap-drop", "ALL", "--clearenv", *_binds(visible), *_top_links(),
            "--proc", "/proc", "--dev", "/dev", "--size", str(disk_bytes), "--tmpfs", "/dev/shm",
            "--size", str(disk_bytes), "--tmpfs", "/tmp", "--dir", EXAMPLE_DIR, "--ro-bind", str(code), f"{EXAMPLE_DIR}/example.py"]
    if env_dir is not None:
        args += ["--ro-bind", str(env_dir), ENV_DIR]
        interpreter = f"{ENV_DIR}/bin/python"
    for key, value in sorted(environment.items()):
        args += ["--setenv", key, value]
    return [*args, "--chdir", EXAMPLE_DIR, "--", interpreter, *python_args, f"{EXAMPLE_DIR}/example.py"]

"""Run inside the sandbox, between the limits and the author's code: the last step that is ours.

Not imported by the pipeline: the sandbox copies this file into its staging folder and runs it with the
standard library only (`python -I -S inside.py MODE ...`). Two modes:

- `setup CONFIG-JSON` runs as root of a fresh user, network, PID and mount namespace (`unshare`): it
  mounts size-capped tmpfs over every world-writable folder (/tmp, /var/tmp, /run/lock, /dev/shm), so a
  disk filler fills only those; brings up the namespace's own loopback (examples may talk to their own
  processes; the machine's loopback is another namespace and stays unreachable); binds the example's
  environment read-only at /tmp/env and writes the code to /tmp/example/example.py (stable paths, so what a
  warning or traceback prints is the same on every machine); then drops every capability and execs the
  example's interpreter on it, so the code cannot undo any of this.
- `guard EXAMPLE` is the fallback where namespaces are not allowed: an audit hook refuses every socket
  connection or send, and every new program (an exec'd program would not carry the hook), then the
  example runs in this process.
"""

import ctypes
import json
import os
import runpy
import sys

WRITABLE = ("/tmp", "/var/tmp", "/run/lock", "/dev/shm")
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC = 1, 2, 4, 32, 4096, 16384
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 24, 38
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
EXAMPLE_DIR, ENV_DIR = "/tmp/example", "/tmp/env"
REFUSED_EVENTS = ("socket.connect", "socket.sendto", "socket.sendmsg", "socket.bind", "socket.getaddrinfo",
                  "os.exec", "os.posix_spawn", "os.spawn", "os.system", "subprocess.Popen", "pty.spawn")

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source: str, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    _check(_libc.mount(source.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                       data.encode() if data else None), f"mount {target}")


def _tmpfs_over_writable(size: int) -> None:
    for folder in WRITABLE:
        if os.path.isdir(folder):
            _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=1777")


def _loopback_up() -> None:
    import fcntl
    import socket
    import struct
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        flags = struct.unpack("16sH14s", fcntl.ioctl(sock, SIOCGIFFLAGS, struct.pack("16sH14s", b"lo", 0, b"")))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14s", b"lo", flags | IFF_UP, b""))


def _bind_env(env_fd: int) -> None:
    """Bind the environment, opened before /tmp was covered (it may live there), read-only at /tmp/env."""
    os.makedirs(ENV_DIR)
    _mount(f"/proc/self/fd/{env_fd}", ENV_DIR, None, MS_BIND | MS_REC, None)
    os.close(env_fd)
    _mount("none", ENV_DIR, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, None)


def _drop_capabilities() -> None:
    """Empty the bounding set: the exec that follows (as uid 0 of the namespace) then gains no capability."""
    with open("/proc/sys/kernel/cap_last_cap") as handle:
        last = int(handle.read())
    for cap in range(last + 1):
        _check(_libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), f"drop capability {cap}")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def setup(config: dict) -> None:
    with open(os.path.join(config["staging"], "example.py"), encoding="utf-8") as handle:
        code = handle.read()  # read, like the environment's folder opened, before /tmp is covered
    env_fd = os.open(config["env"], os.O_PATH | os.O_DIRECTORY) if config.get("env") else None
    _tmpfs_over_writable(config["disk_bytes"])
    _loopback_up()
    python = config["python"]
    if env_fd is not None:
        _bind_env(env_fd)
        python = os.path.join(ENV_DIR, "bin", "python")
    os.makedirs(EXAMPLE_DIR)
    with open(os.path.join(EXAMPLE_DIR, "example.py"), "w", encoding="utf-8") as handle:
        handle.write(code)
    os.chdir(EXAMPLE_DIR)
    os.environ["HOME"] = os.environ["TMPDIR"] = EXAMPLE_DIR
    _drop_capabilities()
    os.execv(python, [python, *config["python_args"], os.path.join(EXAMPLE_DIR, "example.py")])


def _refuse(event: str, args: tuple) -> None:
    if event in REFUSED_EVENTS or event.startswith("os.exec"):
        raise PermissionError(f"the example sandbox refuses {event} (no network, no other programs)")


def guard(example: str) -> None:
    sys.addaudithook(_refuse)
    sys.argv = [example]
    sys.path.insert(0, os.getcwd())
    try:
        runpy.run_path(example, run_name="__main__")
    except SystemExit:
        raise
    except BaseException as exc:  # the traceback from the example's own frames, as `python example.py` prints it
        import traceback
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != example:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb or exc.__traceback__)
        sys.exit(1)


def main(argv: list[str]) -> None:
    if argv[1] == "setup":
        try:
            setup(json.loads(argv[2]))
        except OSError as exc:  # the machine said no: the sandbox reports it, the code never ran
            print(f"sandbox setup failed: {exc}", file=sys.stderr)
            sys.exit(125)
    else:
        guard(argv[2])


if __name__ == "__main__":
    main(sys.argv)

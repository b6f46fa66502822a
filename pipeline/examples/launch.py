"""Run as the sandbox's first process, before anything else: wait to be placed, set the limits, exec the rest.

Not imported by the pipeline: the sandbox copies this file into its staging folder and runs it with
`python -I -S launch.py LIMITS-JSON GO-FD -- ARGV...`, standard library only. It first reads one byte
from GO-FD: the pipeline writes it once this process is in the run's cgroup, so that every process the
example ever starts is born inside it. The limits are then set with soft and hard values equal, so the
author's code cannot raise them again, before bubblewrap and the example's interpreter start, so that
every process of the example inherits them (RLIMIT_NPROC set before the user namespace is made also
bounds it).
"""

import json
import os
import resource
import sys

LIMITS = {
    "memory_bytes": resource.RLIMIT_AS,  # address space: a 4 GiB allocation fails with MemoryError
    "cpu_seconds": resource.RLIMIT_CPU,  # CPU time per process: SIGXCPU, then SIGKILL
    "processes": resource.RLIMIT_NPROC,  # tasks of this uid: a fork bomb's fork() fails with EAGAIN
    "file_bytes": resource.RLIMIT_FSIZE,  # the largest file it may write: SIGXFSZ / EFBIG
    "open_files": resource.RLIMIT_NOFILE,
    "core_bytes": resource.RLIMIT_CORE,  # no core dumps of a crashed example
}


def main(argv: list[str]) -> None:
    go = int(argv[2])
    if os.read(go, 1) != b"g":  # the pipeline went away before placing this process: run nothing
        sys.exit(125)
    os.close(go)
    limits = json.loads(argv[1])
    for key, value in limits.items():
        resource.setrlimit(LIMITS[key], (value, value))
    rest = argv[argv.index("--") + 1:]
    os.execv(rest[0], rest)


if __name__ == "__main__":
    main(sys.argv)

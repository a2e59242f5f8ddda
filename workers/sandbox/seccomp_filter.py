"""A seccomp deny-list for sandboxed bots, compiled once to BPF for `bwrap --seccomp`.

Defence in depth: the namespaces already hide the network, the host's files
and processes; this filter also refuses the system calls a Python bot never
needs and kernel attack surface likes (ptrace, mounts, new namespaces, BPF,
keyrings, io_uring, perf, module loading, non-local sockets). A refused call
fails with EPERM, so a bot sees an ordinary `PermissionError`. System calls of
other architectures (the 32-bit ABI) are killed by libseccomp's default.

Needs `pyseccomp` (and libseccomp); without it the sandbox runs without this
layer and says so in its description.
"""

from __future__ import annotations

import errno
import functools
import os
import socket

DENIED_SYSCALLS = (
    # Debugging and reading other processes' memory.
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    # Filesystems and namespaces: the sandbox's view is fixed once it starts.
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "open_by_handle_at",
    "name_to_handle_at",
    "fanotify_init",
    # The kernel and the machine.
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "keyctl",
    "add_key",
    "request_key",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "syslog",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "iopl",
    "ioperm",
    "personality",
    "vhangup",
    "uselib",
    "lookup_dcookie",
    "move_pages",
    "migrate_pages",
    "mbind",
    "set_mempolicy",
)

# Socket families a bot may not open: everything but local (AF_UNIX) sockets,
# which multiprocessing uses.
DENIED_SOCKET_FAMILIES = tuple(
    getattr(socket, name)
    for name in ("AF_INET", "AF_INET6", "AF_NETLINK", "AF_PACKET", "AF_KEY", "AF_VSOCK")
    if hasattr(socket, name)
)


# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
CLONE_NAMESPACE_FLAGS = (
    0x00020000,
    0x02000000,
    0x04000000,
    0x08000000,
    0x10000000,
    0x20000000,
    0x40000000,
)


class SeccompUnavailable(RuntimeError):
    pass


def build_filter_bpf() -> bytes:
    """The compiled filter program, ready to hand to bwrap through a file descriptor."""
    try:
        import pyseccomp as seccomp
    except (ImportError, RuntimeError) as exc:
        raise SeccompUnavailable(f"pyseccomp is not usable: {exc}") from None
    flt = seccomp.SyscallFilter(seccomp.ALLOW)
    deny = seccomp.ERRNO(errno.EPERM)
    for name in DENIED_SYSCALLS:
        try:
            flt.add_rule(deny, name)
        except (OSError, ValueError, RuntimeError):
            continue  # not a system call on this architecture
    for family in DENIED_SOCKET_FAMILIES:
        flt.add_rule(deny, "socket", seccomp.Arg(0, seccomp.EQ, family))
    # New namespaces through clone(2); bwrap's --disable-userns already stops user
    # namespaces, this stops the others too. clone3 hides its flags in memory a
    # filter cannot read, so it answers ENOSYS and the C library falls back to clone.
    for flag in CLONE_NAMESPACE_FLAGS:
        flt.add_rule(deny, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    flt.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    read_fd, write_fd = os.pipe()
    try:
        with os.fdopen(write_fd, "wb", closefd=True) as sink:
            flt.export_bpf(sink)
        chunks = []
        while chunk := os.read(read_fd, 65536):
            chunks.append(chunk)
    finally:
        os.close(read_fd)
    return b"".join(chunks)


@functools.cache
def compiled_filter() -> tuple[bytes | None, str]:
    """The compiled deny-list, built once per process, and how to describe it."""
    try:
        return build_filter_bpf(), "deny-list"
    except SeccompUnavailable as exc:
        return None, f"off ({exc})"

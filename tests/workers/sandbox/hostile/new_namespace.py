"""Tries to make new user and network namespaces (unshare): refused by the sandbox."""

import ctypes
import os

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000


def act(observation, legal_actions):
    libc = ctypes.CDLL(None, use_errno=True)
    for flag in (CLONE_NEWUSER, CLONE_NEWNET):
        if libc.unshare(flag) == 0:
            raise SystemExit(f"LEAK: unshare({flag:#x}) worked")
    err = ctypes.get_errno()
    raise PermissionError(err, os.strerror(err))

// Raw system calls the kernel's attack surface likes: each must fail with EPERM
// (seccomp, or no capability in the sandbox's user namespace). One line per call on
// stderr, then exit 3: "BLOCKED <call>: <error>" or "LEAK <call>".
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sched.h>
#include <signal.h>
#include <string>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static void check(const char* what, long result) {
    if (result == 0) _exit(0);  // a child of clone() that worked: the parent reports it
    if (result >= 0) {
        std::fprintf(stderr, "LEAK %s returned %ld\n", what, result);
    } else {
        std::fprintf(stderr, "BLOCKED %s: %s\n", what, std::strerror(errno));
    }
}

static void attack() {
    check("ptrace(PTRACE_TRACEME)", syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0) == 0 ? 1 : -1);
    check("ptrace(PTRACE_ATTACH, 1)", syscall(SYS_ptrace, PTRACE_ATTACH, 1, 0, 0) == 0 ? 1 : -1);
    check("unshare(CLONE_NEWUSER)", unshare(CLONE_NEWUSER) == 0 ? 1 : -1);
    check("unshare(CLONE_NEWNET)", unshare(CLONE_NEWNET) == 0 ? 1 : -1);
    check("clone(CLONE_NEWPID)", syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0));
    check("mount(tmpfs, /tmp)", mount("none", "/tmp", "tmpfs", 0, nullptr) == 0 ? 1 : -1);
    check("chroot(/tmp)", chroot("/tmp") == 0 ? 1 : -1);
    check("socket(AF_INET)", socket(AF_INET, SOCK_STREAM, 0));
    check("socket(AF_INET6)", socket(AF_INET6, SOCK_DGRAM, 0));
    check("socket(AF_NETLINK)", socket(AF_NETLINK, SOCK_RAW, 0));
    check("socket(AF_PACKET)", socket(AF_PACKET, SOCK_RAW, 0));
    check("bpf", syscall(SYS_bpf, 0, 0, 0));
    check("perf_event_open", syscall(SYS_perf_event_open, 0, 0, -1, -1, 0));
    check("io_uring_setup", syscall(SYS_io_uring_setup, 1, 0));
    check("keyctl", syscall(SYS_keyctl, 0, 0, 0, 0, 0));
    check("init_module", syscall(SYS_init_module, 0, 0, ""));
    check("setuid(0)", setuid(0) == 0 ? 1 : -1);
    std::fflush(stderr);
    _exit(3);
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"act\"") != std::string::npos) attack();
    }
}

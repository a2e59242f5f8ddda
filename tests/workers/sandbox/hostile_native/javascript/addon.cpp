// The native add-on of native_addon.js: its constructor runs when Node loads it, as
// the bot's own uid, inside the bot's sandbox. Each attempt prints BLOCKED or LEAK.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static void report(const char* what, bool worked) {
    if (worked) std::fprintf(stderr, "LEAK addon %s\n", what);
    else std::fprintf(stderr, "BLOCKED addon %s: %s\n", what, std::strerror(errno));
}

__attribute__((constructor)) static void on_load() {
    report("unshare(CLONE_NEWUSER)", unshare(CLONE_NEWUSER) == 0);
    report("socket(AF_INET)", socket(AF_INET, SOCK_STREAM, 0) >= 0);
    report("ptrace(PTRACE_ATTACH, 1)", syscall(SYS_ptrace, 16, 1, 0, 0) == 0);
    report("open /etc/passwd", open("/etc/passwd", O_RDONLY) >= 0);
    report("write /usr/lib/planted-addon.txt",
           open("/usr/lib/planted-addon.txt", O_WRONLY | O_CREAT, 0644) >= 0);
    std::fflush(stderr);
}

// Writes outside its /tmp: over its own program, beside it, into /usr, /etc, /root, the
// root, /dev, the kernel's settings and a host path. Each must fail (read-only mounts,
// paths the sandbox does not have). One line each, then exit 3.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <string>
#include <unistd.h>

static void write_file(const char* path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "planted\n", 8) != 8) {
        std::fprintf(stderr, "BLOCKED write %s: %s\n", path, std::strerror(errno));
    } else {
        std::fprintf(stderr, "LEAK wrote %s\n", path);
    }
    if (fd >= 0) close(fd);
}

static void attack() {
    write_file("/arena/bot/bot");
    write_file("/arena/bot/planted.txt");
    write_file("/usr/lib/planted-native.txt");
    write_file("/etc/planted-native.txt");
    write_file("/root/planted-native.txt");
    write_file("/planted-native.txt");
    write_file("/proc/sys/kernel/hostname");
    write_file("__OUTSIDE__");
    // Its own /tmp is writable (a tmpfs of its own), which is where it should write.
    int fd = open("/tmp/allowed.txt", O_WRONLY | O_CREAT, 0644);
    std::fprintf(stderr, "TMP %s\n", fd >= 0 ? "writable" : std::strerror(errno));
    std::fflush(stderr);
    _exit(3);
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"act\"") != std::string::npos) attack();
    }
}

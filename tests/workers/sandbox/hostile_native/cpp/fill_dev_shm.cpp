// Keeps files in /dev and /dev/shm, 1 MB each (under the file size limit), past its
// tmp size: /dev is read-only and /dev/shm a tmpfs of the bot's tmp size, so the
// first write fails and the second fills up. One line each, then exit 3.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <string>
#include <unistd.h>

static char block[1 << 20];

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"act\"") == std::string::npos) continue;
        int fd = open("/dev/planted-native.txt", O_WRONLY | O_CREAT, 0644);
        if (fd < 0) std::fprintf(stderr, "BLOCKED write /dev: %s\n", std::strerror(errno));
        else std::fprintf(stderr, "LEAK wrote /dev/planted-native.txt\n");
        std::memset(block, 1, sizeof block);
        for (long megabytes = 0;; ++megabytes) {
            char name[64];
            std::snprintf(name, sizeof name, "/dev/shm/fill-%ld", megabytes);
            fd = open(name, O_WRONLY | O_CREAT, 0644);
            if (fd < 0 || write(fd, block, sizeof block) != static_cast<ssize_t>(sizeof block)) {
                std::fprintf(stderr, "BLOCKED /dev/shm after %ld MB: %s\n", megabytes,
                             std::strerror(errno));
                _exit(3);
            }
            close(fd);
        }
    }
}

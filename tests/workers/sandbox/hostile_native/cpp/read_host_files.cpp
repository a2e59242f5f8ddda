// Reads what a sandboxed bot must never see: the host's accounts, the worker's
// settings, another bot's source, the worker's environment. Each must be missing
// (the sandbox binds /usr and its own folder only). One line each, then exit 3.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void read_file(const char* path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        std::fprintf(stderr, "BLOCKED open %s: %s\n", path, std::strerror(errno));
        return;
    }
    char buffer[256];
    ssize_t got = read(fd, buffer, sizeof buffer);
    std::fprintf(stderr, "LEAK read %zd bytes of %s\n", got, path);
    close(fd);
}

static void attack() {
    read_file("/etc/passwd");
    read_file("/etc/shadow");
    read_file("__SETTINGS__");
    read_file("__VICTIM__");
    read_file("/root/.bash_history");
    read_file("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    // The host's database socket: a local socket is allowed, the path is not there.
    int sock = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strcpy(address.sun_path, "/var/run/postgresql/.s.PGSQL.5432");
    if (connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
        std::fprintf(stderr, "LEAK connected to the host's postgres socket\n");
    } else {
        std::fprintf(stderr, "BLOCKED connect postgres socket: %s\n", std::strerror(errno));
    }
    for (const char* name : {"SECRET_KEY", "DATABASE_URL"}) {
        const char* value = std::getenv(name);
        if (value) std::fprintf(stderr, "LEAK %s=%s\n", name, value);
        else std::fprintf(stderr, "BLOCKED getenv %s: unset\n", name);
    }
    std::fflush(stderr);
    _exit(3);
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"act\"") != std::string::npos) attack();
    }
}

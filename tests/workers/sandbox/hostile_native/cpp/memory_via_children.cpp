// Forks six children that each touch 200 MB: under the address-space rlimit one by
// one, far over the bot's memory together, so the cgroup's memory limit kills all but
// one. The parent reports how each child ended, then exits 3.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

static void hog() {
    // volatile: every page is really written, not optimised away with the unused block.
    volatile char* block = static_cast<char*>(std::malloc(200 << 20));
    if (block == nullptr) _exit(4);
    for (long offset = 0; offset < (200 << 20); offset += 4096) block[offset] = 1;
    sleep(1);
    _exit(0);
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"act\"") == std::string::npos) continue;
        for (int child = 0; child < 6; ++child) {
            if (fork() == 0) hog();
        }
        int status = 0;
        while (wait(&status) > 0) {
            if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
                std::fprintf(stderr, "BLOCKED child killed by SIGKILL\n");
            } else {
                std::fprintf(stderr, "child exited with status %d\n", WEXITSTATUS(status));
            }
        }
        std::fflush(stderr);
        _exit(3);
    }
}

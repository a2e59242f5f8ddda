// Forks forever at its first move, every child too, ignoring failures:
// the pids cgroup and RLIMIT_NPROC hold, and the move times out.
#include <iostream>
#include <string>
#include <unistd.h>

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"act\"") != std::string::npos) {
            for (;;) fork();
        }
    }
}

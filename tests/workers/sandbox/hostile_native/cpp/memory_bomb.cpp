// Allocates and touches memory 16 MB at a time: the address-space rlimit makes
// malloc fail (it then says so and exits 3) before the cgroup's memory limit.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <unistd.h>

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"act\"") == std::string::npos) continue;
        for (long megabytes = 0;; megabytes += 16) {
            volatile char* block = static_cast<char*>(std::malloc(16 << 20));
            if (block == nullptr) {
                std::fprintf(stderr, "BLOCKED malloc after %ld MB\n", megabytes);
                _exit(3);
            }
            for (long offset = 0; offset < (16 << 20); offset += 4096) block[offset] = 1;
        }
    }
}

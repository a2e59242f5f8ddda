// Goroutines blocked in raw system calls, each pinning an OS thread, so that the Go
// runtime starts threads without end: the pids cgroup and RLIMIT_NPROC stop it, and
// the runtime dies ("failed to create new OS thread").
package main

import (
	"bufio"
	"os"
	"strings"
	"syscall"
)

func main() {
	input := bufio.NewScanner(os.Stdin)
	input.Buffer(make([]byte, 1<<20), 1<<24)
	for input.Scan() {
		if !strings.Contains(input.Text(), `"act"`) {
			continue
		}
		for {
			go func() {
				pipe := make([]int, 2)
				syscall.Pipe(pipe)
				buffer := make([]byte, 1)
				syscall.Read(pipe[0], buffer) // blocks its thread forever
			}()
		}
	}
}

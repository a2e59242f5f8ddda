// Allocates and touches 64 MB slices without end: the cgroup's memory limit kills it
// (or the Go runtime, out of address space, dies first).
package main

import (
	"bufio"
	"os"
	"strings"
)

var kept [][]byte

func main() {
	input := bufio.NewScanner(os.Stdin)
	input.Buffer(make([]byte, 1<<20), 1<<24)
	for input.Scan() {
		if !strings.Contains(input.Text(), `"act"`) {
			continue
		}
		for {
			block := make([]byte, 64<<20)
			for i := 0; i < len(block); i += 4096 {
				block[i] = 1
			}
			kept = append(kept, block)
		}
	}
}

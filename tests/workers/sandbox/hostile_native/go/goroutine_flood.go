// Starts goroutines without end, each holding a little memory: the cgroup's memory
// limit (or the Go runtime, out of address space) stops it.
package main

import (
	"bufio"
	"os"
	"strings"
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
				block := make([]byte, 64<<10)
				for i := range block {
					block[i] = 1
				}
				select {}
			}()
		}
	}
}

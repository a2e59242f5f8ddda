// os/exec and the net package: reads the host's files through a shell, dials the
// host's database and cache, opens a raw socket, then starts a daemon in a new session
// and plays on. Each attempt prints BLOCKED or LEAK; the daemon dies with the match.
package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

func attack() {
	for _, command := range [][]string{
		{"/bin/sh", "-c", "cat /etc/passwd"},
		{"/bin/sh", "-c", "cat __SETTINGS__"},
		{"/usr/bin/bash", "-c", "echo ping > /dev/tcp/127.0.0.1/5432"},
		{"/usr/bin/curl", "-sS", "--max-time", "2", "http://127.0.0.1:6379/"},
	} {
		output, err := exec.Command(command[0], command[1:]...).CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "BLOCKED %s: %v: %s\n", strings.Join(command, " "), err, strings.TrimSpace(string(output)))
		} else {
			fmt.Fprintf(os.Stderr, "LEAK %s: %s\n", strings.Join(command, " "), output)
		}
	}
	for _, address := range []string{"127.0.0.1:5432", "127.0.0.1:6379", "[::1]:6379"} {
		if connection, err := net.DialTimeout("tcp", address, 2*time.Second); err != nil {
			fmt.Fprintf(os.Stderr, "BLOCKED dial %s: %v\n", address, err)
		} else {
			connection.Close()
			fmt.Fprintf(os.Stderr, "LEAK dial %s\n", address)
		}
	}
	if _, err := syscall.Socket(syscall.AF_PACKET, syscall.SOCK_RAW, 0); err != nil {
		fmt.Fprintf(os.Stderr, "BLOCKED raw socket: %v\n", err)
	} else {
		fmt.Fprintf(os.Stderr, "LEAK raw socket\n")
	}
	daemon := exec.Command("/bin/sh", "-c", "trap '' HUP TERM INT; while :; do sleep 1; done", "arena-hostile-daemon-marker")
	daemon.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := daemon.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "daemon failed: %v\n", err)
	}
}

func firstLegalAction(line string) string {
	legal := line[strings.Index(line, `"legal_actions"`):]
	rest := strings.TrimLeft(legal[strings.Index(legal, "[")+1:], " ")
	depth, quoted, escaped := 0, false, false
	for index, ch := range rest {
		if quoted {
			if escaped {
				escaped = false
			} else if ch == '\\' {
				escaped = true
			} else if ch == '"' {
				quoted = false
			}
			continue
		}
		switch {
		case ch == '"':
			quoted = true
		case ch == '[' || ch == '{':
			depth++
		case (ch == ']' || ch == '}') && depth > 0:
			depth--
		case ch == ']' || ch == '}' || (ch == ',' && depth == 0):
			return rest[:index]
		}
	}
	return rest
}

func matchID(line string) string {
	value := line[strings.Index(line, `"match"`)+7:]
	value = strings.TrimLeft(value[strings.Index(value, ":")+1:], " ")
	return value[:strings.IndexAny(value, ",}")]
}

func main() {
	input := bufio.NewScanner(os.Stdin)
	input.Buffer(make([]byte, 1<<20), 1<<24)
	attacked := false
	for input.Scan() {
		line := input.Text()
		if !strings.Contains(line, `"act"`) {
			continue
		}
		if !attacked {
			attacked = true
			attack()
		}
		fmt.Printf("{\"match\":%s,\"action\":%s}\n", matchID(line), firstLegalAction(line))
	}
}

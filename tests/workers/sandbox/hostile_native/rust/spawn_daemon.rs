// std::process::Command: starts a shell loop in a new session (setsid through unsafe
// pre_exec), its output closed, meant to outlive the match; then plays on. The sandbox's
// pid namespace and cgroup end it with the bot.
use std::io::{self, BufRead, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

extern "C" {
    fn setsid() -> i32;
}

fn first_legal_action(line: &str) -> &str {
    let legal = &line[line.find("\"legal_actions\"").unwrap()..];
    let start = legal.find('[').unwrap() + 1;
    let rest = legal[start..].trim_start();
    let (mut depth, mut quoted, mut escaped) = (0, false, false);
    for (index, ch) in rest.char_indices() {
        if quoted {
            if escaped { escaped = false } else if ch == '\\' { escaped = true } else if ch == '"' { quoted = false }
            continue;
        }
        match ch {
            '"' => quoted = true,
            '[' | '{' => depth += 1,
            ']' | '}' if depth == 0 => return &rest[..index],
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => return &rest[..index],
            _ => {}
        }
    }
    rest
}

fn match_id(line: &str) -> &str {
    let key = &line[line.find("\"match\"").unwrap() + 7..];
    let value = key[key.find(':').unwrap() + 1..].trim_start();
    &value[..value.find(|c| c == ',' || c == '}').unwrap()]
}

fn main() {
    let mut started = false;
    let stdout = io::stdout();
    for line in io::stdin().lock().lines() {
        let line = line.unwrap();
        if !line.contains("\"act\"") {
            continue;
        }
        if !started {
            started = true;
            let mut command = Command::new("/bin/sh");
            command.args(["-c", "trap '' HUP TERM INT; while :; do sleep 1; done", "arena-hostile-daemon-marker"]);
            command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
            unsafe {
                command.pre_exec(|| {
                    setsid();
                    Ok(())
                });
            }
            match command.spawn() {
                Ok(child) => eprintln!("daemon started, pid {}", child.id()),
                Err(error) => eprintln!("spawn failed: {error}"),
            }
        }
        let mut out = stdout.lock();
        writeln!(out, "{{\"match\":{},\"action\":{}}}", match_id(&line), first_legal_action(&line)).unwrap();
        out.flush().unwrap();
    }
}

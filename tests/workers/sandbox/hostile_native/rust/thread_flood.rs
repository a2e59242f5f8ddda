// Starts sleeping threads until the system refuses one: the pids cgroup and
// RLIMIT_NPROC (threads are processes to both) stop it; it says when, then exits 3.
use std::io::{self, BufRead};
use std::thread;
use std::time::Duration;

fn main() {
    for line in io::stdin().lock().lines() {
        if !line.unwrap_or_default().contains("\"act\"") {
            continue;
        }
        for count in 0.. {
            let started = thread::Builder::new()
                .stack_size(64 << 10)
                .spawn(|| loop { thread::sleep(Duration::from_secs(60)) });
            if let Err(error) = started {
                eprintln!("BLOCKED thread {count}: {error}");
                std::process::exit(3);
            }
        }
    }
}

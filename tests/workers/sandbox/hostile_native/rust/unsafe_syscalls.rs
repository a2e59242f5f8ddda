// Unsafe Rust: raw system calls through the C library (no crate needed), then a write
// through a wild pointer. The calls fail with EPERM (seccomp); the write kills the bot
// with SIGSEGV inside its own address space.
use std::io::{self, BufRead};

extern "C" {
    fn syscall(number: i64, ...) -> i64;
    fn __errno_location() -> *mut i32;
}

// x86_64 system call numbers.
const CALLS: [(&str, i64, i64, i64); 6] = [
    ("ptrace(PTRACE_ATTACH, 1)", 101, 16, 1),
    ("unshare(CLONE_NEWUSER)", 272, 0x1000_0000, 0),
    ("unshare(CLONE_NEWNS)", 272, 0x0002_0000, 0),
    ("socket(AF_INET)", 41, 2, 1),
    ("setns(0, 0)", 308, 0, 0),
    ("kexec_load", 246, 0, 0),
];

fn attack() -> ! {
    for (name, number, first, second) in CALLS {
        let result = unsafe { syscall(number, first, second, 0i64, 0i64) };
        if result >= 0 {
            eprintln!("LEAK {name} returned {result}");
        } else {
            let errno = unsafe { *__errno_location() };
            eprintln!("BLOCKED {name}: {}", io::Error::from_raw_os_error(errno));
        }
    }
    let wild = 0x10 as *mut u64;
    unsafe { std::ptr::write_volatile(wild, 42) };
    eprintln!("LEAK the wild write did not crash");
    std::process::exit(0);
}

fn main() {
    for line in io::stdin().lock().lines() {
        if line.unwrap_or_default().contains("\"act\"") {
            attack();
        }
    }
}

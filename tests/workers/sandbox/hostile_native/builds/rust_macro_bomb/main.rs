#![recursion_limit = "100000"]

macro_rules! bomb {
    ($($tokens:tt)*) => { bomb!($($tokens)* $($tokens)*) };
}

fn main() {
    bomb!(laugh);
}

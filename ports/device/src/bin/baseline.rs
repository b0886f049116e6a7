//! The same program without the tree or the lookup core: prints a number computed
//! from the arguments. Its size is subtracted from `device-demo`'s to measure what
//! the core adds.

fn main() {
    let total: usize = std::env::args().map(|a| a.len()).sum();
    if total == usize::MAX {
        eprintln!("device-baseline: impossible");
        std::process::exit(1);
    }
    println!("{total}");
}

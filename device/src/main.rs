//! Plays every secret through the embedded tree with the no_std core and prints the
//! total: the program whose size `make bench` reports (against `device-baseline`).

fn main() {
    let tree = match mmtree_device::open() {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("device-demo: {e}");
            std::process::exit(1);
        }
    };
    let mut total = 0;
    for secret in tree.board().codes() {
        match mmtree_device::play(&tree, secret) {
            Ok(guesses) => total += guesses,
            Err(e) => {
                eprintln!("device-demo: {e}");
                std::process::exit(1);
            }
        }
    }
    println!("{total}");
}

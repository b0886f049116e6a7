//! Plays every secret through the embedded tree with the no_std core, checks the
//! header's claims and prints the total: the program whose size `make bench`
//! reports (against `device-baseline`).

fn main() {
    match mmtree_device::open().map_err(mmtree_device::CheckError::Format) {
        Ok(tree) => match mmtree_device::check(&tree) {
            Ok(played) => println!("{}", played.total),
            Err(e) => fail(e),
        },
        Err(e) => fail(e),
    }
}

fn fail(e: mmtree_device::CheckError) -> ! {
    eprintln!("device-demo: {e}");
    std::process::exit(1);
}

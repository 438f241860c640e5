//! Prints the exporters' output for the test fixture run (for reviewing snapshots).
#[path = "../tests/common/mod.rs"]
mod common;
fn main() {
    for f in cryptobench_store::FORMATS {
        let bytes = cryptobench_store::exporter(f)
            .unwrap()
            .serialize(&common::full_run())
            .unwrap();
        println!("===== {f}");
        print!("{}", String::from_utf8(bytes).unwrap());
    }
}

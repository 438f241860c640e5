//! PHP under the run's heap policy, in a process of its own (the policy is
//! exported through the environment): a large string comes with fresh
//! pages and a medium one is recycled, as every other backend's blocks
//! are. Without php this test fails and says how to install it.

use std::process::Command;

/// Minor page faults each of ten strings of `bytes` took, made and freed
/// in turn by the runner's php with the runner's environment (which turns
/// PHP's own allocator off: it keeps an emptied 2 MiB chunk or returns it
/// by a rule that follows the allocation history).
fn faults_per_string(bytes: usize) -> Vec<i64> {
    if let Err(why) = cryptobench_php::available() {
        panic!("this test needs php: {why} (scripts/install-deps installs php-cli)");
    }
    let cmd = cryptobench_php::runner::command_from_env().expect("the embedded runner script");
    let script = r#"
        $out = [];
        for ($i = 0; $i < 10; $i++) {
            $before = getrusage()['ru_minflt'];
            $s = str_repeat('a', BYTES);
            unset($s);
            $out[] = getrusage()['ru_minflt'] - $before;
        }
        echo implode(' ', $out);
    "#;
    let script = script.replace("BYTES", &bytes.to_string());
    let mut php = Command::new(&cmd.program);
    php.args(["-r", &script]).envs(cmd.env.iter().copied());
    let out = php.output().expect("run php");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(|n| n.parse().expect("a fault count"))
        .collect()
}

#[test]
fn large_strings_come_with_fresh_pages_and_medium_ones_are_recycled() {
    cryptobench_engine::heap::fix_for_this_process();
    // 2,048 pages of 4 KiB for each 8 MiB string, every time.
    let large = faults_per_string(8 << 20);
    assert_eq!(large.len(), 10);
    assert!(large.iter().all(|&f| f >= 1500), "{large:?}");
    // A 1 MiB string's 256 pages are there again from the second on.
    let medium = faults_per_string(1 << 20);
    assert!(medium[2..].iter().all(|&f| f < 50), "{medium:?}");
}

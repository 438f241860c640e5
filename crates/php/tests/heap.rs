//! PHP under the run's heap policy, in a process of its own (the policy is
//! exported through the environment): every large string comes with fresh
//! pages, as every other backend's large blocks do. Without php this test
//! fails and says how to install it.

use std::process::Command;

/// Minor page faults each of ten 1 MiB strings took, made and freed in
/// turn by the runner's php with the runner's environment (or without
/// `USE_ZEND_ALLOC` when `own_allocator`).
fn faults_per_string(own_allocator: bool) -> Vec<i64> {
    if let Err(why) = cryptobench_php::available() {
        panic!("this test needs php: {why} (scripts/install-deps installs php-cli)");
    }
    let cmd = cryptobench_php::runner::command_from_env().expect("the embedded runner script");
    let script = r#"
        $out = [];
        for ($i = 0; $i < 10; $i++) {
            $before = getrusage()['ru_minflt'];
            $s = str_repeat('a', 1 << 20);
            unset($s);
            $out[] = getrusage()['ru_minflt'] - $before;
        }
        echo implode(' ', $out);
    "#;
    let mut php = Command::new(&cmd.program);
    php.args(["-r", script]).envs(cmd.env.iter().copied());
    if own_allocator {
        php.env_remove("USE_ZEND_ALLOC");
    }
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
fn every_large_string_comes_with_fresh_pages() {
    cryptobench_engine::heap::fix_for_this_process();
    // 256 pages of 4 KiB for each string, every time.
    let faults = faults_per_string(false);
    assert_eq!(faults.len(), 10);
    assert!(faults.iter().all(|&f| f >= 200), "{faults:?}");
    // PHP's own allocator keeps the emptied chunk: the later strings reuse
    // it, which is what the runner's environment turns off.
    let own = faults_per_string(true);
    assert!(own[5..].iter().all(|&f| f < 50), "{own:?}");
}

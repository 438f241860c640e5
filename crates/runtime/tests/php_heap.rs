//! PHP under the run's heap policy, in a process of its own (the policy is
//! exported through the environment): a large string comes with fresh
//! pages and a medium one is recycled, as every other backend's blocks
//! are. Without php this test fails and says how to install it.

use std::process::Command;

/// Minor page faults each of ten strings of `bytes` took, made and freed
/// in turn by the runner's php with the runner's environment (which turns
/// PHP's own allocator off: it keeps an emptied 2 MiB chunk and maps a
/// larger block fresh every time), or without `USE_ZEND_ALLOC` when
/// `own_allocator`.
fn faults_per_string(bytes: usize, own_allocator: bool) -> Vec<i64> {
    if let Err(why) = cryptobench_runtime::php::available() {
        panic!("this test needs php: {why} (scripts/install-deps installs php-cli)");
    }
    let cmd =
        cryptobench_runtime::php::runner::command_from_env().expect("the embedded runner script");
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
fn large_strings_come_with_fresh_pages_and_medium_ones_are_recycled() {
    cryptobench_engine::host::heap::fix_for_this_process();
    // 2,048 pages of 4 KiB for each 8 MiB string, every time.
    let large = faults_per_string(8 << 20, false);
    assert_eq!(large.len(), 10);
    assert!(large.iter().all(|&f| f >= 1500), "{large:?}");
    // A 1 MiB string's 256 pages are there again from the second on.
    let medium = faults_per_string(1 << 20, false);
    assert!(medium[2..].iter().all(|&f| f < 50), "{medium:?}");
}

#[test]
fn the_runner_environment_puts_php_strings_under_the_policy_not_zends() {
    cryptobench_engine::host::heap::fix_for_this_process();
    // A 3 MiB string is under the policy's 4 MiB: its 768 pages are
    // recycled from the second string on...
    let policy = faults_per_string(3 << 20, false);
    assert!(policy[2..].iter().all(|&f| f < 50), "{policy:?}");
    // ... while PHP's own allocator maps every block past its 2 MiB
    // chunk fresh, which is what the runner's environment turns off.
    let own = faults_per_string(3 << 20, true);
    assert!(own.iter().all(|&f| f >= 600), "{own:?}");
}

//! Keeps the engine's layering (see the crate's `//!` doc): reads every
//! source file of the crate, collects which module names which other
//! module through a `crate::` or `super::` path (doc links included, as
//! they are read as dependencies too), and fails on an import of a higher
//! layer or on any cycle between modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers from the bottom up; a module may name its own layer or lower.
const LAYERS: [&str; 5] = ["sample", "host", "build", "group", "schedule"];

/// Module (`layer/name`) -> the modules it names.
type Graph = BTreeMap<String, BTreeSet<String>>;

fn rank(module: &str) -> Option<usize> {
    let layer = module.split('/').next()?;
    LAYERS.iter().position(|l| *l == layer)
}

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the engine's src directory is readable") {
        let path = entry.expect("a readable directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file belongs to, as `layer/name`; a `name_tests.rs` file
/// belongs to `name`, a layer's `mod.rs` to the layer itself. `None` for
/// the crate root and this file.
fn module_of(relative: &Path) -> Option<String> {
    let parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [layer, name] if name == "mod" => Some(layer.clone()),
        [layer, name] => Some(format!("{layer}/{}", name.trim_end_matches("_tests"))),
        _ => None,
    }
}

/// Identifiers following `prefix` in `text`, each with the one after it
/// (`crate::group::rounds` gives `("group", Some("rounds"))`).
fn paths_after<'t>(text: &'t str, prefix: &str) -> Vec<(&'t str, Option<&'t str>)> {
    let ident = |s: &'t str| -> &'t str {
        let end = s
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(s.len());
        &s[..end]
    };
    let mut found = Vec::new();
    for (at, _) in text.match_indices(prefix) {
        let rest = &text[at + prefix.len()..];
        let first = ident(rest);
        let second = rest[first.len()..]
            .strip_prefix("::")
            .map(ident)
            .filter(|s| !s.is_empty());
        found.push((first, second));
    }
    found
}

/// The import graph of the modules whose sources are given as
/// (`layer/name`, text).
fn graph(files: &[(String, String)]) -> Graph {
    let known: BTreeSet<&str> = files.iter().map(|(m, _)| m.as_str()).collect();
    let mut g = Graph::new();
    for (module, text) in files {
        let edges = g.entry(module.clone()).or_default();
        for (first, second) in paths_after(text, "crate::") {
            let target = match second {
                Some(s) if known.contains(format!("{first}/{s}").as_str()) => {
                    format!("{first}/{s}")
                }
                _ => first.to_string(),
            };
            if rank(&target).is_some() && target != *module {
                edges.insert(target);
            }
        }
        // `super::x` in a layer's file names a sibling module `x`.
        let layer = module.split('/').next().unwrap_or_default();
        for (first, _) in paths_after(text, "super::") {
            let sibling = format!("{layer}/{first}");
            if known.contains(sibling.as_str()) && sibling != *module {
                edges.insert(sibling);
            }
        }
    }
    g
}

/// Every import of a higher layer, as "from -> to".
fn upward(g: &Graph) -> Vec<String> {
    let mut bad = Vec::new();
    for (from, tos) in g {
        for to in tos {
            if rank(to) > rank(from) {
                bad.push(format!("{from} -> {to}"));
            }
        }
    }
    bad
}

/// One cycle of the graph, if it has any, as the modules along it.
fn a_cycle(g: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        g: &Graph,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in g.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, g, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    g.keys()
        .find_map(|n| visit(n, g, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_imports_a_higher_layer_or_takes_part_in_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    sources(&src, &mut paths);
    let mut files = Vec::new();
    for path in paths {
        let relative = path.strip_prefix(&src).expect("under src");
        let Some(module) = module_of(relative) else {
            continue;
        };
        assert!(
            rank(&module).is_some(),
            "{} is in no layer; the layers are {LAYERS:?}",
            relative.display()
        );
        let text = std::fs::read_to_string(&path).expect("a readable source file");
        files.push((module, text));
    }
    assert!(files.len() > 10, "found only {} modules", files.len());
    let g = graph(&files);
    assert_eq!(
        upward(&g),
        Vec::<String>::new(),
        "imports of a higher layer"
    );
    assert_eq!(a_cycle(&g), None, "a cycle between modules");
}

#[test]
fn the_checks_catch_an_upward_import_and_a_cycle() {
    let files = vec![
        (
            "sample/clock".to_string(),
            "use crate::group::rounds::X;".to_string(),
        ),
        (
            "group/rounds".to_string(),
            "use super::canary::Y;".to_string(),
        ),
        (
            "group/canary".to_string(),
            "/// [`crate::group::rounds`]".to_string(),
        ),
    ];
    let g = graph(&files);
    assert_eq!(upward(&g), vec!["sample/clock -> group/rounds".to_string()]);
    assert_eq!(
        a_cycle(&g),
        Some(vec![
            "group/canary".to_string(),
            "group/rounds".to_string(),
            "group/canary".to_string()
        ])
    );
}

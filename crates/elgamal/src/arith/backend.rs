//! The arithmetic registry: one [`ArithBackend`] per library, listed once in
//! [`register`]. The suite, the command line, the MPI benchmark and the
//! tests enumerate it, so a new arithmetic is one module (its
//! [`Arithmetic`] and its [`ArithBackend`]) plus one line in [`register`].
//!
//! Building the prepared arithmetic is generic, not a trait object: the
//! cipher is compiled once per arithmetic so nothing dynamic sits in the
//! timed loop. Code that needs an engine is an [`EngineTask`];
//! [`ArithBackend::prepare`] hands it the engine of a curve, and [`run`]
//! finds the backend by name through the same registry list.

use super::Arithmetic;
use crate::cipher::CurveEngine;
use crate::curve::Curve;
use cryptobench_core::{names, Availability, BackendInfo, Error};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Code generic over the arithmetic, run on the engine a backend prepared.
pub trait EngineTask {
    /// What the task returns.
    type Output;
    /// Runs on the engine (the arithmetic, G's table, the `char` points).
    fn run<A: Arithmetic>(self, engine: Arc<CurveEngine<A>>) -> Result<Self::Output, Error>;
}

/// One arithmetic library.
pub trait ArithBackend: Sync {
    /// Name on the command line (`arith=`) and in results (`backend`).
    fn name(&self) -> &'static str;
    /// The library's version string for results.
    fn version(&self) -> String;
    /// Whether it implements `curve`, and why not when it does not.
    fn availability(&self, curve: Curve) -> Availability;
    /// Whether it is the one measured fastest on `curve`, the default there.
    fn fastest_on(&self, curve: Curve) -> bool;
    /// Builds (once per process) the engine of `curve` and runs `task` on
    /// it. `curve` is one [`ArithBackend::availability`] accepts ([`run`]
    /// checks before it calls).
    fn prepare<T: EngineTask>(&self, curve: Curve, task: T) -> Result<T::Output, Error>
    where
        Self: Sized;
}

/// A registered backend.
pub type Backend = &'static dyn ArithBackend;

impl fmt::Debug for dyn ArithBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq for dyn ArithBackend {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for dyn ArithBackend {}

/// Something done once per registered backend, with its concrete type.
pub trait Registrar {
    /// Called for each backend, in registry order.
    fn backend<B: ArithBackend>(&mut self, backend: &'static B);
}

/// The registry: every backend, in table order.
pub fn register(r: &mut impl Registrar) {
    r.backend(&super::ossl::Openssl);
    r.backend(&super::rustcrypto::Rustcrypto);
    r.backend(&super::native::Native);
}

/// Every backend, in table order.
pub fn all() -> Vec<Backend> {
    struct Collect(Vec<Backend>);
    impl Registrar for Collect {
        fn backend<B: ArithBackend>(&mut self, backend: &'static B) {
            self.0.push(backend);
        }
    }
    let mut c = Collect(Vec::new());
    register(&mut c);
    c.0
}

/// Every backend's name, in table order.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|b| b.name()).collect()
}

/// Resolves a user-typed name ("did you mean" on a typo).
pub fn parse(name: &str) -> Result<Backend, Error> {
    let (all, names) = (all(), names());
    let found = names::resolve("arithmetic backend", name, &names)?;
    Ok(all[names.iter().position(|n| *n == found).unwrap_or(0)])
}

/// The fastest backend measured for `curve` (`cargo run --release -p
/// cryptobench-elgamal --example arith_speed`): the one that says
/// [`ArithBackend::fastest_on`], else the first that implements it.
pub fn default_for(curve: Curve) -> Backend {
    let all = all();
    all.iter()
        .find(|b| b.fastest_on(curve))
        .or_else(|| all.iter().find(|b| implements(**b, curve)))
        .copied()
        .unwrap_or(all[0])
}

/// Whether `backend` implements `curve`.
pub fn implements(backend: Backend, curve: Curve) -> bool {
    backend.availability(curve) == Availability::Available
}

/// Why `backend` cannot run `curve`, if it cannot.
pub fn unsupported_reason(backend: Backend, curve: Curve) -> Option<String> {
    match backend.availability(curve) {
        Availability::Available => None,
        Availability::Unavailable(reason) => Some(reason),
    }
}

/// The backend as the run's fingerprint lists it.
pub fn info(backend: Backend) -> BackendInfo {
    Availability::Available.info(backend.name(), backend.version())
}

/// Runs `task` on the engine of `curve` built by `backend`; a usage error
/// naming the reason when the backend does not implement the curve.
pub fn run<T: EngineTask>(backend: Backend, curve: Curve, task: T) -> Result<T::Output, Error> {
    if let Some(reason) = unsupported_reason(backend, curve) {
        return Err(Error::usage(reason));
    }
    struct Dispatch<T: EngineTask> {
        name: &'static str,
        curve: Curve,
        task: Option<T>,
        out: Option<Result<T::Output, Error>>,
    }
    impl<T: EngineTask> Registrar for Dispatch<T> {
        fn backend<B: ArithBackend>(&mut self, backend: &'static B) {
            if backend.name() == self.name {
                if let Some(task) = self.task.take() {
                    self.out = Some(backend.prepare(self.curve, task));
                }
            }
        }
    }
    let mut d = Dispatch {
        name: backend.name(),
        curve,
        task: Some(task),
        out: None,
    };
    register(&mut d);
    d.out.unwrap_or_else(|| {
        Err(Error::NotRegistered {
            kind: "arithmetic backend",
            name: backend.name().to_string(),
        })
    })
}

/// One process-wide engine: built on first use, shared afterwards (and the
/// failure kept, so it is not retried on every case).
pub(crate) type EngineCell<A> = OnceLock<Result<Arc<CurveEngine<A>>, String>>;

/// The engine in `cell`, built by `make` the first time.
pub(crate) fn cached<A: Arithmetic>(
    cell: &'static EngineCell<A>,
    make: impl FnOnce() -> Result<A, Error>,
) -> Result<Arc<CurveEngine<A>>, Error> {
    cell.get_or_init(|| {
        make()
            .and_then(CurveEngine::new)
            .map(Arc::new)
            .map_err(|e| e.to_string())
    })
    .clone()
    .map_err(|why| Error::failed("building the curve engine", why))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name of the backend an engine's arithmetic says it belongs to.
    struct Owner;

    impl EngineTask for Owner {
        type Output = &'static str;
        fn run<A: Arithmetic>(self, engine: Arc<CurveEngine<A>>) -> Result<&'static str, Error> {
            Ok(engine.arith().backend().name())
        }
    }

    #[test]
    fn every_engine_belongs_to_the_backend_that_built_it() {
        for curve in Curve::ALL {
            for backend in all().into_iter().filter(|b| implements(*b, curve)) {
                let owner = run(backend, curve, Owner).expect("engine");
                assert_eq!(owner, backend.name(), "{curve}");
            }
        }
    }

    #[test]
    fn names_are_unique_and_every_curve_has_a_default() {
        let mut names = names();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all().len());
        for curve in Curve::ALL {
            assert!(implements(default_for(curve), curve), "{curve}");
        }
        assert_eq!(default_for(Curve::P256).name(), "openssl");
        assert_eq!(default_for(Curve::Secp256k1).name(), "rustcrypto");
        assert_eq!(default_for(Curve::Toy64).name(), "native");
    }

    #[test]
    fn unsupported_curves_are_refused_with_the_reason() {
        let openssl = parse("openssl").expect("registered");
        let e = run(openssl, Curve::Toy64, Owner).unwrap_err().to_string();
        assert!(e.contains("toy64 uses the native arithmetic"), "{e}");
        let e = parse("rustcrypt").unwrap_err().to_string();
        assert!(e.contains("rustcrypto"), "{e}");
    }
}

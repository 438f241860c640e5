//! OpenSSL as a peer: `openssl s_server` started and stopped by the suite,
//! and the `openssl` processes that talk to it.
//!
//! The server listens on 127.0.0.1 only ([`SServer::start`] refuses any
//! other address), on a free port, with `-naccept` bounding its
//! connections; it is killed when dropped, and the kernel kills it if
//! cryptobench dies first (`PR_SET_PDEATHSIG`, set in the child: the
//! measuring thread that starts it lives as long as the run). Its
//! certificate, key and OpenSSL configuration live in a private temporary
//! directory (0700, files 0600) that is removed with it. The configuration
//! (`OPENSSL_CONF`) limits both the server and `s_time`'s client to the
//! row's group, TLS 1.3 and TLS_AES_256_GCM_SHA384, so OpenSSL's client
//! sends the right key share at once (no HelloRetryRequest).
//!
//! A process's CPU time is read through its CPU-time clock
//! (`clock_getcpuclockid`, nanoseconds, user + system) for the long-lived
//! server, and from `wait4`'s resource usage for a client process.

use crate::catalog::Group;
use crate::certs::CertSet;
use crate::error::TlsError;
use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The one address the peer server may listen on.
pub const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
/// Connections one server accepts before it exits (`-naccept`): more than
/// a `--full` run's s_time samples make, each of a few thousand; a server
/// that reached it is started again.
pub const MAX_CONNECTIONS: u64 = 200_000;
/// The cipher suite of every peer handshake (the rustls rows' too).
pub const CIPHER_SUITE: &str = "TLS_AES_256_GCM_SHA384";
/// How long a server may take to listen.
const START_DEADLINE: Duration = Duration::from_secs(5);

/// The peer's files in a private directory, removed on drop.
pub struct PeerFiles {
    dir: tempfile::TempDir,
    /// The root certificate (PEM), for the clients' `-CAfile`.
    pub ca: PathBuf,
    /// The server's leaf certificate (PEM).
    pub cert: PathBuf,
    /// The server's key (PEM).
    pub key: PathBuf,
    /// The OpenSSL configuration both sides load.
    pub conf: PathBuf,
}

impl PeerFiles {
    /// Writes `set` and a configuration for `group` into a fresh private
    /// directory.
    pub fn write(set: &CertSet, group: &Group) -> Result<Self, TlsError> {
        let openssl_group = group.openssl.ok_or_else(|| {
            TlsError::peer("s_server", format!("OpenSSL 3.0 has no {}", group.name))
        })?;
        let dir = tempfile::Builder::new()
            .prefix("cryptobench-tls-")
            .tempdir()
            .map_err(TlsError::io("making the peer's private directory"))?;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
            .map_err(TlsError::io("making the peer's directory private"))?;
        let conf = format!(
            "openssl_conf = openssl_init\n[openssl_init]\nssl_conf = ssl_sect\n[ssl_sect]\n\
             system_default = tls_sect\n[tls_sect]\nMinProtocol = TLSv1.3\n\
             Groups = {openssl_group}\nCiphersuites = {CIPHER_SUITE}\n"
        );
        let write = |name: &str, text: &str| -> Result<PathBuf, TlsError> {
            let path = dir.path().join(name);
            // A new file only, private to this user.
            let mut f = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&path)
                .map_err(TlsError::io("writing the peer's files"))?;
            f.write_all(text.as_bytes())
                .map_err(TlsError::io("writing the peer's files"))?;
            Ok(path)
        };
        Ok(Self {
            ca: write("root.pem", &set.root_pem)?,
            cert: write("leaf.pem", &set.leaf_pem)?,
            key: write("leaf.key", &set.leaf_key_pem)?,
            conf: write("openssl.cnf", &conf)?,
            dir,
        })
    }

    /// The private directory.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

/// `openssl` with the peer's configuration, killed with its parent.
fn openssl(files: &PeerFiles) -> Command {
    let mut cmd = Command::new("openssl");
    cmd.env("OPENSSL_CONF", &files.conf)
        .stdin(Stdio::null())
        .current_dir(files.dir());
    // SAFETY: prctl is async-signal-safe; the closure allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

/// A spawn failure: the program missing, or another reason.
fn spawn_failed(what: &'static str) -> impl FnOnce(std::io::Error) -> TlsError {
    move |e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            TlsError::OpensslMissing(e.to_string())
        } else {
            TlsError::peer(what, format!("cannot start: {e}"))
        }
    }
}

/// A running `openssl s_server`.
pub struct SServer {
    child: Option<Child>,
    port: u16,
    /// Connections made to it so far (s_time's and the checks').
    pub connections: u64,
    errors: PathBuf,
}

impl SServer {
    /// Starts `s_server` on `bind` (127.0.0.1 only) for `files`' group
    /// and certificate, and waits until it accepts connections.
    pub fn start(bind: IpAddr, files: &PeerFiles) -> Result<Self, TlsError> {
        if bind != LOOPBACK {
            return Err(TlsError::NotLoopback(bind));
        }
        let errors = files.dir().join("s_server.err");
        let mut last = String::new();
        // A port found free can be taken before the server binds it: try
        // another a few times.
        for _ in 0..5 {
            let port = free_port()?;
            let log = OpenOptions::new()
                .create(true)
                .append(true)
                .mode(0o600)
                .open(&errors)
                .map_err(TlsError::io("opening the server's error log"))?;
            let child = openssl(files)
                .args(["s_server", "-accept"])
                .arg(format!("{LOOPBACK}:{port}"))
                .arg("-cert")
                .arg(&files.cert)
                .arg("-key")
                .arg(&files.key)
                .args(["-tls1_3", "-num_tickets", "0", "-rev", "-quiet", "-naccept"])
                .arg(MAX_CONNECTIONS.to_string())
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .map_err(spawn_failed("s_server"))?;
            let mut server = Self {
                child: Some(child),
                port,
                connections: 0,
                errors: errors.clone(),
            };
            match server.wait_listening() {
                Ok(()) => return Ok(server),
                Err(e) => last = e.to_string(),
            }
        }
        Err(TlsError::peer("s_server", format!("did not start: {last}")))
    }

    fn wait_listening(&mut self) -> Result<(), TlsError> {
        let deadline = Instant::now() + START_DEADLINE;
        let addr = SocketAddr::new(LOOPBACK, self.port);
        while Instant::now() < deadline {
            if !self.running() {
                return Err(TlsError::peer(
                    "s_server",
                    format!("exited: {}", self.error_tail()),
                ));
            }
            // The probe counts as one of its connections.
            if TcpStream::connect_timeout(&addr, Duration::from_millis(100)).is_ok() {
                self.connections += 1;
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Err(TlsError::peer("s_server", "not listening after 5 s"))
    }

    /// Its port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Its process id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Whether it still runs.
    pub fn running(&mut self) -> bool {
        matches!(self.child.as_mut().map(Child::try_wait), Some(Ok(None)))
    }

    /// Whether it can take `more` connections before `-naccept` ends it.
    pub fn room_for(&mut self, more: u64) -> bool {
        self.running() && self.connections + more < MAX_CONNECTIONS
    }

    /// The CPU time (user + system) it has used, ns.
    pub fn cpu_ns(&self) -> Result<u64, TlsError> {
        let pid = self
            .pid()
            .ok_or_else(|| TlsError::peer("s_server", "stopped"))?;
        process_cpu_ns(pid)
    }

    /// The last lines it wrote to its error stream.
    pub fn error_tail(&self) -> String {
        let text = std::fs::read(&self.errors).unwrap_or_default();
        let text = String::from_utf8_lossy(&text[text.len().saturating_sub(400)..]);
        text.lines().last().unwrap_or("(nothing)").to_string()
    }

    /// Kills it and reaps it.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for SServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A port on 127.0.0.1 that was free a moment ago.
fn free_port() -> Result<u16, TlsError> {
    let listener = TcpListener::bind((LOOPBACK, 0)).map_err(TlsError::io("finding a free port"))?;
    let port = listener
        .local_addr()
        .map_err(TlsError::io("finding a free port"))?
        .port();
    Ok(port)
}

/// The CPU time of process `pid` through its CPU-time clock, ns.
pub fn process_cpu_ns(pid: u32) -> Result<u64, TlsError> {
    let pid =
        libc::pid_t::try_from(pid).map_err(|_| TlsError::peer("cpu clock", "pid out of range"))?;
    let mut clock: libc::clockid_t = 0;
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: both out-pointers point to live locals of the right types.
    let ok = unsafe {
        libc::clock_getcpuclockid(pid, &mut clock) == 0 && libc::clock_gettime(clock, &mut ts) == 0
    };
    if !ok {
        return Err(TlsError::peer(
            "cpu clock",
            format!("cannot read process {pid}'s CPU time"),
        ));
    }
    let secs = u64::try_from(ts.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(ts.tv_nsec).unwrap_or(0);
    Ok(secs * 1_000_000_000 + nanos)
}

/// A finished `openssl` client process.
pub struct Ran {
    /// Whether it exited with status 0.
    pub success: bool,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
    /// Its CPU time (user + system), ns.
    pub cpu_ns: u64,
    /// From start to exit, ns.
    pub wall_ns: u64,
}

/// Runs `openssl ARGS` with the peer's configuration; killed past
/// `deadline`.
pub fn run(files: &PeerFiles, args: &[&str], deadline: Duration) -> Result<Ran, TlsError> {
    let started = Instant::now();
    let mut child = openssl(files)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn_failed("openssl"))?;
    let out = reader(child.stdout.take());
    let err = reader(child.stderr.take());
    let pid = libc::pid_t::try_from(child.id()).unwrap_or(0);
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value to be overwritten.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: pid is our own child; the out-pointers are live locals.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break (status, usage);
        }
        if done < 0 {
            return Err(TlsError::peer("openssl", "lost its child process"));
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(TlsError::peer(
                "openssl",
                format!("`openssl {}` ran past {deadline:?}; killed", args.join(" ")),
            ));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let cpu = |t: libc::timeval| {
        u64::try_from(t.tv_sec).unwrap_or(0) * 1_000_000_000
            + u64::try_from(t.tv_usec).unwrap_or(0) * 1_000
    };
    Ok(Ran {
        success: libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        cpu_ns: cpu(usage.ru_utime) + cpu(usage.ru_stime),
        wall_ns: u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX),
    })
}

/// Reads a child's stream to its end in a thread (at most 1 MiB kept).
fn reader<R: Read + Send + 'static>(stream: Option<R>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(s) = stream {
            let _ = s.take(1 << 20).read_to_end(&mut text);
        }
        String::from_utf8_lossy(&text).into_owned()
    })
}

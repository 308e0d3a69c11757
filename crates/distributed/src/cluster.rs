//! The processes of a run, the connections between them, and timely workers over
//! them.
//!
//! # Conventions (timely's)
//! `processes` processes, numbered `0..processes`, each running `threads` workers;
//! worker `w` of process `p` is worker `p * threads + w` of the run. A hostfile
//! lists one `host:port` a line, process `p` on line `p + 1`; process `p` listens
//! there, and connects to every process numbered below it.
//!
//! # Why the connections are made here
//! timely's own start-up retries an unreachable peer forever, printing to standard
//! output, and a peer started for another job would exchange garbage. Here each
//! connection begins with a handshake (magic, process number, worker threads, and
//! the job's description), a peer that does not answer within the connect timeout
//! is an error naming it, and the sockets are then handed to timely.
//!
//! # Failure
//! timely's network threads panic when a peer's connection breaks (the peer died,
//! its machine went away). A panic hook installed for the run records which peer
//! (from the thread's name, `timely:recv-P` or `timely:send-P`), and parks every
//! timely thread that panics from then on instead of letting it unwind (see
//! [`park_forever`] for why); every worker checks for a lost peer while it waits
//! for a round, and stops with [`Lost`]. [`run`] then returns [`Error::PeerLost`]
//! naming the peer, within a second of the break.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use timely::communication::allocator::zero_copy::initialize::{initialize_networking_from_sockets, CommsGuard};
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{AllocatorBuilder, Hooks};
use timely::worker::Worker;

/// The processes of a run and this one's place among them.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// Number of processes.
    pub processes: usize,
    /// This process's number, `0..processes`.
    pub process: usize,
    /// `host:port` of each process (empty for a single process).
    pub addresses: Vec<String>,
    /// Worker threads per process (the same in every process).
    pub threads: usize,
    /// How long to wait for every peer to connect.
    pub connect_timeout: Duration,
}

/// Hostfiles longer than this are refused before they are read whole.
const MAX_HOSTFILE: usize = 1 << 20;
/// The longest job description a handshake carries.
const MAX_JOB: usize = 4096;
const MAGIC: [u8; 8] = *b"gsolve-d";
/// Bumped when what processes exchange changes.
const PROTOCOL: u32 = 1;

/// What can go wrong in a run. [`Error::is_usage`] tells the user's mistakes
/// (exit status 2) from failures of the run (exit status 1).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A hostfile line that is not `host:port`.
    #[error("{file}, line {line}: {message}")]
    Hostfile {
        /// The hostfile's name.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The processes and the hostfile disagree, or the numbers make no sense.
    #[error("{0}")]
    Setup(String),
    /// The hostfile lists another number of processes than the run has.
    #[error("{file} lists {listed} process{} but the run has {processes}", if *.listed == 1 { "" } else { "es" })]
    HostfileCount {
        /// The hostfile's name.
        file: String,
        /// The processes it lists.
        listed: usize,
        /// The processes of the run.
        processes: usize,
    },
    /// This process's number is not below the number of processes.
    #[error("process {process} is not below the run's {processes} processes (processes are numbered from 0)")]
    NoSuchProcess {
        /// This process's number.
        process: usize,
        /// The processes of the run.
        processes: usize,
    },
    /// This process cannot listen on its address (most often: the port is in use).
    #[error("process {process} cannot listen on {address}: {source}")]
    Bind {
        /// This process.
        process: usize,
        /// Its address.
        address: String,
        /// Why.
        source: std::io::Error,
    },
    /// A peer did not connect, or could not be connected to, in time.
    #[error("process {process} ({address}) could not be reached within {seconds} s{detail}")]
    Unreachable {
        /// The peer.
        process: usize,
        /// Its address.
        address: String,
        /// The connect timeout.
        seconds: u64,
        /// The last error seen, if any (`: connection refused`).
        detail: String,
    },
    /// A peer answered, but not as a process of this run.
    #[error("process {process} ({address}): {message}")]
    Handshake {
        /// The peer.
        process: usize,
        /// Its address.
        address: String,
        /// What did not match.
        message: String,
    },
    /// A peer's connection broke during the run.
    #[error("process {process} ({address}) is gone: {cause}")]
    PeerLost {
        /// The peer.
        process: usize,
        /// Its address.
        address: String,
        /// The network error seen.
        cause: String,
    },
    /// A worker thread of this process panicked (a bug).
    #[error("a worker failed: {0}")]
    Worker(String),
    /// timely could not start.
    #[error("timely: {0}")]
    Timely(String),
}

impl Error {
    /// True for mistakes in what the user asked (exit status 2): a bad hostfile,
    /// numbers that disagree, a port in use, a peer started for another job.
    pub fn is_usage(&self) -> bool {
        matches!(self, Error::Hostfile { .. } | Error::Setup(_) | Error::Bind { .. } | Error::Handshake { .. })
    }
}

/// A worker stopped because a peer is gone; [`run`] says which.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lost;

impl Cluster {
    /// One process with `threads` workers: no network.
    pub fn single(threads: usize) -> Cluster {
        Cluster {
            processes: 1,
            process: 0,
            addresses: Vec::new(),
            threads: threads.max(1),
            connect_timeout: Duration::from_secs(30),
        }
    }

    /// Process `process` of `processes` at the addresses of a hostfile's text
    /// (`file` names it in errors). Blank lines and lines starting with `#` are
    /// skipped; the hostfile must list exactly `processes` addresses.
    pub fn from_hostfile(
        text: &str,
        file: &str,
        processes: usize,
        process: usize,
        threads: usize,
    ) -> Result<Cluster, Error> {
        let mut addresses = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let hostfile_error =
                |message: String| Error::Hostfile { file: file.to_string(), line: number + 1, message };
            let excerpt: String = line.chars().take(40).collect();
            let Some((host, port)) = line.rsplit_once(':') else {
                return Err(hostfile_error(format!("`{excerpt}` is not host:port")));
            };
            if host.is_empty() || host.contains(char::is_whitespace) {
                return Err(hostfile_error(format!("`{excerpt}` has no host name")));
            }
            if port.parse::<u16>().map_or(true, |p| p == 0) {
                return Err(hostfile_error(format!("`{excerpt}`: the port must be a number from 1 to 65535")));
            }
            addresses.push(line.to_string());
        }
        if addresses.len() != processes {
            return Err(Error::HostfileCount { file: file.to_string(), listed: addresses.len(), processes });
        }
        Cluster::new(processes, process, addresses, threads)
    }

    /// Reads a hostfile (at most 1 MiB) and calls [`Cluster::from_hostfile`].
    pub fn read_hostfile(
        path: &std::path::Path,
        processes: usize,
        process: usize,
        threads: usize,
    ) -> Result<Cluster, Error> {
        let name = path.display().to_string();
        let unreadable = |e: std::io::Error| Error::Setup(format!("cannot read the hostfile {name}: {e}"));
        let file = std::fs::File::open(path).map_err(unreadable)?;
        let mut bytes = Vec::new();
        file.take(MAX_HOSTFILE as u64 + 1).read_to_end(&mut bytes).map_err(unreadable)?;
        if bytes.len() > MAX_HOSTFILE {
            return Err(Error::Setup(format!("{name}: a hostfile of more than 1 MiB")));
        }
        let text = String::from_utf8(bytes).map_err(|_| Error::Setup(format!("{name}: not UTF-8 text")))?;
        Cluster::from_hostfile(&text, &name, processes, process, threads)
    }

    /// Process `process` of `processes` at `addresses`.
    pub fn new(processes: usize, process: usize, addresses: Vec<String>, threads: usize) -> Result<Cluster, Error> {
        if processes == 0 || threads == 0 {
            return Err(Error::Setup("a run needs at least one process and one worker thread".into()));
        }
        if process >= processes {
            return Err(Error::NoSuchProcess { process, processes });
        }
        if processes > 1 && addresses.len() != processes {
            return Err(Error::Setup(format!("{} addresses for {processes} processes", addresses.len())));
        }
        Ok(Cluster { processes, process, addresses, threads, connect_timeout: Duration::from_secs(30) })
    }

    /// Workers in the whole run.
    pub fn workers(&self) -> usize {
        self.processes * self.threads
    }

    /// The address of process `process`, for messages.
    pub fn address(&self, process: usize) -> &str {
        self.addresses.get(process).map_or("this machine", String::as_str)
    }

    /// Connects to every peer: listens on this process's address, accepts the
    /// processes numbered above it, connects to those below (retrying until the
    /// connect timeout), and checks each peer's handshake against `job`.
    /// The result has one socket per process, `None` at this one's place.
    pub fn connect(&self, job: &str) -> Result<Vec<Option<TcpStream>>, Error> {
        let deadline = Instant::now() + self.connect_timeout;
        let own = &self.addresses[self.process];
        let bind_error = |source| Error::Bind { process: self.process, address: own.clone(), source };
        let listen_at: Vec<SocketAddr> = own.to_socket_addrs().map_err(bind_error)?.collect();
        let listener = TcpListener::bind(&listen_at[..]).map_err(bind_error)?;
        listener.set_nonblocking(true).map_err(bind_error)?;
        let mut sockets: Vec<Option<TcpStream>> = (0..self.processes).map(|_| None).collect();
        // Lower-numbered peers are dialled first; meanwhile higher-numbered ones
        // wait in the listener's backlog.
        for (peer, socket) in sockets.iter_mut().enumerate().take(self.process) {
            *socket = Some(self.dial(peer, job, deadline)?);
        }
        while let Some(waiting) = (self.process + 1..self.processes).find(|&p| sockets[p].is_none()) {
            match listener.accept() {
                Ok((stream, _)) => {
                    let (peer, stream) = self.answer(stream, job)?;
                    sockets[peer] = Some(stream);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() >= deadline {
                        return Err(self.unreachable(waiting, String::new()));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(bind_error(e)),
            }
        }
        for socket in sockets.iter().flatten() {
            socket.set_read_timeout(None).and_then(|()| socket.set_nodelay(true)).map_err(bind_error)?;
        }
        Ok(sockets)
    }

    fn unreachable(&self, process: usize, detail: String) -> Error {
        Error::Unreachable {
            process,
            address: self.address(process).to_string(),
            seconds: self.connect_timeout.as_secs(),
            detail,
        }
    }

    /// Connects to a lower-numbered peer, retrying until `deadline`.
    fn dial(&self, peer: usize, job: &str, deadline: Instant) -> Result<TcpStream, Error> {
        let address = self.address(peer);
        loop {
            let attempt = address.to_socket_addrs().and_then(|mut addrs| {
                let addr = addrs.next().ok_or_else(|| std::io::Error::other("no address"))?;
                TcpStream::connect_timeout(&addr, Duration::from_secs(1))
            });
            match attempt {
                Ok(mut stream) => {
                    let handshake = |e: std::io::Error| self.handshake_error(peer, format!("handshake failed: {e}"));
                    stream.set_read_timeout(Some(self.connect_timeout)).map_err(handshake)?;
                    stream.write_all(&hello(self.process, self.threads, job)).map_err(handshake)?;
                    let (process, threads, their_job) =
                        read_hello(&mut stream).map_err(|m| self.handshake_error(peer, m))?;
                    self.check_peer(peer, process, threads, &their_job, job)?;
                    return Ok(stream);
                }
                Err(e) if Instant::now() >= deadline => return Err(self.unreachable(peer, format!(": {e}"))),
                Err(_) => {}
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Answers a higher-numbered peer's connection: reads its hello, checks it,
    /// replies with ours.
    fn answer(&self, mut stream: TcpStream, job: &str) -> Result<(usize, TcpStream), Error> {
        let from = stream.peer_addr().map_or("an unknown peer".into(), |a| a.to_string());
        let unknown = |message: String| Error::Handshake { process: self.processes, address: from.clone(), message };
        stream.set_nonblocking(false).map_err(|e| unknown(e.to_string()))?;
        stream.set_read_timeout(Some(self.connect_timeout)).map_err(|e| unknown(e.to_string()))?;
        let (process, threads, their_job) = read_hello(&mut stream).map_err(unknown)?;
        if process <= self.process || process >= self.processes {
            return Err(unknown(format!(
                "says it is process {process}, which should not connect to process {}",
                self.process
            )));
        }
        // Our hello goes back even to a peer we refuse, so that it can say why too.
        stream
            .write_all(&hello(self.process, self.threads, job))
            .map_err(|e| self.handshake_error(process, format!("handshake failed: {e}")))?;
        self.check_peer(process, process, threads, &their_job, job)?;
        Ok((process, stream))
    }

    fn handshake_error(&self, process: usize, message: String) -> Error {
        Error::Handshake { process, address: self.address(process).to_string(), message }
    }

    fn check_peer(
        &self,
        expected: usize,
        process: usize,
        threads: usize,
        their_job: &str,
        job: &str,
    ) -> Result<(), Error> {
        if process != expected {
            return Err(self.handshake_error(
                expected,
                format!("answered as process {process}: is the hostfile the same everywhere?"),
            ));
        }
        if threads != self.threads {
            return Err(self.handshake_error(
                expected,
                format!(
                    "runs {threads} worker thread(s), this process {}: give every process the same number of worker threads",
                    self.threads
                ),
            ));
        }
        if their_job != job {
            return Err(
                self.handshake_error(expected, format!("was started for `{their_job}`, this process for `{job}`"))
            );
        }
        Ok(())
    }
}

/// A handshake: magic, protocol, process, threads, the job's length and text.
fn hello(process: usize, threads: usize, job: &str) -> Vec<u8> {
    let job = &job.as_bytes()[..job.len().min(MAX_JOB)];
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&PROTOCOL.to_le_bytes());
    bytes.extend_from_slice(&(process as u32).to_le_bytes());
    bytes.extend_from_slice(&(threads as u32).to_le_bytes());
    bytes.extend_from_slice(&(job.len() as u32).to_le_bytes());
    bytes.extend_from_slice(job);
    bytes
}

fn read_hello(stream: &mut TcpStream) -> Result<(usize, usize, String), String> {
    let mut fixed = [0u8; 24];
    stream.read_exact(&mut fixed).map_err(|e| format!("no handshake ({e}): is it a gsolve process of this run?"))?;
    if fixed[..8] != MAGIC {
        return Err("not a gsolve process (wrong handshake)".into());
    }
    let word = |i: usize| u32::from_le_bytes(fixed[i..i + 4].try_into().expect("4 bytes"));
    if word(8) != PROTOCOL {
        return Err(format!("speaks protocol {}, this process {PROTOCOL}: run the same gsolve everywhere", word(8)));
    }
    let length = word(20) as usize;
    if length > MAX_JOB {
        return Err("a handshake too long".into());
    }
    let mut job = vec![0u8; length];
    stream.read_exact(&mut job).map_err(|e| format!("handshake cut short ({e})"))?;
    let job = String::from_utf8(job).map_err(|_| "a handshake that is not text".to_string())?;
    Ok((word(12) as usize, word(16) as usize, job))
}

// ---------------------------------------------------------------------------------
// Failure detection

/// The peer whose connection broke first, and how.
static LOST: Mutex<Option<(usize, String)>> = Mutex::new(None);
static ANY_LOST: AtomicBool = AtomicBool::new(false);
static HOOK: OnceLock<()> = OnceLock::new();

/// True once a peer's connection broke; workers waiting for a round stop.
pub fn peer_lost() -> bool {
    ANY_LOST.load(Ordering::Relaxed)
}

/// Installs (once per process) the hook that turns a network thread's panic into
/// a recorded lost peer, and keeps the panics that follow from it quiet. Every
/// other panic goes to the hook that was there before.
fn install_hook() {
    HOOK.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let name = std::thread::current().name().unwrap_or("").to_string();
            let peer = name.strip_prefix("timely:recv-").or_else(|| name.strip_prefix("timely:send-"));
            if let Some(peer) = peer.and_then(|p| p.parse::<usize>().ok()) {
                let cause = match info.payload().downcast_ref::<String>() {
                    Some(s) => s.clone(),
                    None => info.payload().downcast_ref::<&str>().map_or("a network error".into(), |s| s.to_string()),
                };
                let cause = cause.trim_start_matches("timely communication error: ").to_string();
                let mut lost = LOST.lock().unwrap_or_else(|p| p.into_inner());
                if lost.is_none() {
                    *lost = Some((peer, cause));
                }
                drop(lost);
                ANY_LOST.store(true, Ordering::Relaxed);
                park_forever();
            }
            if name.starts_with("timely:") && peer_lost() {
                // A worker or network thread falling over because a peer is gone.
                park_forever();
            }
            previous(info);
        }));
    });
}

/// Stops a timely thread that panicked because a peer is gone, for good, before
/// it unwinds.
///
/// Why not let it unwind: timely's queues are poisoned by the first panic, and
/// a thread unwinding through timely's buffers flushes them in `Drop`, which
/// panics on the poisoned queue — a panic during unwinding, which aborts the
/// whole process (`thread caused non-unwinding panic`) before [`run`] can report
/// the lost peer. A parked thread holds no lock of ours (the hook released
/// [`LOST`] first), [`run`] never joins these threads once a peer is lost, and
/// they end with the process.
fn park_forever() -> ! {
    loop {
        std::thread::park();
    }
}

/// Runs `work` on every worker of this process over the cluster's connections,
/// and returns each local worker's result in order.
///
/// `job` describes the work (game, parameters, what is built): every process
/// must be given the same, or the handshake refuses the peer. A worker that
/// returns `Err(Lost)` (it saw [`peer_lost`]) makes the run an
/// [`Error::PeerLost`] naming the peer.
pub fn run<T, F>(cluster: &Cluster, job: &str, work: F) -> Result<Vec<T>, Error>
where
    T: Send + 'static,
    F: Fn(&mut Worker) -> Result<T, Lost> + Send + Sync + 'static,
{
    install_hook();
    // The network threads' guard is kept here rather than given to timely, so that
    // a run whose peer broke off can leave those threads behind instead of joining
    // them (timely's guard panics on a network thread that panicked).
    let (builders, network): (Vec<AllocatorBuilder>, Option<CommsGuard>) = if cluster.processes == 1 {
        let (builders, _nothing) =
            timely::CommunicationConfig::Process(cluster.threads).try_build().map_err(Error::Timely)?;
        (builders, None)
    } else {
        let sockets = cluster.connect(job)?;
        let hooks = Hooks::default();
        let locals = ProcessBuilder::new_typed_vector(cluster.threads, hooks.refill.clone(), hooks.spill.clone());
        let (builders, guard) =
            initialize_networking_from_sockets(locals, sockets, cluster.process, cluster.threads, hooks)
                .map_err(|e| Error::Timely(e.to_string()))?;
        (builders.into_iter().map(AllocatorBuilder::Tcp).collect(), Some(guard))
    };
    let work = Arc::new(work);
    let guards =
        timely::execute::execute_from(builders, Box::new(()), timely::WorkerConfig::default(), move |worker| {
            work(worker)
        })
        .map_err(Error::Timely)?;
    let all_finished = |g: &timely::communication::WorkerGuards<_>| g.guards().iter().all(|h| h.is_finished());
    while !all_finished(&guards) && !peer_lost() {
        std::thread::sleep(Duration::from_millis(10));
    }
    if peer_lost() {
        // Workers see it within a round's wait; give them a moment, then report.
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline && !all_finished(&guards) {
            std::thread::sleep(Duration::from_millis(10));
        }
        std::mem::forget(guards);
        std::mem::forget(network);
        let (process, cause) = LOST.lock().unwrap_or_else(|p| p.into_inner()).clone().unwrap_or_default();
        return Err(Error::PeerLost { process, address: cluster.address(process).to_string(), cause });
    }
    let mut results = Vec::new();
    let mut failure = None;
    for result in guards.join() {
        match result {
            Ok(Ok(value)) => results.push(value),
            Ok(Err(Lost)) => failure = failure.or(Some(Error::Worker("stopped without a lost peer".into()))),
            Err(message) => failure = failure.or(Some(Error::Worker(message))),
        }
    }
    // Every worker is done: the network threads send their goodbyes and end. A peer
    // that goes away now changes nothing, so a failing goodbye is let go (on its
    // own thread, whose panic the hook keeps quiet).
    // The wait is bounded: a network thread that panicked then is parked (see
    // [`park_forever`]) and would keep the goodbye from ever finishing.
    if let Some(network) = network {
        if let Ok(goodbye) = std::thread::Builder::new().name("timely:shutdown".into()).spawn(move || drop(network)) {
            let deadline = Instant::now() + Duration::from_secs(5);
            while !goodbye.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(results),
    }
}

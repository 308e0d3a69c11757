//! `gsolve build ... --processes N --process I [--hostfile FILE] [--threads W]`
//! and `--local-processes N`: a build spread over processes (docs/distributed.md).

use crate::args::{DistributedArgs, TierArgs};
use crate::failure::Failure;
use crate::progress::Bar;
use gsolve_distributed::build::{self, BuildError, Target};
use gsolve_distributed::Cluster;
use gsolve_engine::Unmoves;
use gsolve_tablebase::write::StoredIdentity;
use gsolve_tablebase::WriteOptions;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A cluster error in the command line's words: the library's, with the flags that
/// set what it refuses.
fn worded(e: &gsolve_distributed::cluster::Error) -> String {
    use gsolve_distributed::cluster::Error;
    match e {
        Error::HostfileCount { file, listed, processes } => {
            format!(
                "{file} lists {listed} process{} but --processes is {processes}",
                if *listed == 1 { "" } else { "es" }
            )
        }
        Error::NoSuchProcess { process, processes } => {
            format!("--process {process} is not below --processes {processes}")
        }
        e => e.to_string(),
    }
}

/// What a build does with these arguments.
pub enum Plan {
    /// The single-process build.
    Alone,
    /// This process is one of a cluster.
    Member(Cluster),
    /// Start this many processes here and wait for them.
    Spawn(u32),
}

impl DistributedArgs {
    /// The plan; `threads` is the global --threads.
    pub fn plan(&self, threads: Option<u16>) -> Result<Plan, Failure> {
        if let Some(n) = self.local_processes {
            return Ok(Plan::Spawn(n));
        }
        let (Some(processes), Some(process)) = (self.processes, self.process) else {
            return Ok(Plan::Alone);
        };
        let (processes, process) = (processes as usize, process as usize);
        let threads = threads.map_or(1, usize::from);
        let mut cluster = match &self.hostfile {
            Some(path) => Cluster::read_hostfile(path, processes, process, threads),
            None => {
                let addresses = (0..processes).map(|p| format!("127.0.0.1:{}", 2101 + p)).collect();
                Cluster::new(processes, process, addresses, threads)
            }
        }
        .map_err(|e| Failure::Input(worded(&e)))?;
        cluster.connect_timeout = Duration::from_secs(self.connect_timeout);
        Ok(Plan::Member(cluster))
    }
}

/// What every process of a build must agree on: the game and how it is written.
fn job_of(stored: &StoredIdentity, options: &WriteOptions) -> String {
    let parameters: String = stored.parameters.iter().map(|(k, v)| format!(" {k}={v}")).collect::<Vec<_>>().concat();
    // A long parameter (a map, a rules file) is named by its length and hash.
    let parameters = if parameters.len() <= 160 {
        parameters
    } else {
        let hash =
            parameters.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        format!(" ({} bytes of parameters, hash {hash:016x})", parameters.len())
    };
    format!("build {}{parameters} level={}", stored.game, options.level)
}

/// One process's part of a distributed build of a game with un-moves.
/// `stored`: the game the file holds (`game` may be a faster form of it).
pub fn build_retrograde<G>(
    game: G,
    stored: StoredIdentity,
    output: &Path,
    options: WriteOptions,
    cluster: Cluster,
) -> Result<(), Failure>
where
    G: Unmoves + Send + Sync + 'static,
{
    let lead = cluster.process == 0;
    let started = Instant::now();
    let bar = Arc::new(Bar::new());
    let progress: build::SharedObserver = {
        let bar = Arc::clone(&bar);
        Arc::new(move |p| bar.observe(p))
    };
    let _cleanup =
        lead.then(|| crate::interrupt::remove_on_interrupt(&gsolve_tablebase::write::temporary_path(output)));
    let job = job_of(&stored, &options);
    let size = gsolve_engine::Indexed::index_size(&game);
    let name = stored.game;
    let target = Target { path: output.to_path_buf(), options, progress: lead.then_some(progress) };
    let result = build::build_retrograde(&cluster, &job, Arc::new(game), stored, target);
    drop(bar);
    let report = result.map_err(|e| match e {
        BuildError::Run(e) if e.is_usage() => Failure::Input(e.to_string()),
        BuildError::Run(e) => Failure::Other(anyhow::anyhow!("{e}")),
        BuildError::Write(e) => {
            Failure::Other(anyhow::Error::new(e).context(format!("cannot write {}", output.display())))
        }
    })?;
    let Some(written) = report.written else { return Ok(()) };
    let bytes = report.updates_away * 8;
    let note = format!(
        "; {} process{} of {} worker{}, {} rounds, {} updates ({:.2} bytes a position) and {} bytes of blocks between processes",
        cluster.processes,
        if cluster.processes == 1 { "" } else { "es" },
        cluster.threads,
        if cluster.threads == 1 { "" } else { "s" },
        report.rounds,
        report.updates_away,
        bytes as f64 / size.max(1) as f64,
        report.block_bytes_away,
    );
    crate::report::report_written(name, output, &written, started.elapsed(), None, &note)
}

/// One process's part of a distributed tiered build (pawns, rules games
/// built in tiers: swept, or solved by retrograde within each tier). The work directory is where this
/// process keeps its parts (its own, or one shared by every process).
/// `stored`: the game the file holds (`game` may be a faster form of it).
pub fn build_tiered<G>(
    game: G,
    stored: StoredIdentity,
    output: &Path,
    tier_args: &TierArgs,
    options: WriteOptions,
    cluster: Cluster,
) -> Result<(), Failure>
where
    G: gsolve_engine::Tiered + gsolve_engine::Indexed + Send + Sync + 'static,
{
    if tier_args.memory.is_some() {
        return Err(Failure::Input(
            "--memory is not taken by distributed builds yet (each process holds 1/N of a tier)".into(),
        ));
    }
    let work_dir = tier_args.work_dir.clone().unwrap_or_else(|| gsolve_tablebase::tiers::default_work_dir(output));
    let lead = cluster.process == 0;
    let started = Instant::now();
    let bar = Arc::new(Bar::new());
    let progress: build::SharedObserver = {
        let bar = Arc::clone(&bar);
        Arc::new(move |p| bar.observe(p))
    };
    let _cleanup =
        lead.then(|| crate::interrupt::remove_on_interrupt(&gsolve_tablebase::write::temporary_path(output)));
    // Every process must deal the tiers alike.
    let job = format!("{} split-above={}", job_of(&stored, &options), tier_args.split_above);
    let name = stored.game;
    let target = Target { path: output.to_path_buf(), options, progress: lead.then_some(progress) };
    let deal = gsolve_distributed::tiered::Options::default();
    let deal = gsolve_distributed::tiered::Options {
        small: tier_args.split_above,
        wave: deal.wave.max(tier_args.split_above),
    };
    let result =
        gsolve_distributed::tiered::build_tiered(&cluster, &job, Arc::new(game), stored, work_dir, target, deal);
    drop(bar);
    let report = result.map_err(|e| match e {
        BuildError::Run(e) if e.is_usage() => Failure::Input(e.to_string()),
        BuildError::Run(e) => Failure::Other(anyhow::anyhow!("{e}")),
        BuildError::Write(e) => {
            Failure::Other(anyhow::Error::new(e).context(format!("cannot build {}", output.display())))
        }
    })?;
    let Some(written) = report.written else { return Ok(()) };
    let note = format!(
        "; {} process{} of {} worker{}, {} rounds, {} bytes of child values and {} updates between processes",
        cluster.processes,
        if cluster.processes == 1 { "" } else { "es" },
        cluster.threads,
        if cluster.threads == 1 { "" } else { "s" },
        report.rounds,
        report.block_bytes_away,
        report.updates_away,
    );
    crate::report::report_written(name, output, &written, started.elapsed(), None, &note)
}

/// `--local-processes N`: runs this command again as processes 0..N of a build
/// over 127.0.0.1 (free ports, a hostfile in the temporary directory), waits for
/// them, and fails if any fails. When one fails, the others see their peer go and
/// stop on their own; any still running ten seconds later are killed.
pub fn spawn_local(processes: u32) -> Result<(), Failure> {
    let exe = std::env::current_exe().map_err(|e| Failure::Other(anyhow::anyhow!("cannot find gsolve itself: {e}")))?;
    let ports: Vec<u16> = {
        let listeners: Vec<_> = (0..processes)
            .map(|_| std::net::TcpListener::bind("127.0.0.1:0"))
            .collect::<Result<_, _>>()
            .map_err(|e| Failure::Other(anyhow::anyhow!("cannot find free ports on 127.0.0.1: {e}")))?;
        listeners.iter().filter_map(|l| l.local_addr().ok()).map(|a| a.port()).collect()
    };
    let hostfile = std::env::temp_dir().join(format!("gsolve-hosts-{}", std::process::id()));
    let text: String = ports.iter().map(|p| format!("127.0.0.1:{p}\n")).collect();
    std::fs::write(&hostfile, text)
        .map_err(|e| Failure::Other(anyhow::anyhow!("cannot write {}: {e}", hostfile.display())))?;
    let _remove = RemoveFile(hostfile.clone());
    let arguments = without_local_processes(std::env::args_os().skip(1));
    let mut children: Vec<(u32, Child)> = Vec::new();
    for process in 0..processes {
        let child = Command::new(&exe)
            .args(&arguments)
            .arg("--processes")
            .arg(processes.to_string())
            .arg("--process")
            .arg(process.to_string())
            .arg("--hostfile")
            .arg(&hostfile)
            .spawn()
            .map_err(|e| Failure::Other(anyhow::anyhow!("cannot start process {process}: {e}")))?;
        children.push((process, child));
    }
    wait_all(children)
}

/// Waits for every child; after the first failure, gives the others ten seconds.
fn wait_all(mut children: Vec<(u32, Child)>) -> Result<(), Failure> {
    let mut failed = Vec::new();
    let mut deadline: Option<Instant> = None;
    while !children.is_empty() {
        let mut i = 0;
        while i < children.len() {
            match children[i].1.try_wait() {
                Ok(Some(status)) => {
                    let (process, _) = children.remove(i);
                    if !status.success() {
                        failed.push(format!("process {process} {}", describe(status)));
                        deadline.get_or_insert(Instant::now() + Duration::from_secs(10));
                    }
                }
                Ok(None) => i += 1,
                Err(e) => return Err(Failure::Other(anyhow::anyhow!("cannot wait for a process: {e}"))),
            }
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            for (process, child) in &mut children {
                let _ = child.kill();
                let _ = child.wait();
                failed.push(format!("process {process} was stopped"));
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::Other(anyhow::anyhow!("the build failed: {}", failed.join(", "))))
    }
}

fn describe(status: std::process::ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "was killed by a signal".to_string(),
    }
}

/// The arguments without `--local-processes N` (or `--local-processes=N`).
fn without_local_processes(arguments: impl Iterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let mut kept = Vec::new();
    let mut skip_next = false;
    for argument in arguments {
        if skip_next {
            skip_next = false;
            continue;
        }
        match argument.to_str() {
            Some("--local-processes") => skip_next = true,
            Some(a) if a.starts_with("--local-processes=") => {}
            _ => kept.push(argument),
        }
    }
    kept
}

struct RemoveFile(PathBuf);

impl Drop for RemoveFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_processes_is_taken_out_of_the_arguments() {
        let args = ["build", "chase", "--size", "5", "--local-processes", "2", "-o", "x", "--local-processes=3"];
        let kept = without_local_processes(args.iter().map(std::ffi::OsString::from));
        assert_eq!(kept, ["build", "chase", "--size", "5", "-o", "x"].map(std::ffi::OsString::from));
    }
}

//! The accept loop: hyper's HTTP/1 serving the axum router, with the defences
//! `axum::serve` lacks (docs/web-api.md, "Connections and limits"):
//!
//! - a connection must send a whole request head within [`HEAD_TIMEOUT`] of the
//!   moment the server starts waiting for one: after it opens, and again after every
//!   answer (hyper's `header_read_timeout` restarts then), so the same timer is the
//!   keep-alive idle timeout;
//! - at most `max_connections` are open at once; one more is answered `503` with
//!   `Retry-After: 1` and closed;
//! - the soft limit of open files is raised to the hard one, and the cap is kept
//!   under it, so that the server never runs out of descriptors for its own work.

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::{watch, Semaphore};

/// How long the server waits for a request head: on a new connection, and between
/// two requests on a kept-alive one.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest request head (request line and headers) read; a larger one is
/// answered `431`. Bounds the memory of a connection.
pub const MAX_HEAD: usize = 64 * 1024;

/// The connection cap when `--max-connections` is not given.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1000;

/// Descriptors kept for everything but connections: standard streams, the
/// listener, the runtime's event queue and wakers, a tablebase file.
const RESERVED_DESCRIPTORS: u64 = 64;

/// Refused connections answered at once and then read for a moment (see
/// [`refuse`]); more than these at the same time are closed without an answer.
const REFUSING: usize = 64;

/// How long a refused connection is kept to send its answer and read the request.
const REFUSAL_TIME: Duration = Duration::from_secs(1);

/// How long Ctrl-C waits for requests under way before closing their connections
/// (a connection without one is closed at once).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The answer to a connection over the cap: as small as HTTP allows, written
/// without reading the request.
const REFUSAL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\n\
Retry-After: 1\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
Content-Length: 50\r\n\
Connection: close\r\n\
\r\n\
too many connections open; try again in a second.\n";

/// Connections the system may hold for the server before it accepts them (Linux
/// caps it at `net.core.somaxconn`, 4096 by default). Larger than tokio's 1024, so
/// that a burst of connections is not met with dropped handshakes, which clients
/// retry only a second or more later.
const BACKLOG: u32 = 4096;

/// A listener on `address`, reusable at once after a restart.
pub fn listen(address: SocketAddr) -> io::Result<TcpListener> {
    let socket = if address.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(BACKLOG)
}

/// The connection cap: `asked` (from `--max-connections`) or the default, checked
/// against `descriptors`, the limit of open files in force (`None`: no limit known).
pub fn connection_cap(asked: Option<u32>, descriptors: Option<u64>) -> Result<usize, String> {
    let fits = descriptors.map(|limit| limit.saturating_sub(RESERVED_DESCRIPTORS + REFUSING as u64));
    match (asked, fits) {
        (Some(asked), Some(fits)) if u64::from(asked) > fits => Err(format!(
            "--max-connections {asked}: the limit of open files is {}, which leaves room for at most {fits} \
             connections (the hard limit, `ulimit -Hn`, bounds it)",
            descriptors.unwrap_or_default()
        )),
        (Some(asked), _) => Ok(asked as usize),
        (None, Some(fits)) => Ok((DEFAULT_MAX_CONNECTIONS as u64).min(fits).max(1) as usize),
        (None, None) => Ok(DEFAULT_MAX_CONNECTIONS),
    }
}

/// Raises the soft limit of open files to the hard limit, where the system allows,
/// and returns the soft limit then in force (`None`: unlimited or unknown).
#[cfg(unix)]
pub fn raise_descriptor_limit() -> Option<u64> {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = getrlimit(Resource::Nofile);
    if let (Some(current), Some(maximum)) = (limit.current, limit.maximum) {
        if current < maximum {
            let raised = Rlimit { current: Some(maximum), maximum: Some(maximum) };
            // Refused (e.g. above the kernel's own ceiling): the old limit stays.
            if setrlimit(Resource::Nofile, raised).is_ok() {
                return Some(maximum);
            }
        }
    }
    limit.current
}

#[cfg(not(unix))]
pub fn raise_descriptor_limit() -> Option<u64> {
    None
}

/// Serves `router` on `listener` until `stop` completes, then lets requests under
/// way finish for a moment.
pub async fn serve(listener: TcpListener, router: Router, max_connections: usize, stop: impl Future<Output = ()>) {
    let open = Arc::new(Semaphore::new(max_connections));
    let refusing = Arc::new(Semaphore::new(REFUSING));
    let http = http1();
    let (stopping, stopped) = watch::channel(false);
    let mut stop = std::pin::pin!(stop);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                accept_failed(e).await;
                continue;
            }
        };
        let Ok(slot) = open.clone().try_acquire_owned() else {
            refuse(stream, &refusing);
            continue;
        };
        let connection = serve_connection(http.clone(), stream, router.clone(), stopped.clone());
        tokio::spawn(async move {
            connection.await;
            drop(slot);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    // Every connection gives its slot back when it ends.
    let all = u32::try_from(max_connections).unwrap_or(u32::MAX);
    if tokio::time::timeout(SHUTDOWN_GRACE, open.acquire_many(all)).await.is_err() {
        eprintln!("gsolve: requests still under way after {} s; closing them", SHUTDOWN_GRACE.as_secs());
    }
}

/// One connection, until it closes or the server stops: then it is closed at once
/// if no request is under way on it, or after its answer (within [`SHUTDOWN_GRACE`]).
async fn serve_connection(
    http: hyper::server::conn::http1::Builder,
    stream: TcpStream,
    router: Router,
    mut stopped: watch::Receiver<bool>,
) {
    // Answers are small and written at once: no need to wait for more to send.
    let _ = stream.set_nodelay(true);
    let under_way = Arc::new(AtomicUsize::new(0));
    let app = TowerToHyperService::new(router);
    let counted = under_way.clone();
    let service = hyper::service::service_fn(move |request| {
        let counting = RequestUnderWay::new(&counted);
        let answer = hyper::service::Service::call(&app, request);
        async move {
            let answer = answer.await;
            drop(counting);
            answer
        }
    });
    let mut connection = std::pin::pin!(http.serve_connection(TokioIo::new(stream), service));
    // A connection's errors (timeouts, resets, malformed requests) concern its
    // client only; hyper has answered what can be answered.
    tokio::select! {
        _ = connection.as_mut() => return,
        _ = stopped.wait_for(|stop| *stop) => {}
    }
    connection.as_mut().graceful_shutdown();
    if under_way.load(Ordering::SeqCst) > 0 {
        let _ = tokio::time::timeout(SHUTDOWN_GRACE, connection).await;
    }
}

/// Counts a request from its head to its answer on one connection.
struct RequestUnderWay(Arc<AtomicUsize>);

impl RequestUnderWay {
    fn new(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        RequestUnderWay(count.clone())
    }
}

impl Drop for RequestUnderWay {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// HTTP/1 with the head timeout (which is also the idle timeout, see the module's
/// comment) and a bounded head. `max_buf_size` alone does not bound the head: a
/// read may fill the buffer past it, and a head that arrives whole in one read is
/// served (a 110 KB header was); `max_header_size` counts the head itself.
fn http1() -> hyper::server::conn::http1::Builder {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_header_size(MAX_HEAD)
        .max_buf_size(MAX_HEAD)
        .keep_alive(true);
    http
}

/// After a failed accept: nothing for a connection its client gave up; a pause
/// when the server is out of descriptors or memory, so that connections can close
/// instead of the loop spinning.
async fn accept_failed(error: io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset, Interrupted};
    if matches!(error.kind(), ConnectionAborted | ConnectionRefused | ConnectionReset | Interrupted) {
        return;
    }
    eprintln!("gsolve: cannot accept a connection: {error}");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// Answers a connection over the cap with [`REFUSAL`] and closes it. The request
/// is read (for at most [`REFUSAL_TIME`]) before closing: closing a socket with
/// unread data resets it, and the client could lose the answer. Only [`REFUSING`]
/// connections are kept so at once; beyond, the answer is written if the socket
/// takes it at once, and the connection closed.
fn refuse(stream: TcpStream, refusing: &Arc<Semaphore>) {
    match refusing.clone().try_acquire_owned() {
        Ok(permit) => {
            tokio::spawn(async move {
                let _ = tokio::time::timeout(REFUSAL_TIME, answer_and_drain(stream)).await;
                drop(permit);
            });
        }
        Err(_) => {
            let _ = stream.try_write(REFUSAL);
        }
    }
}

/// Writes the refusal, ends the sending side, and reads what the client sends
/// until it closes (at most a few kilobytes are kept at a time).
async fn answer_and_drain(mut stream: TcpStream) -> io::Result<()> {
    stream.write_all(REFUSAL).await?;
    stream.shutdown().await?;
    let mut sink = [0u8; 4096];
    while stream.read(&mut sink).await? > 0 {}
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_well_formed() {
        let text = std::str::from_utf8(REFUSAL).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 503 ") && head.contains("\r\nRetry-After: 1\r\n"), "{head}");
        assert!(head.contains(&format!("\r\nContent-Length: {}\r\n", body.len())), "{head}");
    }

    #[test]
    fn the_cap_fits_under_the_limit_of_open_files() {
        assert_eq!(connection_cap(None, None), Ok(DEFAULT_MAX_CONNECTIONS));
        assert_eq!(connection_cap(None, Some(1 << 20)), Ok(DEFAULT_MAX_CONNECTIONS));
        assert_eq!(connection_cap(None, Some(1024)), Ok(1024 - 128));
        assert_eq!(connection_cap(None, Some(100)), Ok(1));
        assert_eq!(connection_cap(Some(5000), Some(20_000)), Ok(5000));
        assert_eq!(connection_cap(Some(5000), None), Ok(5000));
        let message = connection_cap(Some(5000), Some(1024)).unwrap_err();
        assert!(message.contains("1024") && message.contains("896"), "{message}");
    }
}

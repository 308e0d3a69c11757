//! A small HTTP/1.1 client over `std::net`, enough for the tests to talk to
//! `gsolve serve` and to chromedriver on 127.0.0.1: one request a connection
//! (`Connection: close`), bodies with a length or chunked.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

/// An answer: the status, the headers (names in lowercase) and the body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    /// The first header of this (lowercase) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// `HOST:PORT` of an `http://HOST:PORT/...` URL.
pub fn host(url: &str) -> &str {
    split(url).0
}

/// `http://HOST:PORT/PATH` as (`HOST:PORT`, `/PATH`).
fn split(url: &str) -> (&str, String) {
    let rest = url.strip_prefix("http://").unwrap_or_else(|| panic!("not an http:// URL: {url}"));
    match rest.find('/') {
        Some(at) => (&rest[..at], rest[at..].to_string()),
        None => (rest, "/".to_string()),
    }
}

/// Sends one request; `body` is (content type, text). Panics if there is no answer
/// within `timeout`.
pub fn request(method: &str, url: &str, body: Option<(&str, &str)>, timeout: Duration) -> Response {
    try_request(method, url, body, timeout).unwrap_or_else(|e| panic!("{e}"))
}

/// [`request`], with an error instead of a panic (e.g. for a server still starting).
pub fn try_request(method: &str, url: &str, body: Option<(&str, &str)>, timeout: Duration) -> Result<Response, String> {
    let (host, path) = split(url);
    let fail = |e: std::io::Error| format!("{method} {url}: {e}");
    let mut stream = TcpStream::connect(host).map_err(fail)?;
    stream.set_read_timeout(Some(timeout)).map_err(fail)?;
    stream.set_write_timeout(Some(timeout)).map_err(fail)?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if let Some((content_type, text)) = body {
        head.push_str(&format!("Content-Type: {content_type}\r\nContent-Length: {}\r\n", text.len()));
    } else if method == "POST" {
        head.push_str("Content-Length: 0\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).map_err(fail)?;
    if let Some((_, text)) = body {
        stream.write_all(text.as_bytes()).map_err(fail)?;
    }
    read_response(BufReader::new(stream)).map_err(fail)
}

/// GET with a 60 s timeout.
pub fn get(url: &str) -> Response {
    request("GET", url, None, Duration::from_secs(60))
}

/// POST a JSON body with a 60 s timeout.
pub fn post_json(url: &str, body: &str) -> Response {
    request("POST", url, Some(("application/json", body)), Duration::from_secs(60))
}

/// Reads one answer from a stream on which the request was written by hand; the
/// stream's read timeout applies.
pub fn read_response_from(stream: &TcpStream) -> std::io::Result<Response> {
    read_response(BufReader::new(stream))
}

fn read_response(mut reader: impl BufRead) -> std::io::Result<Response> {
    let bad = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(format!("no status line: {line:?}")))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        let (name, value) = trimmed.split_once(':').ok_or_else(|| bad(format!("bad header {trimmed:?}")))?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let find = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v): &(String, String)| v.clone());
    let mut body = Vec::new();
    if find("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                .map_err(|_| bad(format!("bad chunk size {line:?}")))?;
            if size == 0 {
                break;
            }
            let start = body.len();
            body.resize(start + size, 0);
            reader.read_exact(&mut body[start..])?;
            line.clear();
            reader.read_line(&mut line)?; // the CRLF after the chunk
        }
    } else if let Some(length) = find("content-length") {
        let length: usize = length.parse().map_err(|_| bad(format!("bad content length {length:?}")))?;
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    } else {
        reader.read_to_end(&mut body)?;
    }
    let body = String::from_utf8(body).map_err(|e| bad(format!("the body is not UTF-8: {e}")))?;
    Ok(Response { status, headers, body })
}

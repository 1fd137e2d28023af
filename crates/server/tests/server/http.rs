//! A minimal HTTP/1.1 client for tests (one request a connection, `Connection: close`): enough
//! for the server's JSON API and files. Shared with the CLI's test of the real `realms serve`
//! process.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

/// How long an answer may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(20);

/// A minimal HTTP/1.1 request; returns the status and the JSON body (a string if not JSON).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    http_raw(addr, method, path, &body).await
}

/// The same with a raw body.
pub async fn http_raw(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, Value) {
    let (status, _, body) = exchange(addr, method, path, body).await;
    let body = serde_json::from_str(&body).unwrap_or(Value::String(body));
    (status, body)
}

/// A GET; returns the status, the content type and the body.
pub async fn get(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let (status, head, body) = exchange(addr, "GET", path, "").await;
    let content_type = headers_of(&head)
        .into_iter()
        .find_map(|(name, value)| (name == "content-type").then_some(value))
        .unwrap_or_default();
    (status, content_type, body)
}

/// A GET; returns the status and the answer's headers, names in lower case.
pub async fn get_headers(addr: SocketAddr, path: &str) -> (u16, Vec<(String, String)>) {
    let (status, head, _) = exchange(addr, "GET", path, "").await;
    (status, headers_of(&head))
}

/// The headers of an answer's head (after its status line), names in lower case.
fn headers_of(head: &str) -> Vec<(String, String)> {
    head.lines()
        .skip(1)
        .filter_map(|l| {
            let (name, value) = l.split_once(':')?;
            Some((name.trim().to_ascii_lowercase(), value.trim().to_string()))
        })
        .collect()
}

/// One HTTP/1.1 request and its answer: status, head, body.
async fn exchange(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut answer))
        .await
        .expect("an HTTP answer")
        .unwrap();
    let answer = String::from_utf8(answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), body.to_string())
}

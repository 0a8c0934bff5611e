//! Just enough HTTP/1.1 to drive the servers gen writes, which answer with a length or in chunks: one
//! connection kept open, a request written whole, a response read by its Content-Length
//! (or to the end of the connection when it has none).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// An HTTP/1.0 answer: the server closes the connection after it.
    pub http10: bool,
}

impl Response {
    /// A header's value (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One keep-alive connection to `host:port`, opened again when the server closes it.
pub struct Client {
    addr: String,
    conn: Option<BufReader<TcpStream>>,
}

impl Client {
    pub fn new(addr: &str) -> Client {
        Client { addr: addr.to_string(), conn: None }
    }

    fn connect(&mut self) -> std::io::Result<&mut BufReader<TcpStream>> {
        if self.conn.is_none() {
            let s = TcpStream::connect(&self.addr)?;
            s.set_read_timeout(Some(Duration::from_secs(120)))?;
            s.set_nodelay(true)?;
            self.conn = Some(BufReader::new(s));
        }
        Ok(self.conn.as_mut().expect("connected"))
    }

    /// Send one request and read its response. `headers` are sent as given, then
    /// Host, Content-Length and (for a body) Content-Type.
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Response> {
        // A connection the server closed since the last answer is opened again, once.
        match self.try_request(method, path, headers, body) {
            Ok(r) => Ok(r),
            Err(_) => {
                self.conn = None;
                self.try_request(method, path, headers, body)
            }
        }
    }

    /// Send one request and read its response, on the connection open or a new one, never
    /// again: a reset or a closed connection is the error (what a load test counts).
    pub fn try_request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Response> {
        let addr = self.addr.clone();
        let conn = self.connect()?;
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n", body.len());
        if !body.is_empty() && !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type")) {
            head.push_str("Content-Type: application/json\r\n");
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        conn.get_mut().write_all(&bytes)?;
        let response = read_response(conn)?;
        let close = response.header("connection").is_some_and(|c| c.eq_ignore_ascii_case("close"))
            || (response.header("content-length").is_none() && response.header("transfer-encoding").is_none())
            || response.http10;
        if close {
            self.conn = None;
        }
        Ok(response)
    }
}

fn read_response(conn: &mut BufReader<TcpStream>) -> std::io::Result<Response> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let mut line = String::new();
    if conn.read_line(&mut line)? == 0 {
        return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the server closed the connection"));
    }
    let http10 = line.starts_with("HTTP/1.0");
    let status: u16 =
        line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| bad("not an HTTP status line"))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        conn.read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (k, v) = l.split_once(':').ok_or_else(|| bad("not a header"))?;
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    let length =
        headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("content-length")).map(|(_, v)| v.parse::<usize>());
    let chunked = headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            conn.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                .map_err(|_| bad("not a chunk size"))?;
            if size == 0 {
                // The trailers, if any, up to the blank line.
                loop {
                    line.clear();
                    if conn.read_line(&mut line)? == 0 || line.trim().is_empty() {
                        break;
                    }
                }
                return Ok(Response { status, headers, body, http10 });
            }
            let at = body.len();
            body.resize(at + size, 0);
            conn.read_exact(&mut body[at..])?;
            line.clear();
            conn.read_line(&mut line)?;
        }
    }
    match length {
        Some(Ok(n)) => {
            body.resize(n, 0);
            conn.read_exact(&mut body)?;
        }
        Some(Err(_)) => return Err(bad("Content-Length is not a number")),
        None if status == 204 || status == 304 || (100..200).contains(&status) => {}
        None => {
            conn.read_to_end(&mut body)?;
        }
    }
    Ok(Response { status, headers, body, http10 })
}

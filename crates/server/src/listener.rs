//! The shop's TCP listener. Besides accepting connections it makes sure that even a
//! request the HTTP parser rejects before any handler runs (an address over 64 KiB, a
//! control character in a header, a malformed request line, headers too large) is
//! answered with a JSON error in the API's shape rather than an empty body.
//!
//! The parser (hyper) answers those itself, on the connection, just before closing it:
//! `HTTP/1.1 400|414|431 …`, `connection: close`, `content-length: 0`, with no way to
//! supply a body. The shop's own answers never look like that (every error it sends
//! has a body), so the connection's writer recognises exactly that head and sends the
//! JSON answer in its place.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

pub struct ShopListener(pub TcpListener);

impl Listener for ShopListener {
    type Io = ShapedErrors<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (stream, addr) = Listener::accept(&mut self.0).await;
        // Answers are written whole; waiting to batch them only adds latency.
        let _ = stream.set_nodelay(true);
        (
            ShapedErrors {
                inner: stream,
                replacement: None,
            },
            addr,
        )
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.0.local_addr()
    }
}

/// The address of the peer of a connection, for rate limits per client.
#[derive(Debug, Clone, Copy)]
pub struct PeerAddr(pub SocketAddr);

impl Connected<IncomingStream<'_, ShopListener>> for PeerAddr {
    fn connect_info(stream: IncomingStream<'_, ShopListener>) -> Self {
        PeerAddr(*stream.remote_addr())
    }
}

/// A connection whose parser-made error answers are replaced by JSON ones.
pub struct ShapedErrors<T> {
    inner: T,
    /// The answer being written in place of the parser's, how much of it is written,
    /// and how many bytes of the parser's to report as written once it is done.
    replacement: Option<(Vec<u8>, usize, usize)>,
}

/// The status of a parser-made error head, if `head` is one.
fn parser_error_status(head: &[u8]) -> Option<u16> {
    let rest = head.strip_prefix(b"HTTP/1.1 ")?;
    let status = match rest.get(..4)? {
        b"400 " => 400,
        b"414 " => 414,
        b"431 " => 431,
        _ => return None,
    };
    let line_end = rest.windows(2).position(|w| w == b"\r\n")?;
    rest[line_end..]
        .starts_with(b"\r\nconnection: close\r\ncontent-length: 0\r\n")
        .then_some(status)
}

/// The JSON answer sent instead.
fn json_answer(status: u16) -> Vec<u8> {
    let (reason, code, message) = match status {
        414 => (
            "URI Too Long",
            "rest_uri_too_long",
            "The address of this request is too long.",
        ),
        431 => (
            "Request Header Fields Too Large",
            "rest_headers_too_large",
            "The headers of this request are too large.",
        ),
        _ => (
            "Bad Request",
            "rest_bad_request",
            "This request could not be read: its request line or a header is malformed.",
        ),
    };
    let body = serde_json::json!({"code": code, "message": message, "data": {"status": status}})
        .to_string();
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json; charset=UTF-8\r\n\
         content-length: {}\r\nconnection: close\r\ncache-control: no-store\r\n\
         x-content-type-options: nosniff\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl<T: AsyncWrite + Unpin> ShapedErrors<T> {
    /// Writes the replacement; reports the parser's bytes as written once it is out.
    fn poll_replacement(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let Some((bytes, written, claimed)) = self.replacement.as_mut() else {
            return Poll::Ready(Ok(0));
        };
        while *written < bytes.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        let claimed = *claimed;
        self.replacement = None;
        Poll::Ready(Ok(claimed))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for ShapedErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for ShapedErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.replacement.is_none() {
            match parser_error_status(buf) {
                Some(status) => this.replacement = Some((json_answer(status), 0, buf.len())),
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        this.poll_replacement(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.replacement.is_none() {
            let first = bufs.iter().find(|b| !b.is_empty());
            match first.and_then(|b| parser_error_status(b)) {
                Some(status) => {
                    let total = bufs.iter().map(|b| b.len()).sum();
                    this.replacement = Some((json_answer(status), 0, total));
                }
                None => return Pin::new(&mut this.inner).poll_write_vectored(cx, bufs),
            }
        }
        this.poll_replacement(cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_parsers_own_error_heads_are_recognised() {
        let head = b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\ndate: Tue, 24 Nov 2026 00:31:38 GMT\r\n\r\n";
        assert_eq!(parser_error_status(head), Some(414));
        let bad = b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(parser_error_status(bad), Some(400));
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 80\r\n\r\n";
        assert_eq!(parser_error_status(ours), None);
        let ok = b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(parser_error_status(ok), None);
        assert_eq!(parser_error_status(b"{\"a\":1}"), None);
    }

    #[test]
    fn the_replacement_is_a_complete_json_answer() {
        let text = String::from_utf8(json_answer(431)).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 "));
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["data"]["status"], 431);
    }
}

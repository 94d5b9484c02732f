//! Untrusted bytes from an RPC peer: the input is the whole stream a
//! capnarena-rpc connection reads (offering a bootstrap that echoes its
//! parameters and their capabilities back), on a current-thread tokio
//! runtime; what the connection writes back is read and thrown away.
//!
//! The input is cut into frames by the first byte: 0 to 7 framed
//! messages, each a root struct (one data word, one pointer) whose words
//! come from the input, with small discriminants and ids often, so that
//! known message kinds and live ids come up; the rest is sent as is.
//!
//! Properties:
//! - No panic, and the connection ends (aborting or answering) once the
//!   input is over: `closed()` returns.
//! - Once it has ended, every table is empty (nothing leaks in them).
#![no_main]

use std::sync::Arc;

use capnarena_rpc::{BoxFuture, Client, Connection, Options, Params, Results, Server, Stats};
use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Echoes the parameters' content and capabilities as the results.
struct Echo;

impl Server for Echo {
    fn dispatch(
        self: Arc<Self>,
        _interface_id: u64,
        _method_id: u16,
        params: Params,
        mut results: Results,
    ) -> BoxFuture<capnarena_rpc::Result<Results>> {
        let outcome = (|| {
            params.read(|content| Ok(results.content()?.set_from(&content)?))?;
            for i in 0..params.cap_count() {
                results.add_cap(params.cap(i)?);
            }
            Ok(results)
        })();
        Box::pin(std::future::ready(outcome))
    }
}

/// The stream: framed messages made of the input's words, then the rest.
fn stream(data: &[u8]) -> Vec<u8> {
    let Some((&count, mut rest)) = data.split_first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for _ in 0..count % 8 {
        let Some((&words, tail)) = rest.split_first() else {
            break;
        };
        rest = tail;
        let words = 1 + usize::from(words % 16);
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&(words as u32 + 1).to_le_bytes());
        // Root: a struct of one data word and one pointer, right after.
        out.extend_from_slice(&[0, 0, 0, 0, 1, 0, 1, 0]);
        for _ in 0..words {
            let mut w = [0u8; 8];
            let n = rest.len().min(8);
            w[..n].copy_from_slice(&rest[..n]);
            rest = &rest[n..];
            let mut w = u64::from_le_bytes(w);
            if w & 1 == 1 {
                // Small values: discriminants, ids, counts.
                w &= 0x0000_0003_0000_000e;
            }
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    out.extend_from_slice(rest);
    out
}

fuzz_target!(|data: &[u8]| {
    let bytes = stream(data);
    // Timers: the connection bounds its writes with `write_timeout`.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let options = Options {
            max_message_bytes: 1 << 16,
            max_answers: 64,
            max_imports: 64,
            ..Options::default()
        };
        let conn = Connection::new(ours, Some(Client::from_server(Echo)), options);
        let (mut read, mut write) = tokio::io::split(theirs);
        let drain = tokio::spawn(async move {
            let mut sink = Vec::new();
            let _ = read.read_to_end(&mut sink).await;
        });
        let _ = write.write_all(&bytes).await;
        let _ = write.shutdown().await;
        let _ = conn.closed().await;
        assert_eq!(conn.stats(), Stats::default());
        drop(write);
        drop(conn);
        let _ = drain.await;
    });
});

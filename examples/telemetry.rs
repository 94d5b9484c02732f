//! A telemetry ingest service over TCP on loopback: clients stream sensor
//! readings to a server, which aggregates them per sensor and answers each
//! client, once its stream ends, with a summary.
//!
//! The schema (field places as `capnp compile -ocapnp` prints them):
//!
//! ```capnp
//! struct Reading {
//!   timestamp @0 :UInt64;   # data word 0
//!   value     @1 :Float64;  # data word 1
//!   sensor    @2 :UInt32;   # data bits [128, 160): UInt32 index 4
//!   unit      @3 :Text;     # pointer 0
//! }
//! struct SensorStats {
//!   count  @0 :UInt64;      # data word 0
//!   mean   @1 :Float64;     # data word 1
//!   sensor @2 :UInt32;      # UInt32 index 4
//! }
//! struct Summary { sensors @0 :List(SensorStats); }
//! ```
//!
//! The server reads frames with `FramedCodec` (each read in place, no
//! copy) and answers through the same codec; the clients send with a
//! `FramedWrite` and read the summary with `tokio_io::read_message`.
//!
//! Run with `cargo run --example telemetry --features tokio`.

use std::collections::BTreeMap;
use std::time::Instant;

use capnarena::serialize::codec::FramedCodec;
use capnarena::serialize::tokio_io;
use capnarena::{Error, Message, ReaderOptions, SingleSegmentArena, StructSize};
use futures::{SinkExt, StreamExt};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Framed, FramedWrite};

const READING: StructSize = StructSize::new(3, 1);
const SENSOR_STATS: StructSize = StructSize::new(3, 0);
const SUMMARY: StructSize = StructSize::new(0, 1);

const CLIENTS: u32 = 4;
const READINGS: u32 = 25_000;
const SENSORS: u32 = 5;

/// Count and sum of one sensor's values.
type Stats = BTreeMap<u32, (u64, f64)>;

/// The value client `client` reports as reading `i`.
fn value(client: u32, i: u32) -> f64 {
    f64::from(client * 1000 + i % 997) / 10.0
}

/// One connection: aggregate readings until the client's stream ends,
/// then answer with the summary.
async fn serve(sock: TcpStream) -> Result<u64, Error> {
    let mut framed = Framed::new(sock, FramedCodec::new().max_frame_bytes(64 * 1024));
    let mut scratch = Message::new(SingleSegmentArena::new());
    let mut stats = Stats::new();
    let mut n = 0;
    while let Some(frame) = framed.next().await {
        let frame = frame?;
        let reader = frame.reader_or_copy(&mut scratch)?;
        let reading = reader.root()?;
        let entry = stats.entry(reading.get::<u32>(4)).or_default();
        entry.0 += 1;
        entry.1 += reading.get::<f64>(1);
        reading.get_text(0)?; // the unit must be valid text
        n += 1;
    }
    let mut summary = Message::new(SingleSegmentArena::new());
    let mut root = summary.init_root_struct(SUMMARY)?;
    let mut list = root.init_struct_list(0, stats.len() as u32, SENSOR_STATS)?;
    for (i, (sensor, (count, sum))) in stats.iter().enumerate() {
        let mut s = list.get_struct(i as u32);
        s.set::<u64>(0, *count);
        s.set::<f64>(1, sum / *count as f64);
        s.set::<u32>(4, *sensor);
    }
    framed.send(&summary).await?;
    Ok(n)
}

/// One client: stream the readings, end the stream, read the summary and
/// check it against what was sent.
async fn client(addr: std::net::SocketAddr, id: u32) -> Result<(), Error> {
    let sock = TcpStream::connect(addr).await?;
    let (mut rd, wr) = sock.into_split();
    let mut out = FramedWrite::new(wr, FramedCodec::new());
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut want = Stats::new();
    for i in 0..READINGS {
        msg.reset();
        let mut r = msg.init_root_struct(READING)?;
        let sensor = (id * 7 + i) % SENSORS;
        r.set::<u64>(0, 1_700_000_000_000 + u64::from(i));
        r.set::<f64>(1, value(id, i));
        r.set::<u32>(4, sensor);
        r.set_text(0, "celsius")?;
        // `feed` queues into the write buffer; the sink writes it out as
        // it fills, and `flush` below writes the rest.
        out.feed(&msg).await?;
        let e = want.entry(sensor).or_default();
        e.0 += 1;
        e.1 += value(id, i);
    }
    // The codec's type names the one item it sends, so `flush` needs no
    // annotation.
    out.flush().await?;
    out.get_mut().shutdown().await?;

    let mut summary = Message::new(SingleSegmentArena::new());
    let reader = tokio_io::read_message(&mut summary, &mut rd, ReaderOptions::new()).await?;
    let list = reader
        .root()?
        .get_list(0, capnarena::ElementSize::InlineComposite)?;
    assert_eq!(list.len() as usize, want.len());
    for i in 0..list.len() {
        let s = list.get_struct(i);
        let (count, sum) = want[&s.get::<u32>(4)];
        assert_eq!(s.get::<u64>(0), count);
        assert!((s.get::<f64>(1) - sum / count as f64).abs() < 1e-9);
        if id == 0 {
            println!(
                "client 0, sensor {}: {} readings, mean {:.3}",
                s.get::<u32>(4),
                s.get::<u64>(0),
                s.get::<f64>(1)
            );
        }
    }
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(async move {
        let mut connections = Vec::new();
        for _ in 0..CLIENTS {
            let (sock, _) = listener.accept().await?;
            connections.push(tokio::spawn(serve(sock)));
        }
        let mut total = 0;
        for c in connections {
            total += c.await.expect("server task")?;
        }
        Ok::<u64, Error>(total)
    });
    let start = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|id| tokio::spawn(client(addr, id)))
        .collect();
    for c in clients {
        c.await.expect("client task")?;
    }
    let total = server.await.expect("server")?;
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{CLIENTS} clients sent {total} readings in {secs:.2} s ({:.0} messages/s)",
        total as f64 / secs
    );
    assert_eq!(total, u64::from(CLIENTS * READINGS));
    Ok(())
}

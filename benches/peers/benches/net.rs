//! Messages per second over a connection: 1,000 records (go-capnp's `A`)
//! built, sent, received and read field by field (checksummed) per
//! iteration, sender and receiver joined on one current-thread tokio
//! runtime, over a loopback TCP connection and over an in-memory
//! `tokio::io::duplex` pipe (64 KiB).
//!
//! - capnarena: one reused `Message`, `FramedWrite` + `FramedCodec`
//!   (`feed` each message, one flush), `FramedRead` + `FramedCodec`, each
//!   frame read in place.
//! - capnp (capnp-futures 0.27): one reused `ScratchSpaceHeapAllocator`
//!   (capnp's fastest builder), `capnp_futures::serialize::write_message`
//!   into a `futures::io::BufWriter` (one flush), `try_read_message` from
//!   a `BufReader` (its owned segments), over the same transports through
//!   `tokio_util::compat`.
//!
//! - net_packed/duplex: the same over the duplex pipe, packed: capnarena's
//!   `PackedCodec` against capnp-futures' `serialize_packed`.
//!
//! Both sides compute the same checksum, checked before measuring.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use capnarena::serialize::codec::{Frame, FramedCodec, PackedCodec};
use capnarena::{Message, SingleSegmentArena};
use capnarena_peers::capnarena_side as ca;
use capnarena_peers::{
    CHECKSUM_SEED, RECORD_SCRATCH_WORDS, RECORDS, RECORDS_SEED, RecordData, bench_capnp::record,
    gen_records, mix, record_checksum, record_fill, scratch_words,
};
use capnp::message::{self, ScratchSpaceHeapAllocator};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use futures::io::{BufReader, BufWriter};
use futures::{AsyncWriteExt as _, SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::runtime::Runtime;
use tokio_util::codec::{Decoder, Encoder, FramedRead, FramedWrite};
use tokio_util::compat::{Compat, TokioAsyncReadCompatExt, TokioAsyncWriteCompatExt};

type Reader = Box<dyn AsyncRead + Unpin + Send>;
type Writer = Box<dyn AsyncWrite + Unpin + Send>;

/// A connected pair: what one end writes, the other reads.
fn connect(rt: &Runtime, tcp: bool) -> (Reader, Writer) {
    if tcp {
        rt.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let (a, b) = tokio::join!(tokio::net::TcpStream::connect(addr), listener.accept());
            let (a, (b, _)) = (a.unwrap(), b.unwrap());
            a.set_nodelay(true).unwrap();
            b.set_nodelay(true).unwrap();
            let (rd, _) = a.into_split();
            let (_, wr) = b.into_split();
            (Box::new(rd) as Reader, Box::new(wr) as Writer)
        })
    } else {
        let (a, b) = tokio::io::duplex(64 * 1024);
        let (rd, _) = tokio::io::split(a);
        let (_, wr) = tokio::io::split(b);
        (Box::new(rd), Box::new(wr))
    }
}

/// capnarena's ends of a connection, through codec `C`.
struct Ours<C> {
    msg: Message<SingleSegmentArena>,
    tx: FramedWrite<Writer, C>,
    rx: FramedRead<Reader, C>,
}

impl<C> Ours<C>
where
    C: Decoder<Item = Frame, Error = capnarena::Error>
        + for<'m> Encoder<&'m Message<SingleSegmentArena>, Error = capnarena::Error>,
{
    fn new(rt: &Runtime, tcp: bool, codec: impl Fn() -> C) -> Self {
        let (rd, wr) = connect(rt, tcp);
        Ours {
            msg: Message::new(SingleSegmentArena::new()),
            tx: FramedWrite::new(wr, codec()),
            rx: FramedRead::new(rd, codec()),
        }
    }

    /// Sends every record and reads every one back; the checksum of all.
    async fn round(&mut self, recs: &[RecordData]) -> u64 {
        let Ours { msg, tx, rx } = self;
        let send = async {
            for rec in recs {
                msg.reset();
                ca::record_fill(msg, rec).unwrap();
                tx.feed(&*msg).await.unwrap();
            }
            tx.flush().await.unwrap();
        };
        let recv = async {
            let mut h = 0;
            for _ in recs {
                let frame = rx.next().await.unwrap().unwrap();
                let reader = frame.reader().unwrap();
                h = mix(
                    h,
                    ca::record_checksum(
                        CHECKSUM_SEED,
                        reader
                            .get_root::<ca::bench_capnp::record::Reader>()
                            .unwrap(),
                    )
                    .unwrap(),
                );
            }
            h
        };
        tokio::join!(send, recv).1
    }
}

/// capnp-futures' ends of a connection, plain or packed.
struct Peer {
    packed: bool,
    scratch: Vec<capnp::Word>,
    tx: BufWriter<Compat<Writer>>,
    rx: BufReader<Compat<Reader>>,
}

impl Peer {
    fn new(rt: &Runtime, tcp: bool, packed: bool) -> Self {
        let (rd, wr) = connect(rt, tcp);
        Peer {
            packed,
            scratch: scratch_words(RECORD_SCRATCH_WORDS),
            tx: BufWriter::new(wr.compat_write()),
            rx: BufReader::new(rd.compat()),
        }
    }

    async fn round(&mut self, recs: &[RecordData]) -> u64 {
        let Peer {
            packed,
            scratch,
            tx,
            rx,
        } = self;
        let packed = *packed;
        let send = async {
            let mut alloc =
                ScratchSpaceHeapAllocator::new(capnp::Word::words_to_bytes_mut(scratch));
            for rec in recs {
                let mut msg = message::Builder::new(&mut alloc);
                record_fill(&mut msg, rec);
                if packed {
                    capnp_futures::serialize_packed::write_message(&mut *tx, &msg)
                        .await
                        .unwrap();
                } else {
                    capnp_futures::serialize::write_message(&mut *tx, &msg)
                        .await
                        .unwrap();
                }
            }
            tx.flush().await.unwrap();
        };
        let recv = async {
            let mut h = 0;
            for _ in recs {
                let options = message::ReaderOptions::new();
                let msg = if packed {
                    capnp_futures::serialize_packed::try_read_message(&mut *rx, options).await
                } else {
                    capnp_futures::serialize::try_read_message(&mut *rx, options).await
                };
                let msg = msg.unwrap().unwrap();
                let r: record::Reader = msg.get_root().unwrap();
                h = mix(h, record_checksum(CHECKSUM_SEED, r).unwrap());
            }
            h
        };
        tokio::join!(send, recv).1
    }
}

fn net(c: &mut Criterion) {
    let recs = gen_records(RECORDS, RECORDS_SEED);
    let want = recs.iter().fold(0, |h, r| mix(h, r.checksum()));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    for (name, tcp) in [("net/duplex", false), ("net/tcp", true)] {
        let ours = Ours::new(&rt, tcp, FramedCodec::new);
        let peer = Peer::new(&rt, tcp, false);
        group(c, &rt, name, &recs, want, ours, peer);
    }
    let ours = Ours::new(&rt, false, PackedCodec::new);
    let peer = Peer::new(&rt, false, true);
    group(c, &rt, "net_packed/duplex", &recs, want, ours, peer);
}

/// One group: both sides checked against `want`, then measured.
fn group<C>(
    c: &mut Criterion,
    rt: &Runtime,
    name: &str,
    recs: &[RecordData],
    want: u64,
    mut ours: Ours<C>,
    mut peer: Peer,
) where
    C: Decoder<Item = Frame, Error = capnarena::Error>
        + for<'m> Encoder<&'m Message<SingleSegmentArena>, Error = capnarena::Error>,
{
    assert_eq!(rt.block_on(ours.round(recs)), want);
    assert_eq!(rt.block_on(peer.round(recs)), want);
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(RECORDS as u64));
    g.bench_function("capnarena", |b| {
        b.iter(|| black_box(rt.block_on(ours.round(recs))))
    });
    g.bench_function("capnp", |b| {
        b.iter(|| black_box(rt.block_on(peer.round(recs))))
    });
    g.finish();
}

criterion_group!(benches, net);
criterion_main!(benches);

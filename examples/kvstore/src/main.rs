//! A key-value server and its clients in one process, over 127.0.0.1, on
//! tokio's multi-threaded runtime: each client sends a fixed number of
//! gets, puts, deletes and lists on keys of its own, checks every answer
//! against a model of what it wrote, and closes; the server stops once
//! every client has, and the run prints a summary.
//!
//! Run with `cargo run -p capnarena-example-kvstore`.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use capnarena_example_kvstore::{Client, Put, Store, serve};
use tokio::net::TcpListener;

const CLIENTS: u32 = 4;
/// Requests each client sends.
const REQUESTS: u32 = 5_000;
/// Keys each client draws from.
const KEYS: u64 = 200;
/// The most keys a list asks for.
const LIST_LIMIT: u32 = 25;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What a client's requests did.
#[derive(Default)]
struct Counts {
    gets: u64,
    found: u64,
    puts: u64,
    created: u64,
    deletes: u64,
    deleted: u64,
    lists: u64,
    listed: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.gets += o.gets;
        self.found += o.found;
        self.puts += o.puts;
        self.created += o.created;
        self.deletes += o.deletes;
        self.deleted += o.deleted;
        self.lists += o.lists;
        self.listed += o.listed;
    }

    fn requests(&self) -> u64 {
        self.gets + self.puts + self.deletes + self.lists
    }
}

/// A 64-bit linear congruential step (Knuth's MMIX constants): the
/// workload is the same on every run.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 16
}

/// Fails the run with `what` unless `ok`.
fn expect(ok: bool, what: impl FnOnce() -> String) -> Result<(), BoxError> {
    if ok { Ok(()) } else { Err(what().into()) }
}

/// One client: `REQUESTS` requests on keys `client{id}/key{n}`, each
/// answer checked against `model`, the client's own record of its keys.
async fn client(addr: SocketAddr, id: u32) -> Result<Counts, BoxError> {
    let mut kv = Client::connect(addr).await?;
    let mut model: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut counts = Counts::default();
    let mut rng = u64::from(id) + 1;
    let (mut out, mut value) = (Vec::new(), Vec::new());
    let mut listed = Vec::new();
    for i in 0..REQUESTS {
        let key = format!("client{id}/key{:03}", next(&mut rng) % KEYS);
        match next(&mut rng) % 100 {
            0..60 => {
                counts.gets += 1;
                let found = kv.get(&key, &mut out).await?;
                counts.found += u64::from(found);
                let want = model.get(&key);
                expect(want.map(Vec::as_slice) == found.then_some(&out[..]), || {
                    format!("client {id}: get {key} answered {out:?}, not {want:?}")
                })?;
            }
            60..85 => {
                counts.puts += 1;
                value.clear();
                let len = 8 + next(&mut rng) % 120;
                value.extend((0..len).map(|j| (i as u64 + j) as u8));
                let put = kv.put(&key, &value).await?;
                let was = model.insert(key.clone(), value.clone());
                counts.created += u64::from(put == Put::Created);
                expect((put == Put::Created) == was.is_none(), || {
                    format!("client {id}: put {key} answered {put:?}")
                })?;
            }
            85..95 => {
                counts.deletes += 1;
                let found = kv.delete(&key).await?;
                counts.deleted += u64::from(found);
                expect(found == model.remove(&key).is_some(), || {
                    format!("client {id}: delete {key} answered {found}")
                })?;
            }
            _ => {
                counts.lists += 1;
                // The keys of one digit's hundred (`client0/key1` matches
                // key100 to key199).
                let prefix = format!("client{id}/key{}", next(&mut rng) % 2);
                listed.clear();
                let got = kv
                    .list(&prefix, LIST_LIMIT, |k, v| {
                        listed.push((k.to_owned(), v.to_vec()))
                    })
                    .await?;
                counts.listed += u64::from(got.count);
                let want: Vec<_> = model
                    .range(prefix.clone()..)
                    .take_while(|(k, _)| k.starts_with(&prefix))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let n = want.len().min(LIST_LIMIT as usize);
                expect(listed == want[..n] && got.more == (want.len() > n), || {
                    format!(
                        "client {id}: list {prefix} answered {} entries (more: {}), not {n} of {}",
                        listed.len(),
                        got.more,
                        want.len()
                    )
                })?;
            }
        }
    }
    Ok(counts)
}

#[tokio::main(flavor = "multi_thread")]
async fn main() -> Result<(), BoxError> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let store = Arc::new(Store::new(100_000));
    let server = tokio::spawn(serve(listener, Arc::clone(&store), CLIENTS as usize));

    let start = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|id| tokio::spawn(client(addr, id)))
        .collect();
    let mut total = Counts::default();
    for c in clients {
        total.add(&c.await??);
    }
    let served = server.await??;
    let secs = start.elapsed().as_secs_f64();

    expect(served == total.requests(), || {
        format!(
            "the server served {served} requests, the clients sent {}",
            total.requests()
        )
    })?;
    println!(
        "{CLIENTS} clients sent {served} requests over 127.0.0.1 in {secs:.2} s ({:.0} requests/s)",
        served as f64 / secs
    );
    println!(
        "  gets {} ({} found), puts {} ({} new keys), deletes {} ({} found), lists {} ({} entries)",
        total.gets,
        total.found,
        total.puts,
        total.created,
        total.deletes,
        total.deleted,
        total.lists,
        total.listed
    );
    println!(
        "  every answer matched the client's own record; the store holds {} keys",
        store.len()
    );
    Ok(())
}

//! A hostile RPC peer that builds graphs of capabilities and promises: the
//! input is a sequence of protocol messages (bootstrap, call, return,
//! resolve, release, finish, disembargo) whose ids name each other's, from
//! a small range so that they meet: calls pipelined on answers, promises
//! on answers not returned passed back and forth, capabilities echoed,
//! released and finished in any order.
//!
//! The server offers a bootstrap with three methods: 0 echoes the
//! parameters and their capabilities, 1 waits forever (until canceled),
//! 2 waits until the peer's input is over and then echoes. So calls are
//! running, queued and returned while the graph grows.
//!
//! Properties:
//! - No panic, and no stack overflow (the chains are followed and dropped
//!   in loops).
//! - While the input is read, every table stays within its limit.
//! - Once the input is over the connection ends: `closed()` returns,
//!   every table is empty and nothing stays queued.
#![no_main]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arbitrary::Arbitrary;
use capnarena::{Message, SingleSegmentArena, StructSize};
use capnarena_rpc::rpc_capnp::{cap_descriptor, message, promised_answer};
use capnarena_rpc::{BoxFuture, Client, Connection, Options, Params, Results, Server, Stats};
use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Notify;

/// Ids are taken modulo this, so that messages name each other's.
const IDS: u32 = 8;

#[derive(Arbitrary, Debug)]
enum Target {
    Export(u8),
    Answer(u8, Vec<u8>),
}

#[derive(Arbitrary, Debug)]
enum Desc {
    None,
    SenderHosted(u8),
    SenderPromise(u8),
    ReceiverHosted(u8),
    ReceiverAnswer(u8, Vec<u8>),
}

#[derive(Arbitrary, Debug)]
enum Op {
    Bootstrap(u8),
    Call {
        question: u8,
        target: Target,
        method: u8,
        caps: Vec<Desc>,
    },
    Return {
        answer: u8,
        exception: bool,
        caps: Vec<Desc>,
    },
    Resolve {
        promise: u8,
        cap: Option<Desc>,
    },
    Release {
        id: u8,
        count: u8,
    },
    Finish {
        question: u8,
        release: bool,
    },
    Disembargo {
        target: Target,
        embargo: u8,
    },
}

/// Echoes (0), waits forever (1), or waits for the gate and echoes (2).
struct Graph {
    gate: Notify,
    open: AtomicBool,
}

impl Server for Graph {
    fn dispatch(
        self: Arc<Self>,
        _interface_id: u64,
        method_id: u16,
        params: Params,
        mut results: Results,
    ) -> BoxFuture<capnarena_rpc::Result<Results>> {
        Box::pin(async move {
            match method_id % 3 {
                1 => std::future::pending::<()>().await,
                2 => loop {
                    let notified = self.gate.notified();
                    if self.open.load(Ordering::SeqCst) {
                        break;
                    }
                    notified.await;
                },
                _ => {}
            }
            params.read(|content| Ok(results.content()?.set_from(&content)?))?;
            for i in 0..params.cap_count() {
                results.add_cap(params.cap(i)?);
            }
            Ok(results)
        })
    }
}

fn id(v: u8) -> u32 {
    u32::from(v) % IDS
}

fn transform<A: capnarena::Arena>(mut pa: promised_answer::Builder<'_, A>, path: &[u8]) {
    let path = &path[..path.len().min(3)];
    if let Ok(mut ops) = pa.reborrow().init_transform(path.len() as u32) {
        for (i, &f) in path.iter().enumerate() {
            ops.get(i as u32).set_get_pointer_field(u16::from(f % 2));
        }
    }
}

fn target<A: capnarena::Arena>(
    mut t: capnarena_rpc::rpc_capnp::message_target::Builder<'_, A>,
    target: &Target,
) {
    match target {
        Target::Export(e) => t.set_imported_cap(id(*e)),
        Target::Answer(q, path) => {
            if let Ok(mut pa) = t.init_promised_answer() {
                pa.set_question_id(id(*q));
                transform(pa, path);
            }
        }
    }
}

fn desc<A: capnarena::Arena>(mut d: cap_descriptor::Builder<'_, A>, desc: &Desc) {
    match desc {
        Desc::None => d.set_none(),
        Desc::SenderHosted(i) => d.set_sender_hosted(id(*i)),
        Desc::SenderPromise(i) => d.set_sender_promise(id(*i)),
        Desc::ReceiverHosted(i) => d.set_receiver_hosted(id(*i)),
        Desc::ReceiverAnswer(q, path) => {
            if let Ok(mut pa) = d.init_receiver_answer() {
                pa.set_question_id(id(*q));
                transform(pa, path);
            }
        }
    }
}

/// A payload of a struct with two pointers, each a capability of the
/// table (so transforms of [0] and [1] reach them).
fn payload<A: capnarena::Arena>(
    mut p: capnarena_rpc::rpc_capnp::payload::Builder<'_, A>,
    caps: &[Desc],
) {
    let caps = &caps[..caps.len().min(4)];
    if let Ok(mut s) = p
        .reborrow()
        .get_content()
        .init_struct(StructSize::new(0, 2))
    {
        for i in 0..caps.len().min(2) {
            s.reborrow().pointer(i).set_capability(i as u32);
        }
    }
    if !caps.is_empty() {
        if let Ok(mut table) = p.init_cap_table(caps.len() as u32) {
            for (i, c) in caps.iter().enumerate() {
                desc(table.get(i as u32), c);
            }
        }
    }
}

/// The framed bytes of `op`.
fn encode(op: &Op, out: &mut Vec<u8>) {
    let mut msg = Message::new(SingleSegmentArena::new());
    let Ok(mut m) = msg.init_root::<message::Builder<'_, SingleSegmentArena>>() else {
        return;
    };
    let built: capnarena::Result<()> = (|| {
        match op {
            Op::Bootstrap(q) => m.init_bootstrap()?.set_question_id(id(*q)),
            Op::Call {
                question,
                target: t,
                method,
                caps,
            } => {
                let mut call = m.init_call()?;
                call.set_question_id(id(*question));
                call.set_method_id(u16::from(*method));
                target(call.init_target()?, t);
                payload(call.init_params()?, caps);
            }
            Op::Return {
                answer,
                exception,
                caps,
            } => {
                let mut r = m.init_return()?;
                r.set_answer_id(id(*answer));
                if *exception {
                    r.init_exception()?.set_reason("no")?;
                } else {
                    payload(r.init_results()?, caps);
                }
            }
            Op::Resolve { promise, cap } => {
                let mut r = m.init_resolve()?;
                r.set_promise_id(id(*promise));
                match cap {
                    Some(c) => desc(r.init_cap()?, c),
                    None => r.init_exception()?.set_reason("no")?,
                }
            }
            Op::Release { id: i, count } => {
                let mut r = m.init_release()?;
                r.set_id(id(*i));
                r.set_reference_count(u32::from(*count % 3));
            }
            Op::Finish { question, release } => {
                let mut f = m.init_finish()?;
                f.set_question_id(id(*question));
                f.set_release_result_caps(*release);
            }
            Op::Disembargo { target: t, embargo } => {
                let mut d = m.init_disembargo()?;
                target(d.init_target()?, t);
                d.init_context().set_sender_loopback(u32::from(*embargo));
            }
        }
        Ok(())
    })();
    if built.is_ok() {
        msg.append_to(out);
    }
}

fuzz_target!(|ops: Vec<Op>| {
    let mut bytes = Vec::new();
    for op in ops.iter().take(256) {
        encode(op, &mut bytes);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let options = Options {
            max_message_bytes: 1 << 16,
            max_answers: 16,
            max_imports: 16,
            max_exports: 16,
            max_waiters: 16,
            ..Options::default()
        };
        let server = Arc::new(Graph {
            gate: Notify::new(),
            open: AtomicBool::new(false),
        });
        let conn = Connection::new(ours, Some(Client::from_arc(server.clone())), options);
        let (mut read, mut write) = tokio::io::split(theirs);
        let drain = tokio::spawn(async move {
            let mut sink = Vec::new();
            let _ = read.read_to_end(&mut sink).await;
        });
        for chunk in bytes.chunks(512) {
            let _ = write.write_all(chunk).await;
            tokio::task::yield_now().await;
            let stats = conn.stats();
            assert!(stats.answers <= options.max_answers, "{stats:?}");
            assert!(stats.imports <= options.max_imports, "{stats:?}");
            assert!(stats.exports <= options.max_exports, "{stats:?}");
            assert!(stats.waiters <= options.max_waiters, "{stats:?}");
            assert!(conn.queued_bytes() <= options.max_queued_bytes);
        }
        // The input is over: the calls at the gate return, then the peer
        // leaves.
        server.open.store(true, Ordering::SeqCst);
        server.gate.notify_waiters();
        tokio::task::yield_now().await;
        let _ = write.shutdown().await;
        let _ = conn.closed().await;
        assert_eq!(conn.stats(), Stats::default());
        drop(write);
        let _ = drain.await;
        // The writer has stopped: nothing stays queued.
        for _ in 0..64 {
            if conn.queued_bytes() == 0 {
                break;
            }
            tokio::task::yield_now().await;
        }
        assert_eq!(conn.queued_bytes(), 0);
    });
});

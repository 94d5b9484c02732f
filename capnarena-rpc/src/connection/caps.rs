//! Capability descriptors and the import and export tables: what a
//! descriptor received names (importing what the peer hosts), what a
//! capability sent is written as (exporting what this side hosts), and the
//! peer's reference counts on both.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::{Conn, Export, Garbage, Import, ImportClient, State, Target, Violation, violation};
use crate::client::{Arena, Client, Hook};
use crate::error::{Error, Result};
use crate::promise::{Now, Promise};
use crate::rpc_capnp::message;
use crate::rpc_capnp::{cap_descriptor, message_target, payload, promised_answer};

impl Conn {
    /// Fills `payload`'s cap table with a descriptor for each of `caps`,
    /// exporting what this side hosts; returns the export ids used.
    pub(super) fn write_cap_table(
        self: &Arc<Self>,
        st: &mut State,
        mut payload: payload::Builder<'_, Arena>,
        caps: &[Client],
    ) -> Result<Vec<u32>> {
        let mut exports = Vec::new();
        if caps.is_empty() {
            return Ok(exports);
        }
        let mut table = payload.init_cap_table(caps.len() as u32)?;
        for (i, cap) in caps.iter().enumerate() {
            if let Some(id) = self.describe(st, table.get(i as u32), cap)? {
                exports.push(id);
            }
        }
        Ok(exports)
    }

    /// Writes the descriptor of `cap` in `d`; returns the export it
    /// added a reference to, if any. A promise resolved already is
    /// written as what it resolved to. A promise of
    /// [`Client::from_promise`] not resolved yet is exported as a
    /// promise, and its `Resolve` sent when it resolves.
    pub(super) fn describe(
        self: &Arc<Self>,
        st: &mut State,
        mut d: cap_descriptor::Builder<'_, Arena>,
        cap: &Client,
    ) -> Result<Option<u32>> {
        let end;
        let cap = match &cap.hook {
            Hook::Promise(p) => match p.resolved_now() {
                Now::End(client) => {
                    end = client;
                    &end
                }
                Now::Pending(first) if first.queues() => {
                    let id = self.export_promise(st, cap, p)?;
                    d.set_sender_promise(id);
                    return Ok(Some(id));
                }
                Now::Pending(_) => cap,
            },
            _ => cap,
        };
        match &cap.hook {
            Hook::Import(imp) if Arc::ptr_eq(&imp.conn, self) => {
                d.set_receiver_hosted(imp.id);
                Ok(None)
            }
            Hook::Answer(a) if Arc::ptr_eq(&a.conn, self) => {
                let mut pa = d.init_receiver_answer()?;
                pa.set_question_id(a.question.id);
                write_transform(&mut pa, &a.transform)?;
                Ok(None)
            }
            _ => {
                let id = self.export(st, cap)?;
                d.set_sender_hosted(id);
                Ok(Some(id))
            }
        }
    }

    /// Adds a reference of the peer to `cap`'s export (made if new).
    pub(super) fn export(&self, st: &mut State, cap: &Client) -> Result<u32> {
        let key = match &cap.hook {
            Hook::Local(l) => Some(l.id),
            _ => None,
        };
        Ok(self.export_keyed(st, cap, key)?.0)
    }

    /// Adds a reference of the peer to the export of `cap` under `key`;
    /// returns its id and whether it is new.
    fn export_keyed(&self, st: &mut State, cap: &Client, key: Option<u64>) -> Result<(u32, bool)> {
        if let Some(id) = key.and_then(|k| st.export_ids.get(&k).copied()) {
            if let Some(e) = st.exports.get_mut(id) {
                e.refs = e.refs.checked_add(1).ok_or_else(|| {
                    Error::overloaded(format!(
                        "export {id} sent {} times without a release",
                        e.refs
                    ))
                })?;
                return Ok((id, false));
            }
        }
        if st.exports.len >= self.options.max_exports {
            return Err(Error::overloaded(format!(
                "{} capabilities exported on the connection, its limit",
                st.exports.len
            )));
        }
        let id = st.exports.insert(Export {
            client: cap.clone(),
            refs: 1,
            key,
            resolver: None,
        });
        if let Some(k) = key {
            st.export_ids.insert(k, id);
        }
        Ok((id, true))
    }

    /// Exports `promise` (the hook of `cap`) as a promise: the first
    /// time, a task waits for its resolution and sends the `Resolve`.
    fn export_promise(
        self: &Arc<Self>,
        st: &mut State,
        cap: &Client,
        promise: &Arc<Promise>,
    ) -> Result<u32> {
        let (id, new) = self.export_keyed(st, cap, Some(promise.id))?;
        if new {
            let conn = Arc::downgrade(self);
            let waited = Arc::clone(promise);
            let key = promise.id;
            let task = self.runtime.spawn(async move {
                let resolution = crate::promise::follow(waited).await;
                if let Some(conn) = conn.upgrade() {
                    conn.resolve_export(id, key, resolution);
                }
            });
            // Under the lock: the task's `Resolve` takes it after this.
            if let Some(e) = st.exports.get_mut(id) {
                e.resolver = Some(task.abort_handle());
            }
        }
        Ok(id)
    }

    /// Sends the `Resolve` of promise export `id` (of promise `key`), once,
    /// if the peer still holds it: the capability it resolved to (a new
    /// reference for the peer), or the error that broke it.
    fn resolve_export(self: &Arc<Self>, id: u32, key: u64, resolution: Result<Client>) {
        let mut st = self.lock();
        if st.closed.is_some() {
            return;
        }
        // Released before it resolved, the id maybe another's now, or
        // resolved already: no `Resolve`.
        let Some(e) = st.exports.get_mut(id).filter(|e| e.key == Some(key)) else {
            return;
        };
        if e.resolver.take().is_none() {
            return;
        }
        let mut msg = self.message();
        msg.reset();
        let built = (|| -> Result<()> {
            let mut root = msg.init_root::<message::Builder<_>>()?;
            let mut resolve = root.init_resolve()?;
            resolve.set_promise_id(id);
            let error = match &resolution {
                Ok(Client {
                    hook: Hook::Broken(e),
                })
                | Err(e) => e.clone(),
                Ok(client) => {
                    match self.describe(&mut st, resolve.reborrow().init_cap()?, client) {
                        Ok(_) => return Ok(()),
                        // No room to export it: the peer learns why.
                        Err(e) => e,
                    }
                }
            };
            error.write(resolve.init_exception()?)?;
            Ok(())
        })();
        match built {
            Ok(()) => self.send(msg),
            Err(e) => self.fail_later(Error::failed(format!("building a resolve: {e}"))),
        }
        drop(st);
        drop(resolution);
    }

    /// Drops `count` of the peer's references to export `id`.
    pub(super) fn release_export(
        &self,
        st: &mut State,
        id: u32,
        count: u32,
        garbage: &mut Garbage,
    ) -> std::result::Result<(), Violation> {
        let Some(e) = st.exports.get_mut(id) else {
            return violation(format!("release of export {id}, which is not held"));
        };
        if e.refs < count {
            return violation(format!(
                "release of {count} references to export {id}, which has {}",
                e.refs
            ));
        }
        e.refs -= count;
        if e.refs == 0 {
            if let Some(mut e) = st.exports.remove(id) {
                e.stop_resolver();
                if let Some(k) = e.key {
                    st.export_ids.remove(&k);
                }
                garbage.push(e.client);
            }
        }
        Ok(())
    }

    /// The client a received capability descriptor names.
    pub(super) fn import_cap(
        self: &Arc<Self>,
        st: &mut State,
        d: cap_descriptor::Reader<'_>,
    ) -> std::result::Result<Client, Violation> {
        Ok(match d.which()? {
            cap_descriptor::Which::None => Client::broken(Error::failed("null capability")),
            cap_descriptor::Which::SenderHosted(id) | cap_descriptor::Which::SenderPromise(id) => {
                self.import(st, id)?
            }
            cap_descriptor::Which::ReceiverHosted(id) => match st.exports.get(id) {
                Some(e) => e.client.clone(),
                None => return violation(format!("receiverHosted {id}: no such export")),
            },
            cap_descriptor::Which::ReceiverAnswer(pa) => {
                let pa = pa?;
                let transform = read_transform(pa)?;
                self.answer_cap(st, pa.get_question_id(), transform)?
            }
            cap_descriptor::Which::ThirdPartyHosted(_) => {
                return violation("thirdPartyHosted capability on a two-party connection");
            }
        })
    }

    /// One more reference to import `id`.
    pub(super) fn import(
        self: &Arc<Self>,
        st: &mut State,
        id: u32,
    ) -> std::result::Result<Client, Violation> {
        if let Some(import) = st.imports.get_mut(&id) {
            import.refs = import.refs.saturating_add(1);
            if let Some(client) = import.client.upgrade() {
                return Ok(Client {
                    hook: Hook::Import(client),
                });
            }
            // The last client is being dropped: a new one takes the entry
            // (and the references counted so far) over.
            let generation = self.next_generation.fetch_add(1, Ordering::Relaxed);
            let client = Arc::new(ImportClient {
                id,
                conn: Arc::clone(self),
                generation,
            });
            import.client = Arc::downgrade(&client);
            import.generation = generation;
            return Ok(Client {
                hook: Hook::Import(client),
            });
        }
        if st.imports.len() >= self.options.max_imports {
            return Err(Violation(Error::overloaded(format!(
                "the peer sent more than {} capabilities to hold",
                self.options.max_imports
            ))));
        }
        let generation = self.next_generation.fetch_add(1, Ordering::Relaxed);
        let client = Arc::new(ImportClient {
            id,
            conn: Arc::clone(self),
            generation,
        });
        st.imports.insert(
            id,
            Import {
                client: Arc::downgrade(&client),
                generation,
                refs: 1,
            },
        );
        Ok(Client {
            hook: Hook::Import(client),
        })
    }

    /// The capability at `transform` of the results of answer `id`: known
    /// when it has returned, a promise otherwise.
    pub(super) fn answer_cap(
        &self,
        st: &mut State,
        id: u32,
        transform: Vec<u16>,
    ) -> std::result::Result<Client, Violation> {
        let Some(answer) = st.answers.get(&id) else {
            return violation(format!(
                "promisedAnswer of question {id}, which is not open"
            ));
        };
        if let Some(returned) = answer.pipeline() {
            return Ok(returned.cap_at(&transform));
        }
        // Past the limit, the entries of capabilities already dropped go
        // first; the live ones count.
        if st.waiters >= self.options.max_waiters && st.prune_waiters() >= self.options.max_waiters
        {
            return Err(Violation(Error::overloaded(format!(
                "the peer has {} capabilities waiting on calls not returned, the limit",
                st.waiters
            ))));
        }
        let Some(answer) = st.answers.get_mut(&id) else {
            return violation(format!(
                "promisedAnswer of question {id}, which is not open"
            ));
        };
        // A list twice as long as when last pruned is pruned: dropped
        // capabilities leave it in amortized constant time.
        if answer.waiters.len() >= 2 * answer.waiters_kept + 16 {
            let before = answer.waiters.len();
            answer.waiters.retain(|(_, p)| p.strong_count() > 0);
            answer.waiters_kept = answer.waiters.len();
            st.waiters -= before - answer.waiters_kept;
        }
        let Some(answer) = st.answers.get_mut(&id) else {
            return violation(format!(
                "promisedAnswer of question {id}, which is not open"
            ));
        };
        st.waiters += 1;
        // The answer resolves it (when it returns, is canceled, or the
        // connection ends); it waits through a weak reference, so a
        // dropped capability is seen as gone.
        let promise = Promise::cell();
        answer.waiters.push((transform, Arc::downgrade(&promise)));
        Ok(Client {
            hook: Hook::Promise(promise),
        })
    }
}

pub(super) fn write_target(
    mut t: message_target::Builder<'_, Arena>,
    target: &Target,
) -> capnarena::Result<()> {
    match target {
        Target::Import(id) => t.set_imported_cap(*id),
        Target::Answer(q, transform) => {
            let mut pa = t.init_promised_answer()?;
            pa.set_question_id(*q);
            write_transform(&mut pa, transform)?;
        }
    }
    Ok(())
}

pub(super) fn write_transform(
    pa: &mut promised_answer::Builder<'_, Arena>,
    transform: &[u16],
) -> capnarena::Result<()> {
    if transform.is_empty() {
        return Ok(());
    }
    let mut ops = pa.init_transform(transform.len() as u32)?;
    for (i, &f) in transform.iter().enumerate() {
        ops.get(i as u32).set_get_pointer_field(f);
    }
    Ok(())
}

/// Transforms longer than this are refused (a pointer path deeper than
/// the reader's nesting limit could never be followed anyway).
const MAX_TRANSFORM: u32 = 64;

pub(super) fn read_transform(
    pa: promised_answer::Reader<'_>,
) -> std::result::Result<Vec<u16>, Violation> {
    let mut out = Vec::new();
    if !pa.has_transform() {
        return Ok(out);
    }
    let ops = pa.get_transform()?;
    if ops.len() > MAX_TRANSFORM {
        return violation(format!(
            "a promisedAnswer transform of {} ops, over the limit of {MAX_TRANSFORM}",
            ops.len()
        ));
    }
    for op in ops.iter() {
        match op.which()? {
            promised_answer::op::Which::Noop => {}
            promised_answer::op::Which::GetPointerField(f) => out.push(f),
        }
    }
    Ok(out)
}

//! The handling of each message the peer sends: calls (delivered in
//! order, queued on answers not yet returned), returns, finishes, releases,
//! bootstraps, and the rest of level 1.

use std::sync::Arc;

use bytes::Bytes;
use capnarena::serialize::codec::Frame;
use capnarena::typed::FromStructBuilder;
use capnarena::{Message, SingleSegmentArena};

use super::caps::read_transform;
use super::{
    Answer, AnswerKey, AnswerSlot, Conn, Garbage, Queued, Returned, State, Target, Violation,
    violation, write_target,
};
use crate::client::{
    Arena, Body, BoxFuture, Client, Hook, Params, Payload, PipelineTo, Results, Section,
};
use crate::error::{Error, Result};
use crate::promise::Now;
use crate::rpc_capnp::{disembargo, message, message_target, payload, return_};

impl Conn {
    /// Handles one message from the peer.
    pub(super) fn handle(self: &Arc<Self>, frame: Frame) -> std::result::Result<(), Violation> {
        let mut scratch;
        let reader = if frame.is_aligned() {
            frame.reader()?
        } else {
            scratch = Message::new(SingleSegmentArena::new());
            frame.reader_or_copy(&mut scratch)?
        };
        let root = reader.get_root::<message::Reader>()?;
        let which = match root.which() {
            Ok(w) => w,
            Err(_) => return self.send_unimplemented(root),
        };
        match which {
            message::Which::Call(call) => self.handle_call(&frame, call?),
            message::Which::Return(ret) => self.handle_return(&frame, ret?),
            message::Which::Finish(f) => {
                let f = f?;
                self.handle_finish(f.get_question_id(), f.get_release_result_caps())
            }
            message::Which::Release(r) => {
                let r = r?;
                let mut garbage = Vec::new();
                let result = {
                    let mut st = self.lock();
                    self.release_export(&mut st, r.get_id(), r.get_reference_count(), &mut garbage)
                };
                drop(garbage);
                result
            }
            message::Which::Bootstrap(b) => self.handle_bootstrap(b?.get_question_id()),
            message::Which::Abort(e) => {
                let e = Error::from_exception(e?);
                Err(Violation(Error::disconnected(format!(
                    "the peer aborted the connection: {e}"
                ))))
            }
            message::Which::Unimplemented(m) => self.handle_unimplemented(m?),
            message::Which::Resolve(r) => self.handle_resolve(r?),
            message::Which::Disembargo(d) => self.handle_disembargo(root, d?),
            message::Which::ObsoleteSave(_)
            | message::Which::ObsoleteDelete(_)
            | message::Which::Provide(_)
            | message::Which::Accept(_)
            | message::Which::Join(_) => self.send_unimplemented(root),
        }
    }

    pub(super) fn send_unimplemented(
        &self,
        root: message::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        self.send_with(|mut m| m.set_unimplemented(root))?;
        Ok(())
    }

    pub(super) fn handle_call(
        self: &Arc<Self>,
        frame: &Frame,
        call: crate::rpc_capnp::call::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        let id = call.get_question_id();
        let interface_id = call.get_interface_id();
        let method_id = call.get_method_id();
        let params = call.get_params()?;
        let target = call.get_target()?;
        let redirect = !matches!(
            call.get_send_results_to().which()?,
            crate::rpc_capnp::call::send_results_to::Which::Caller
        );
        // Declared before the lock: clients made under it are dropped
        // after it is released, also on an early return.
        let mut caps = Vec::new();
        let mut st = self.lock();
        if st.closed.is_some() {
            return Ok(());
        }
        if st.answers.contains_key(&id) {
            return violation(format!("call with question id {id}, which is in use"));
        }
        if st.answers.len() >= self.options.max_answers {
            return Err(Violation(Error::overloaded(format!(
                "the peer has more than {} calls in flight",
                self.options.max_answers
            ))));
        }
        if params.has_cap_table() {
            for d in params.get_cap_table()?.iter() {
                caps.push(self.import_cap(&mut st, d)?);
            }
        }
        // The target, or the answer (and path) to queue the call on.
        let target = match target.which()? {
            message_target::Which::ImportedCap(cap) => match st.exports.get(cap) {
                Some(e) => Ok(e.client.clone()),
                None => return violation(format!("call on export {cap}, which is not held")),
            },
            message_target::Which::PromisedAnswer(pa) => {
                let pa = pa?;
                let question = pa.get_question_id();
                let transform = read_transform(pa)?;
                match st.answers.get(&question) {
                    None => {
                        return violation(format!(
                            "promisedAnswer of question {question}, which is not open"
                        ));
                    }
                    Some(a) => match a.pipeline() {
                        Some(returned) => Ok(returned.cap_at(&transform)),
                        None => Err((question, transform)),
                    },
                }
            }
        };
        let serial = st.answer_serial();
        let mut answer = Answer::new(serial);
        if let Err((question, _)) = &target {
            answer.queued_on = st.answers.get(question).map(|a| AnswerKey {
                id: *question,
                serial: a.serial,
            });
        }
        st.answers.insert(id, answer);
        let params = Params {
            payload: Payload::new(
                Body::Frame(frame.clone()),
                std::mem::take(&mut caps),
                Section::Call,
            ),
        };
        match target {
            Ok(target) => {
                drop(st);
                let key = AnswerKey { id, serial };
                self.start_call(key, target, interface_id, method_id, params, redirect);
            }
            Err((question, transform)) => {
                if let Some(a) = st.answers.get_mut(&question) {
                    a.queued.insert(
                        serial,
                        Queued {
                            key: AnswerKey { id, serial },
                            interface_id,
                            method_id,
                            params,
                            transform,
                            redirect,
                        },
                    );
                }
            }
        }
        Ok(())
    }

    /// Delivers call `id` to `target` (its `dispatch` runs now, so calls
    /// reach an object in order) and runs its future on the connection's
    /// call runner, whose end sends the return. Called without the lock.
    pub(super) fn start_call(
        self: &Arc<Self>,
        key: AnswerKey,
        target: Client,
        interface_id: u64,
        method_id: u16,
        params: Params,
        redirect: bool,
    ) {
        let id = key.id;
        let future = match Results::new(self.message(), id) {
            Ok(_) if redirect => Box::pin(std::future::ready(Err(Error::unimplemented(
                "results sent elsewhere than the caller (level 3)",
            )))),
            Ok(mut results) => {
                results.pipeline_to = Some(PipelineTo::Answer(AnswerSlot {
                    conn: Arc::downgrade(self),
                    key,
                }));
                target.call_incoming(interface_id, method_id, params, results)
            }
            Err(e) => Box::pin(std::future::ready(Err(e))) as BoxFuture<_>,
        };
        let Some(call) = self.start_future(key, future) else {
            return;
        };
        let canceled = {
            let mut st = self.lock();
            match st.answers.get_mut(&id) {
                Some(a) if a.serial == key.serial && a.returned.is_none() => {
                    a.task = Some(call);
                    a.queued_on = None;
                    None
                }
                Some(a) if a.serial == key.serial => None,
                // Canceled (finished) before it started; the id may be
                // another call's by now.
                _ => self.cancel_future(call),
            }
        };
        drop(canceled);
    }

    /// Sends the return of answer `key`, once its call is done; then
    /// delivers the calls pipelined on it, in order, and resolves the
    /// capabilities waiting for it. Only that answer: once the peer has
    /// finished it and had its return, its id may be another call's.
    pub(super) fn answer(self: &Arc<Self>, key: AnswerKey, result: Result<Results>) {
        let id = key.id;
        let (msg, caps) = match result {
            Ok(Results { msg, caps, .. }) => (Ok(msg), caps),
            Err(e) => (Err(e), Vec::new()),
        };
        let mut garbage: Garbage = Vec::new();
        // The pipeline the server set, if any: its clients go after the
        // lock (the last clone of an import takes it).
        let mut pipeline = None;
        let (returned, finished) = {
            let mut st = self.lock();
            if st.closed.is_some() || st.answers.get(&id).is_none_or(|a| a.serial != key.serial) {
                return;
            }
            let outcome = match msg {
                Ok(msg) => self.send_results(&mut st, msg, &caps),
                Err(e) => Err(e),
            };
            let returned = match outcome {
                Ok((payload, exports)) => {
                    if let Some(a) = st.answers.get_mut(&id) {
                        a.result_exports = exports;
                    }
                    Returned::Results(payload)
                }
                Err(e) => {
                    let sent = self.send_with(|mut root| {
                        let mut ret = root.init_return()?;
                        ret.set_answer_id(id);
                        ret.set_release_param_caps(false);
                        e.write(ret.init_exception()?)
                    });
                    if let Err(err) = sent {
                        self.fail_later(Error::failed(format!("building a return: {err}")));
                    }
                    Returned::Error(e)
                }
            };
            // Finished by the peer before it returned: with the return
            // sent, the id is the peer's again, so the answer leaves the
            // table now (its queued calls are delivered from here).
            let finished = match st.answers.get(&id).and_then(|a| a.finished_early) {
                Some(release) => st.remove_answer(id).map(|a| (a, release)),
                None => None,
            };
            let finished = match finished {
                Some((answer, release)) => {
                    if release {
                        for e in &answer.result_exports {
                            if let Err(Violation(e)) =
                                self.release_export(&mut st, *e, 1, &mut garbage)
                            {
                                self.fail_later(e);
                            }
                        }
                    }
                    Some(answer)
                }
                None => {
                    if let Some(a) = st.answers.get_mut(&id) {
                        a.task = None;
                        a.draining = true;
                        a.returned = Some(returned.clone());
                        pipeline = a.pipeline.take();
                    }
                    None
                }
            };
            (returned, finished)
        };
        drop(garbage);
        drop(pipeline);
        if let Some(answer) = finished {
            self.deliver_queued(answer.queued, Some(&returned));
            for (transform, promise) in answer.waiters {
                super::resolve(&promise, Ok(returned.cap_at(&transform)));
            }
            drop(caps);
            return;
        }
        self.drain_pipelined(key, &returned);
        drop(caps);
    }

    /// Sets the results the server gave for pipelining while call `key`
    /// runs on (once): the calls queued on it are delivered there, and so
    /// are those that come later, until it returns. Called without the
    /// lock.
    pub(crate) fn set_pipeline(self: &Arc<Self>, key: AnswerKey, payload: Payload) {
        let pipeline = Returned::Results(payload);
        {
            let mut st = self.lock();
            if st.closed.is_some() {
                return;
            }
            // Only the first counts: capabilities of it may have been
            // resolved already.
            let Some(a) = st
                .answers
                .get_mut(&key.id)
                .filter(|a| a.serial == key.serial && a.returned.is_none() && a.pipeline.is_none())
            else {
                return;
            };
            a.draining = true;
            a.pipeline = Some(pipeline.clone());
        }
        self.drain_pipelined(key, &pipeline);
    }

    /// Delivers the calls queued on answer `key` to `to` (its results or
    /// its pipeline) and resolves the capabilities waiting on it. Calls
    /// queued before go first, in order; calls that arrive meanwhile
    /// queue behind them until the queue is empty.
    fn drain_pipelined(self: &Arc<Self>, key: AnswerKey, to: &Returned) {
        let waiters = loop {
            let batch = {
                let mut st = self.lock();
                let Some(a) = st
                    .answers
                    .get_mut(&key.id)
                    .filter(|a| a.serial == key.serial)
                else {
                    break Vec::new();
                };
                if a.queued.is_empty() {
                    a.draining = false;
                    break st.take_waiters(key.id);
                }
                std::mem::take(&mut a.queued)
            };
            self.deliver_queued(batch, Some(to));
        };
        for (transform, promise) in waiters {
            super::resolve(&promise, Ok(to.cap_at(&transform)));
        }
    }

    /// Delivers calls queued on an answer: to the capabilities of its
    /// results, or failed as canceled when it never returned.
    pub(super) fn deliver_queued(
        self: &Arc<Self>,
        calls: super::Queue,
        returned: Option<&Returned>,
    ) {
        for q in calls.into_values() {
            let target = match returned {
                Some(r) => r.cap_at(&q.transform),
                None => Client::broken(Error::failed("the call was canceled")),
            };
            self.start_call(
                q.key,
                target,
                q.interface_id,
                q.method_id,
                q.params,
                q.redirect,
            );
        }
    }

    /// Writes the cap table of `results` and queues them; keeps a copy of
    /// the message (and the capabilities) for pipelined calls.
    pub(super) fn send_results(
        self: &Arc<Self>,
        st: &mut State,
        mut msg: Message<Arena>,
        caps: &[Client],
    ) -> Result<(Payload, Vec<u32>)> {
        let exports = {
            let root = msg.root_pointer()?.get_struct(message::STRUCT_SIZE)?;
            let ret = root.into_pointer(0).get_struct(return_::STRUCT_SIZE)?;
            let payload = payload::Builder::from_struct_builder(
                ret.into_pointer(0).get_struct(payload::STRUCT_SIZE)?,
            );
            self.write_cap_table(st, payload, caps)?
        };
        // Pipelined calls read the results from a copy; with no
        // capabilities there is nothing for them to reach.
        let body = if caps.is_empty() {
            Body::Frame(Frame::new(Bytes::new(), self.options.reader))
        } else {
            let mut bytes = Vec::with_capacity(msg.serialized_size());
            msg.append_to(&mut bytes);
            Body::Frame(Frame::new(Bytes::from(bytes), self.options.reader))
        };
        self.send(msg);
        Ok((Payload::new(body, caps.to_vec(), Section::Return), exports))
    }

    pub(super) fn handle_return(
        self: &Arc<Self>,
        frame: &Frame,
        ret: return_::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        let id = ret.get_answer_id();
        // Declared before the lock (see handle_call).
        let mut caps = Vec::new();
        let mut garbage: Garbage = Vec::new();
        let dropped_payload;
        let dropped_question;
        {
            let mut st = self.lock();
            if st.closed.is_some() {
                return Ok(());
            }
            match st.questions.get(id) {
                Some(q) if !q.returned => {}
                Some(_) => return violation(format!("second return for question {id}")),
                None => return violation(format!("return for question {id}, which is not open")),
            }
            let outcome = match ret.which()? {
                return_::Which::Results(p) => {
                    let p = p?;
                    if p.has_cap_table() {
                        for d in p.get_cap_table()?.iter() {
                            caps.push(self.import_cap(&mut st, d)?);
                        }
                    }
                    Ok(Payload::new(
                        Body::Frame(frame.clone()),
                        std::mem::take(&mut caps),
                        Section::Return,
                    ))
                }
                return_::Which::Exception(e) => Err(Error::from_exception(e?)),
                return_::Which::Canceled => Err(Error::failed("the call was canceled")),
                _ => return violation(format!("return for question {id} of a level 3 kind")),
            };
            if ret.get_release_param_caps() {
                let exports = st
                    .questions
                    .get_mut(id)
                    .map(|q| std::mem::take(&mut q.param_exports))
                    .unwrap_or_default();
                for e in exports {
                    self.release_export(&mut st, e, 1, &mut garbage)?;
                }
            }
            let Some(q) = st.questions.get_mut(id) else {
                return Ok(());
            };
            // The questions whose capabilities the call carried may be
            // finished now (their handles go after the lock).
            let held = std::mem::take(&mut q.held);
            if q.finished {
                dropped_question = st.questions.remove(id);
                dropped_payload = Some(outcome);
            } else {
                dropped_question = None;
                dropped_payload = q.settle(outcome);
            }
            garbage.extend(held);
        }
        drop(dropped_question);
        drop(dropped_payload);
        drop(garbage);
        Ok(())
    }

    pub(super) fn handle_finish(
        self: &Arc<Self>,
        id: u32,
        release_result_caps: bool,
    ) -> std::result::Result<(), Violation> {
        let mut garbage: Garbage = Vec::new();
        // The finished answer, then those canceled down its chain (no
        // allocation unless there are some).
        let mut first = None;
        let mut removed = Vec::new();
        let mut unqueued = Vec::new();
        {
            let mut st = self.lock();
            if st.closed.is_some() {
                return Ok(());
            }
            match st.answers.get_mut(&id) {
                None => return violation(format!("finish for question {id}, which is not open")),
                Some(a) if a.finished_early.is_some() => {
                    return violation(format!("second finish for question {id}"));
                }
                // Still referenced here: it runs on (see `finished_early`).
                Some(a) if a.returned.is_none() && a.referenced() => {
                    a.finished_early = Some(release_result_caps);
                    return Ok(());
                }
                Some(_) => {}
            }
            // A canceled call queued on another answer leaves its queue;
            // when that answer was finished early and nothing else waits
            // on it, it is canceled in turn, and so on down the chain.
            let mut next = Some((id, release_result_caps));
            while let Some((id, release)) = next.take() {
                let Some(mut answer) = st.remove_answer(id) else {
                    break;
                };
                if answer.returned.is_none() {
                    self.send_canceled(id);
                    if let Some(on) = answer.queued_on {
                        if let Some(a) =
                            st.answers.get_mut(&on.id).filter(|a| a.serial == on.serial)
                        {
                            unqueued.extend(a.queued.remove(&answer.serial));
                            if let (Some(release), None, false) =
                                (a.finished_early, &a.returned, a.referenced())
                            {
                                next = Some((on.id, release));
                            }
                        }
                    }
                } else if release {
                    for e in std::mem::take(&mut answer.result_exports) {
                        self.release_export(&mut st, e, 1, &mut garbage)?;
                    }
                }
                match first {
                    None => first = Some(answer),
                    Some(_) => removed.push(answer),
                }
            }
        }
        drop(unqueued);
        for mut removed in first.into_iter().chain(removed) {
            if let Some(call) = removed.task.take() {
                drop(self.cancel_future(call));
            }
            // Calls pipelined on it still get delivered (or fail).
            let queued = std::mem::take(&mut removed.queued);
            let reached = removed.returned.take().or(removed.pipeline.take());
            self.deliver_queued(queued, reached.as_ref());
            for (transform, promise) in removed.waiters {
                super::resolve(
                    &promise,
                    match &reached {
                        Some(r) => Ok(r.cap_at(&transform)),
                        None => Err(Error::failed("the call was canceled")),
                    },
                );
            }
        }
        drop(garbage);
        Ok(())
    }

    /// Sends the `Return` of a call canceled by the peer's finish.
    fn send_canceled(&self, id: u32) {
        if let Err(e) = self.send_with(|mut root| {
            let mut ret = root.init_return()?;
            ret.set_answer_id(id);
            ret.set_release_param_caps(false);
            ret.set_canceled();
            Ok(())
        }) {
            self.fail_later(Error::failed(format!("building a return: {e}")));
        }
    }

    pub(super) fn handle_bootstrap(
        self: &Arc<Self>,
        id: u32,
    ) -> std::result::Result<(), Violation> {
        let mut st = self.lock();
        if st.closed.is_some() {
            return Ok(());
        }
        if st.answers.contains_key(&id) {
            return violation(format!("bootstrap with question id {id}, which is in use"));
        }
        // A bootstrap is an answer like a call's, held until its finish.
        if st.answers.len() >= self.options.max_answers {
            return Err(Violation(Error::overloaded(format!(
                "the peer has more than {} calls in flight (bootstraps included)",
                self.options.max_answers
            ))));
        }
        let returned = match st.bootstrap.clone() {
            Some(cap) => {
                let outcome = (|| -> Result<(Payload, Vec<u32>)> {
                    let mut results = Results::new(self.message(), id)?;
                    results.content()?.set_capability(0);
                    self.send_results(&mut st, results.msg, std::slice::from_ref(&cap))
                })();
                match outcome {
                    Ok((payload, exports)) => (Returned::Results(payload), exports),
                    Err(e) => return Err(Violation(e)),
                }
            }
            None => {
                let e = Error::failed("this side of the connection has no bootstrap capability");
                self.send_with(|mut root| {
                    let mut ret = root.init_return()?;
                    ret.set_answer_id(id);
                    ret.set_release_param_caps(false);
                    e.write(ret.init_exception()?)
                })?;
                (Returned::Error(e), Vec::new())
            }
        };
        let mut answer = Answer::new(st.answer_serial());
        answer.returned = Some(returned.0);
        answer.result_exports = returned.1;
        st.answers.insert(id, answer);
        Ok(())
    }

    pub(super) fn handle_unimplemented(
        self: &Arc<Self>,
        echoed: message::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        // A call or bootstrap of ours the peer does not implement fails
        // like a return with an exception; anything else echoed is
        // something this side never sends.
        let id = match echoed.which()? {
            message::Which::Call(c) => c?.get_question_id(),
            message::Which::Bootstrap(b) => b?.get_question_id(),
            _ => return Ok(()),
        };
        let mut dropped = None;
        let mut held = Vec::new();
        {
            let mut st = self.lock();
            if let Some(q) = st.questions.get_mut(id) {
                if !q.returned {
                    let outcome = Err(Error::unimplemented("the peer does not implement the call"));
                    if q.finished {
                        dropped = st.questions.remove(id);
                    } else {
                        held = std::mem::take(&mut q.held);
                        let _ = q.settle(outcome);
                    }
                }
            }
        }
        drop(held);
        drop(dropped);
        Ok(())
    }

    pub(super) fn handle_resolve(
        self: &Arc<Self>,
        r: crate::rpc_capnp::resolve::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        // Calls keep going to the promise, which the peer forwards; the
        // capability it resolved to is taken and released at once, so the
        // peer's count of it stays right.
        let resolved = {
            let mut st = self.lock();
            if st.closed.is_some() {
                return Ok(());
            }
            match r.which()? {
                crate::rpc_capnp::resolve::Which::Cap(d) => Some(self.import_cap(&mut st, d?)?),
                crate::rpc_capnp::resolve::Which::Exception(_) => None,
            }
        };
        drop(resolved);
        Ok(())
    }

    pub(super) fn handle_disembargo(
        self: &Arc<Self>,
        root: message::Reader<'_>,
        d: disembargo::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        let embargo = match d.get_context().which()? {
            disembargo::context::Which::SenderLoopback(e) => e,
            disembargo::context::Which::ReceiverLoopback(_) => {
                return violation("receiverLoopback disembargo, though none was sent");
            }
            _ => return self.send_unimplemented(root),
        };
        let target = d.get_target()?;
        let cap = {
            let mut st = self.lock();
            match target.which()? {
                message_target::Which::ImportedCap(id) => match st.exports.get(id) {
                    Some(e) => e.client.clone(),
                    None => {
                        return violation(format!(
                            "disembargo {embargo} of export {id}, which is not held"
                        ));
                    }
                },
                message_target::Which::PromisedAnswer(pa) => {
                    let pa = pa?;
                    let transform = read_transform(pa)?;
                    self.answer_cap(&mut st, pa.get_question_id(), transform)?
                }
            }
        };
        // A promise this side exported and resolved stands for its
        // resolution: calls the peer made on it before the `Resolve` were
        // forwarded there, each when it came, so the loopback sent now
        // follows them.
        let cap = match &cap.hook {
            Hook::Promise(p) => match p.resolved_now() {
                Now::End(end) => end,
                Now::Pending(_) => {
                    return violation(format!(
                        "senderLoopback disembargo {embargo} of a promise not resolved yet"
                    ));
                }
            },
            _ => cap,
        };
        // The capability must point back at the peer: the loopback is
        // sent to where it points there.
        let back = match &cap.hook {
            Hook::Import(i) if Arc::ptr_eq(&i.conn, self) => Target::Import(i.id),
            Hook::Answer(a) if Arc::ptr_eq(&a.conn, self) => {
                Target::Answer(a.question.id, a.transform.clone())
            }
            _ => {
                return violation(format!(
                    "senderLoopback disembargo {embargo} of a capability not the peer's"
                ));
            }
        };
        self.send_with(|mut root| {
            let mut out = root.init_disembargo()?;
            write_target(out.init_target()?, &back)?;
            out.init_context().set_receiver_loopback(embargo);
            Ok(())
        })?;
        drop(cap);
        Ok(())
    }
}

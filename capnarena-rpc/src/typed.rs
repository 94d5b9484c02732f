//! Typed calls: the wrappers that the code capnarena-codegen generates for
//! a schema's interfaces is written against.
//!
//! A generated client's `foo_request()` gives a [`TypedRequest`] whose
//! parameters are built in place ([`TypedRequest::get`]); `send()` gives a
//! [`TypedSent`]: a [`TypedResponseFuture`] and a pipeline (a generated
//! type with a typed client per capability field of the results). A
//! generated server trait's methods receive [`TypedParams`] and fill
//! [`TypedResults`].
//!
//! Readers borrow the message they read, so they are reached in two steps:
//! [`reader`](TypedParams::reader) holds the message, its `get()` gives the
//! struct's reader (or [`read`](TypedParams::read) does both for a closure).
//! A reader borrows the parameters or response it reads, so it lives no
//! longer than they do. Readers are `Send` and `Sync`: one may be held
//! across an `.await` in a server's future (`tests/threads.rs`).

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use capnarena::typed::Owned;
use capnarena::{MessageReader, SingleSegmentArena};
use futures_util::FutureExt;

use crate::client::Payload;
use crate::{
    BoxFuture, Client, Error, Params, Pipeline, Request, Response, ResponseFuture, Result, Results,
    Server,
};

/// The arena the messages of calls are built in: what the builders of
/// parameters and results are generic over.
pub type CallArena = SingleSegmentArena;

/// A typed capability: a generated interface's client, or [`Client`]
/// itself. Converts to and from the untyped client with no check (the
/// interface a capability implements is not on the wire).
pub trait FromClient: Sized {
    /// The typed client of `client`.
    fn from_client(client: Client) -> Self;
    /// The untyped client.
    fn into_client(self) -> Client;
}

impl FromClient for Client {
    fn from_client(client: Client) -> Self {
        client
    }
    fn into_client(self) -> Client {
        self
    }
}

/// The capabilities that came with a received message (parameters or
/// results): what the typed getter of a generated capability field
/// (`get_foo_client(&caps)`) takes its client from.
pub trait CapTable {
    /// The capability at `index` of the message's capabilities.
    ///
    /// # Errors
    /// No capability of that index came with the message.
    fn cap_client(&self, index: u32) -> Result<Client>;
}

impl CapTable for Params {
    fn cap_client(&self, index: u32) -> Result<Client> {
        self.cap(index)
    }
}

impl CapTable for Response {
    fn cap_client(&self, index: u32) -> Result<Client> {
        self.cap(index)
    }
}

impl<P> CapTable for TypedParams<P> {
    fn cap_client(&self, index: u32) -> Result<Client> {
        self.inner.cap(index)
    }
}

impl<R> CapTable for TypedResponse<R> {
    fn cap_client(&self, index: u32) -> Result<Client> {
        self.inner.cap(index)
    }
}

impl<T> CapTable for Root<'_, T> {
    fn cap_client(&self, index: u32) -> Result<Client> {
        self.payload.cap(index)
    }
}

/// The capabilities of a message being built (parameters or results),
/// beside its builder (from `get_with_caps()`): what the typed setter of a
/// generated capability field (`set_foo_client(&mut caps, client)`) adds
/// its client to.
pub struct Caps<'a> {
    caps: &'a mut Vec<Client>,
}

impl Caps<'_> {
    /// Adds `cap` to the message's capabilities; returns its index (what
    /// a capability field is set to).
    pub fn add(&mut self, cap: impl FromClient) -> u32 {
        self.caps.push(cap.into_client());
        self.caps.len() as u32 - 1
    }

    /// Capabilities added so far.
    pub fn len(&self) -> u32 {
        self.caps.len() as u32
    }

    /// Whether none has been added.
    pub fn is_empty(&self) -> bool {
        self.caps.is_empty()
    }
}

/// A call being built, with parameters `P`, results `R` and a pipeline of
/// type `Q` (a generated pipeline, or the untyped [`Pipeline`]).
pub struct TypedRequest<P, R, Q = Pipeline> {
    request: Request,
    types: PhantomData<Types<P, R, Q>>,
}

/// The types a [`TypedRequest`] is of (it holds none of their values).
type Types<P, R, Q> = fn() -> (P, R, Q);

impl<P: Owned, R: Owned, Q: From<Pipeline>> TypedRequest<P, R, Q> {
    /// The typed view of an untyped request.
    pub fn new(request: Request) -> Self {
        TypedRequest {
            request,
            types: PhantomData,
        }
    }

    /// The parameters, to build in place (the struct is made on first use).
    ///
    /// # Errors
    /// The message's arena has no room.
    pub fn get(&mut self) -> Result<P::Builder<'_, CallArena>> {
        Ok(P::get(self.request.params()?)?)
    }

    /// The parameters, to build in place, and their capabilities, for
    /// the typed setters of capability fields
    /// (`p.set_counter_client(&mut caps, counter)`, also in nested
    /// structs).
    ///
    /// # Errors
    /// The message's arena has no room.
    pub fn get_with_caps(&mut self) -> Result<(P::Builder<'_, CallArena>, Caps<'_>)> {
        let (content, caps) = self.request.params_and_caps()?;
        Ok((P::get(content)?, Caps { caps }))
    }

    /// Adds `cap` to the parameters' capabilities; returns the index to
    /// set a capability field to.
    pub fn add_cap(&mut self, cap: impl FromClient) -> u32 {
        self.request.add_cap(cap.into_client())
    }

    /// Passes `cap` in a capability field: adds it to the parameters'
    /// capabilities and hands its index to `set` with the parameters
    /// (`req.set_cap(counter, |mut p, i| p.set_counter(i))`).
    ///
    /// # Errors
    /// The message's arena has no room.
    pub fn set_cap(
        &mut self,
        cap: impl FromClient,
        set: impl FnOnce(P::Builder<'_, CallArena>, u32),
    ) -> Result<()> {
        let index = self.add_cap(cap);
        set(self.get()?, index);
        Ok(())
    }

    /// The untyped request.
    pub fn untyped(&mut self) -> &mut Request {
        &mut self.request
    }

    /// The size of the call's message as built so far, in bytes.
    pub fn message_bytes(&self) -> usize {
        self.request.msg.serialized_size()
    }

    /// Sends the call (see [`Request::send`]).
    pub fn send(self) -> TypedSent<R, Q> {
        let sent = self.request.send();
        TypedSent {
            response: TypedResponseFuture {
                inner: sent.response,
                types: PhantomData,
            },
            pipeline: Q::from(sent.pipeline),
        }
    }
}

/// A sent typed call: its response to come, and its pipeline.
pub struct TypedSent<R, Q = Pipeline> {
    /// The results (or the error) when the call returns.
    pub response: TypedResponseFuture<R>,
    /// Capabilities of the results, usable before they arrive.
    pub pipeline: Q,
}

/// The response of a sent typed call, to await; dropping it (with the
/// pipeline) cancels a call that has not returned.
pub struct TypedResponseFuture<R> {
    inner: ResponseFuture,
    types: PhantomData<fn() -> R>,
}

impl<R> Future for TypedResponseFuture<R> {
    type Output = Result<TypedResponse<R>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.inner.poll_unpin(cx).map_ok(|inner| TypedResponse {
            inner,
            types: PhantomData,
        })
    }
}

/// The results of a typed call.
pub struct TypedResponse<R> {
    inner: Response,
    types: PhantomData<fn() -> R>,
}

impl<R> Clone for TypedResponse<R> {
    fn clone(&self) -> Self {
        TypedResponse {
            inner: self.inner.clone(),
            types: PhantomData,
        }
    }
}

impl<R: Owned> TypedResponse<R> {
    /// The results' message, whose `get()` reads them.
    ///
    /// # Errors
    /// The message is malformed.
    pub fn reader(&self) -> Result<Root<'_, R>> {
        Root::new(&self.inner.payload)
    }

    /// Hands `f` the results' reader.
    ///
    /// # Errors
    /// The message is malformed, or `f`'s error.
    pub fn read<X>(&self, f: impl FnOnce(R::Reader<'_>) -> Result<X>) -> Result<X> {
        f(self.reader()?.get()?)
    }

    /// The capability at `index` of the results' capabilities (the value
    /// of a capability field), as a typed client.
    ///
    /// # Errors
    /// No capability of that index came with the results.
    pub fn cap<C: FromClient>(&self, index: u32) -> Result<C> {
        self.inner.cap(index).map(C::from_client)
    }

    /// The typed client of a capability field, which `field` reads
    /// (`response.get_cap(|r| r.get_counter())`).
    ///
    /// # Errors
    /// The message is malformed, or no capability of that index came
    /// with the results.
    pub fn get_cap<C: FromClient>(
        &self,
        field: impl FnOnce(R::Reader<'_>) -> capnarena::Result<u32>,
    ) -> Result<C> {
        let index = self.read(|r| Ok(field(r)?))?;
        self.cap(index)
    }

    /// The untyped response.
    pub fn untyped(&self) -> &Response {
        &self.inner
    }
}

/// A received message holding parameters or results of type `T`.
pub struct Root<'p, T> {
    message: MessageReader<'p>,
    payload: &'p Payload,
    types: PhantomData<fn() -> T>,
}

impl<'p, T: Owned> Root<'p, T> {
    fn new(payload: &'p Payload) -> Result<Self> {
        Ok(Root {
            message: payload.message()?,
            payload,
            types: PhantomData,
        })
    }

    /// The parameters' or results' reader.
    ///
    /// # Errors
    /// The message is malformed.
    pub fn get(&self) -> Result<T::Reader<'_>> {
        Ok(T::read(self.payload.content(&self.message)?)?)
    }
}

/// A call's parameters of type `P`, as a generated server method receives
/// them.
pub struct TypedParams<P> {
    inner: Params,
    types: PhantomData<fn() -> P>,
}

impl<P: Owned> TypedParams<P> {
    /// The typed view of untyped parameters.
    pub fn new(inner: Params) -> Self {
        TypedParams {
            inner,
            types: PhantomData,
        }
    }

    /// The parameters' message, whose `get()` reads them.
    ///
    /// # Errors
    /// The message is malformed.
    pub fn reader(&self) -> Result<Root<'_, P>> {
        Root::new(&self.inner.payload)
    }

    /// Hands `f` the parameters' reader.
    ///
    /// # Errors
    /// The message is malformed, or `f`'s error.
    pub fn read<X>(&self, f: impl FnOnce(P::Reader<'_>) -> Result<X>) -> Result<X> {
        f(self.reader()?.get()?)
    }

    /// The capability at `index` of the parameters' capabilities (the
    /// value of a capability field), as a typed client.
    ///
    /// # Errors
    /// No capability of that index came with the call.
    pub fn cap<C: FromClient>(&self, index: u32) -> Result<C> {
        self.inner.cap(index).map(C::from_client)
    }

    /// The typed client of a capability field, which `field` reads
    /// (`params.get_cap(|p| p.get_counter())`).
    ///
    /// # Errors
    /// The message is malformed, or no capability of that index came
    /// with the call.
    pub fn get_cap<C: FromClient>(
        &self,
        field: impl FnOnce(P::Reader<'_>) -> capnarena::Result<u32>,
    ) -> Result<C> {
        let index = self.read(|p| Ok(field(p)?))?;
        self.cap(index)
    }

    /// The untyped parameters.
    pub fn untyped(&self) -> &Params {
        &self.inner
    }
}

/// A call's results of type `R`, as a generated server method fills them.
pub struct TypedResults<R> {
    inner: Results,
    types: PhantomData<fn() -> R>,
}

impl<R: Owned> TypedResults<R> {
    /// The typed view of untyped results.
    pub fn new(inner: Results) -> Self {
        TypedResults {
            inner,
            types: PhantomData,
        }
    }

    /// The results, to build in place (the struct is made on first use).
    ///
    /// # Errors
    /// The message's arena has no room.
    pub fn get(&mut self) -> Result<R::Builder<'_, CallArena>> {
        Ok(R::get(self.inner.content()?)?)
    }

    /// The results, to build in place, and their capabilities, for the
    /// typed setters of capability fields
    /// (`r.set_counter_client(&mut caps, counter)`, also in nested
    /// structs).
    ///
    /// # Errors
    /// The message's arena has no room.
    pub fn get_with_caps(&mut self) -> Result<(R::Builder<'_, CallArena>, Caps<'_>)> {
        let (content, caps) = self.inner.content_and_caps()?;
        Ok((R::get(content)?, Caps { caps }))
    }

    /// Adds `cap` to the results' capabilities; returns the index to set
    /// a capability field to.
    pub fn add_cap(&mut self, cap: impl FromClient) -> u32 {
        self.inner.add_cap(cap.into_client())
    }

    /// Returns `cap` in a capability field: adds it to the results'
    /// capabilities and hands its index to `set` with the results
    /// (`results.set_cap(counter, |mut r, i| r.set_counter(i))`).
    ///
    /// # Errors
    /// The message's arena has no room.
    pub fn set_cap(
        &mut self,
        cap: impl FromClient,
        set: impl FnOnce(R::Builder<'_, CallArena>, u32),
    ) -> Result<()> {
        let index = self.add_cap(cap);
        set(self.get()?, index);
        Ok(())
    }

    /// Lets calls pipelined on these results reach their capabilities
    /// now, while the method runs on: set the capability fields first,
    /// then call it. See [`Results::set_pipeline`].
    pub fn set_pipeline(&mut self) {
        self.inner.set_pipeline();
    }

    /// The untyped results.
    pub fn untyped(&mut self) -> &mut Results {
        &mut self.inner
    }

    /// The untyped results, to hand back to the connection.
    pub fn into_untyped(self) -> Results {
        self.inner
    }
}

/// The future a generated server trait's method returns: its results
/// (`()` for a streaming method), `Send` and `'static`, as it is run by the
/// connection's call runner (see [`Server`]). Any such future is one: implement the method as an
/// `async fn`, or as a `fn` that does its ordered work first and returns
/// a future.
pub trait ServerFuture<T>: Future<Output = Result<T>> + Send + 'static {}

impl<T, F: Future<Output = Result<T>> + Send + 'static> ServerFuture<T> for F {}

/// How a generated server's calls are dispatched by interface and method
/// id (the generated `dispatch` function of its interface).
pub type DispatchFn<S> = fn(Arc<S>, u64, u16, Params, Results) -> BoxFuture<Result<Results>>;

/// A server of a generated interface, with its dispatch function.
struct Dispatcher<S> {
    server: Arc<S>,
    dispatch: DispatchFn<S>,
}

impl<S: Send + Sync + 'static> Server for Dispatcher<S> {
    fn dispatch(
        self: Arc<Self>,
        interface_id: u64,
        method_id: u16,
        params: Params,
        results: Results,
    ) -> BoxFuture<Result<Results>> {
        (self.dispatch)(
            Arc::clone(&self.server),
            interface_id,
            method_id,
            params,
            results,
        )
    }
}

impl Client {
    /// A client of `server`, whose calls `dispatch` answers: how a
    /// generated interface's `Client::from_server` is made.
    pub fn from_dispatch<S: Send + Sync + 'static>(
        server: Arc<S>,
        dispatch: DispatchFn<S>,
    ) -> Client {
        Client::from_server(Dispatcher { server, dispatch })
    }
}

/// The future of a method a server does not implement (the default body
/// of a generated server trait's methods).
pub fn unimplemented<T>(interface_id: u64, method_id: u16) -> std::future::Ready<Result<T>> {
    std::future::ready(Err(Error::method_not_implemented(interface_id, method_id)))
}

/// The answer to a call of a method the interface does not have (or of
/// another interface).
pub fn unknown_method(interface_id: u64, method_id: u16) -> BoxFuture<Result<Results>> {
    Box::pin(unimplemented(interface_id, method_id))
}

/// The answer of a generated server's method: its results handed back to
/// the connection once `future` completes. (The method was called when
/// the call was dispatched, in the order calls were sent; the future runs
/// on the connection's call runner, see [`Server`].)
pub fn answer<R, F>(future: F) -> BoxFuture<Result<Results>>
where
    R: Owned,
    F: Future<Output = Result<TypedResults<R>>> + Send + 'static,
{
    Box::pin(async move { Ok(future.await?.into_untyped()) })
}

/// The answer of a generated server's streaming method (`-> stream`):
/// empty results once `future` completes.
pub fn answer_stream<F>(future: F, results: Results) -> BoxFuture<Result<Results>>
where
    F: Future<Output = Result<()>> + Send + 'static,
{
    Box::pin(async move {
        future.await?;
        Ok(results)
    })
}

//! An interface's typed client: `Client` (a typed handle on an untyped
//! `Client` of the RPC crate), one `*_request()` per method, conversions
//! to the clients of the interfaces it extends, and a `*Pipeline` per
//! method whose results hold capabilities or structs.

use super::Generator;
use super::rpc::{Rpc, RpcMethod};
use super::rpc_pipeline::PipelineGetter;
use super::writer::Writer;
use crate::Error;
use crate::model::*;

impl Generator<'_> {
    /// Writes the `Client` type and its impls.
    pub(super) fn rpc_client(&self, out: &mut Writer, info: &Rpc<'_>) -> Result<(), Error> {
        self.client_struct(out, info);
        self.client_impls(out, info);
        self.client_methods(out, info)?;
        self.client_upcasts(out, info);
        for m in &info.methods {
            self.pipeline(out, info, m)?;
        }
        Ok(())
    }

    fn client_struct(&self, out: &mut Writer, info: &Rpc<'_>) {
        let rt = &self.runtime;
        let defaults: Vec<String> = info
            .generics
            .iter()
            .map(|g| format!("{g}: {rt}::typed::Owned = {rt}::typed::AnyPointer"))
            .collect();
        out.docs(&format!(
            "A client of `{}`: a capability, local or remote, to call its methods on.\n\
             Cheap to clone (clones share the reference); `Send + Sync`.",
            info.node.short_name()
        ));
        if !info.generics.is_empty() {
            // Its marker names every parameter: `fn() -> (A, B, C)`.
            out.line("#[allow(clippy::type_complexity)]");
        }
        out.open(&format!(
            "pub struct Client{}",
            super::rpc::angle(&defaults.join(", "))
        ));
        out.docs("The untyped client.");
        out.type_line(&format!("pub client: {}::Client,", info.rpc));
        if info.streams() {
            out.type_line(&format!("flow: {}::StreamFlow,", info.rpc));
        }
        out.type_line(&format!(
            "types: ::core::marker::PhantomData<fn() -> ({})>,",
            tuple(&info.generics)
        ));
        out.close();
    }

    fn client_impls(&self, out: &mut Writer, info: &Rpc<'_>) {
        let (rpc, bounds, args) = (&info.rpc, info.bounds(&self.runtime, ""), info.args());
        out.open_impl(&format!("impl{bounds} Clone for Client{args}"));
        out.open_fn("fn clone(&self) -> Self");
        out.open("Client");
        out.line("client: self.client.clone(),");
        if info.streams() {
            out.line("flow: self.flow.clone(),");
        }
        out.line("types: ::core::marker::PhantomData,");
        out.close();
        out.close();
        out.close();
        out.open_impl(&format!("impl{bounds} ::core::fmt::Debug for Client{args}"));
        out.open_fn("fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result");
        out.line(&format!(
            "::core::write!(f, \"{}::Client({{:?}})\", self.client)",
            info.node.short_name()
        ));
        out.close();
        out.close();
        out.open_impl(&format!("impl{bounds} {rpc}::FromClient for Client{args}"));
        out.open_fn(&format!("fn from_client(client: {rpc}::Client) -> Self"));
        out.open("Client");
        out.line("client,");
        if info.streams() {
            out.line("flow: ::core::default::Default::default(),");
        }
        out.line("types: ::core::marker::PhantomData,");
        out.close();
        out.close();
        out.open_fn(&format!("fn into_client(self) -> {rpc}::Client"));
        out.line("self.client");
        out.close();
        out.close();
    }

    fn client_methods(&self, out: &mut Writer, info: &Rpc<'_>) -> Result<(), Error> {
        let (rpc, args) = (&info.rpc, info.args());
        out.open_impl(&format!(
            "impl{} Client{args}",
            info.bounds(&self.runtime, "")
        ));
        out.docs("A client of `server`, to call in this process or to pass to a peer.");
        out.open_fn(&format!(
            "pub fn from_server<S: Server{args}>(server: S) -> Self"
        ));
        out.line("Self::from_arc(::std::sync::Arc::new(server))");
        out.close();
        out.docs("A client of a server already shared.");
        out.open_fn(&format!(
            "pub fn from_arc<S: Server{args}>(server: ::std::sync::Arc<S>) -> Self"
        ));
        let dispatch = format!("dispatch::{}", info.args_with("S"));
        out.assign(
            "let client",
            &format!("{rpc}::Client::from_dispatch(server, {dispatch})"),
            ";",
        );
        out.line(&format!("{rpc}::FromClient::from_client(client)"));
        out.close();
        if info.streams() {
            out.docs(
                "The flow control of this client's streaming calls (shared by its clones): \
                 `finish().await` waits for them all to return.",
            );
            out.open_fn(&format!("pub fn stream_flow(&self) -> &{rpc}::StreamFlow"));
            out.line("&self.flow");
            out.close();
        }
        for m in &info.methods {
            self.request_method(out, info, m)?;
        }
        out.close();
        Ok(())
    }

    fn request_method(
        &self,
        out: &mut Writer,
        info: &Rpc<'_>,
        m: &RpcMethod<'_>,
    ) -> Result<(), Error> {
        let rpc = &info.rpc;
        if m.stream {
            self.stream_method(out, info, m);
            return Ok(());
        }
        let pipeline = if self.pipelined_fields(info, m)?.is_empty() {
            String::new()
        } else {
            format!(", {}Pipeline", m.pascal)
        };
        out.docs(&format!(
            "A call of `{}` (method @{}): build its parameters with `get()`, then `send()` it.",
            m.method.name, m.ordinal
        ));
        if !info.generics.is_empty() {
            // The parameters' and results' types name every parameter.
            out.line("#[allow(clippy::type_complexity)]");
        }
        out.open_fn(&format!(
            "pub fn {}(&self) -> {rpc}::TypedRequest<{}, {}{pipeline}>",
            m.request, m.params, m.results
        ));
        out.line(&format!(
            "{rpc}::TypedRequest::new(self.client.new_call(TYPE_ID, {}))",
            m.ordinal
        ));
        out.close();
        Ok(())
    }

    /// A streaming method's request: sent under the client's flow control.
    fn stream_method(&self, out: &mut Writer, info: &Rpc<'_>, m: &RpcMethod<'_>) {
        let rpc = &info.rpc;
        out.docs(&format!(
            "A streaming call of `{}` (method @{}): build its parameters with `get()`, then \
             `send().await`, which returns once the flow control's window has room.",
            m.method.name, m.ordinal
        ));
        if !info.generics.is_empty() {
            out.line("#[allow(clippy::type_complexity)]");
        }
        out.open_fn(&format!(
            "pub fn {}(&self) -> {rpc}::StreamRequest<{}>",
            m.request, m.params
        ));
        out.line(&format!(
            "let request = {rpc}::TypedRequest::new(self.client.new_call(TYPE_ID, {}));",
            m.ordinal
        ));
        out.line(&format!("{rpc}::StreamRequest::new(request, &self.flow)"));
        out.close();
    }

    /// `From<Client>` for the client of every interface this one extends.
    fn client_upcasts(&self, out: &mut Writer, info: &Rpc<'_>) {
        let (rpc, bounds, args) = (&info.rpc, info.bounds(&self.runtime, ""), info.args());
        for (path, ancestor_args) in &info.ancestors {
            let ancestor_args = super::rpc::angle(&ancestor_args.join(", "));
            out.open_impl(&format!(
                "impl{bounds} From<Client{args}> for {path}::Client{ancestor_args}"
            ));
            out.open_fn(&format!("fn from(client: Client{args}) -> Self"));
            out.line(&format!("{rpc}::FromClient::from_client(client.client)"));
            out.close();
            out.close();
        }
    }

    /// The results' fields a pipeline reaches, with their getters:
    /// capabilities, structs, groups and any-pointers.
    fn pipelined_fields(
        &self,
        info: &Rpc<'_>,
        m: &RpcMethod<'_>,
    ) -> Result<Vec<(&str, PipelineGetter)>, Error> {
        if m.stream {
            return Ok(Vec::new());
        }
        let NodeKind::Struct(s) = &self.node(m.method.result_struct)?.kind else {
            return Ok(Vec::new());
        };
        let mut fields: Vec<&Field> = s.fields.iter().collect();
        fields.sort_by_key(|f| f.code_order);
        // `{Method}Pipeline` is not generic: the interface's parameters
        // are out of its scope, so a capability typed by one is a client
        // of `AnyPointer` there (`setter::Client<T>` becomes
        // `setter::Client<AnyPointer>`).
        let saved = self.params.replace(Vec::new());
        let getters: Result<Vec<_>, Error> = fields
            .into_iter()
            .filter_map(|f| {
                self.pipeline_getter(&info.rpc, f, "self.0", info.file, info.depth)
                    .transpose()
                    .map(|g| g.map(|g| (f.spelling(), g)))
            })
            .collect();
        self.params.replace(saved);
        getters
    }

    /// `{Method}Pipeline`: the results' capabilities before they arrive.
    fn pipeline(&self, out: &mut Writer, info: &Rpc<'_>, m: &RpcMethod<'_>) -> Result<(), Error> {
        let fields = self.pipelined_fields(info, m)?;
        if fields.is_empty() {
            return Ok(());
        }
        let (rpc, name) = (&info.rpc, format!("{}Pipeline", m.pascal));
        out.docs(&format!(
            "The results of `{}` before they arrive: calls on their capabilities are \
             sent at once (promise pipelining).",
            m.method.name
        ));
        out.line("#[derive(Clone)]");
        out.line(&format!("pub struct {name}(pub {rpc}::Pipeline);"));
        out.open_impl(&format!("impl From<{rpc}::Pipeline> for {name}"));
        out.open_fn(&format!("fn from(pipeline: {rpc}::Pipeline) -> Self"));
        out.line(&format!("{name}(pipeline)"));
        out.close();
        out.close();
        out.open_impl(&format!("impl {name}"));
        let names: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
        for ((_, g), stem) in fields.iter().zip(getter_stems(&names)) {
            out.docs(&g.doc);
            out.open_fn(&format!("pub fn get_{stem}(&self) -> {}", g.returns));
            out.line(&g.body);
            out.close();
        }
        out.close();
        Ok(())
    }
}

/// `T, U,` as a tuple's elements (a one-element tuple keeps its comma).
fn tuple(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => format!("{},", items[0]),
        _ => items.join(", "),
    }
}

/// The snake-case stems of the pipeline's getters (`get_` + stem, so a
/// keyword needs no escape), a `_` added to a stem another one took.
fn getter_stems(names: &[&str]) -> Vec<String> {
    let mut stems: Vec<String> = Vec::new();
    for name in names {
        let mut stem = crate::names::convert(name, crate::names::Case::Snake);
        while stems.contains(&stem) {
            stem.push('_');
        }
        stems.push(stem);
    }
    stems
}

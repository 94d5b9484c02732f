//! An interface's server side: the `Server` trait (one method per schema
//! method, each answering `unimplemented` unless the user's type
//! overrides it; the traits of the interfaces it extends as supertraits)
//! and `dispatch`, which routes a call by interface and method id.

use super::Generator;
use super::rpc::{Rpc, RpcMethod, angle};
use super::writer::Writer;
use crate::Error;

impl Generator<'_> {
    /// Writes the `Server` trait and `dispatch`.
    pub(super) fn rpc_server(&self, out: &mut Writer, info: &Rpc<'_>) -> Result<(), Error> {
        for m in &info.methods {
            self.method_aliases(out, info, m);
        }
        self.server_trait(out, info);
        self.dispatch_fn(out, info);
        self.dispatch_methods(out, info);
        Ok(())
    }

    /// `{Method}Params` and `{Method}Results`: the typed parameters and
    /// results a server method takes.
    /// Each alias declares only the interface's parameters its struct
    /// uses.
    fn method_aliases(&self, out: &mut Writer, info: &Rpc<'_>, m: &RpcMethod<'_>) {
        let rpc = &info.rpc;
        out.docs(&format!(
            "The parameters of `{}`, as a server receives them.",
            m.method.name
        ));
        out.assign_type(
            &format!("pub type {}Params{}", m.pascal, m.params_args),
            &format!("{rpc}::TypedParams<{}>", m.params),
            ";",
        );
        if !m.stream {
            out.docs(&format!(
                "The results of `{}`, as a server fills them.",
                m.method.name
            ));
            out.assign_type(
                &format!("pub type {}Results{}", m.pascal, m.results_args),
                &format!("{rpc}::TypedResults<{}>", m.results),
                ";",
            );
        }
    }

    fn server_trait(&self, out: &mut Writer, info: &Rpc<'_>) {
        let mut supers: Vec<String> = info
            .direct
            .iter()
            .map(|&i| {
                let (path, args) = &info.ancestors[i];
                format!("{path}::Server{}", angle(&args.join(", ")))
            })
            .collect();
        supers.extend(["Send", "Sync", "'static"].map(String::from));
        out.docs(&format!(
            "The methods of `{}`, for a type to implement and serve through \
             [`Client::from_server`].\n\
             \n\
             Each method is called when its call is dispatched, in the order the calls \
             were sent; the future it returns runs concurrently with the connection's other \
             calls (on its call runner: work that holds a thread for long belongs in a task \
             of its own). A method not implemented answers `unimplemented`.",
            info.node.short_name()
        ));
        out.open_trait(&format!(
            "pub trait Server{}: {}",
            info.bounds(&self.runtime, ""),
            supers.join(" + ")
        ));
        for m in &info.methods {
            self.server_method(out, info, m);
        }
        out.close();
    }

    fn server_method(&self, out: &mut Writer, info: &Rpc<'_>, m: &RpcMethod<'_>) {
        let rpc = &info.rpc;
        let params = format!("params: {}Params{}", m.pascal, m.params_args);
        let (args, output, unused) = if m.stream {
            (params, "()".to_string(), "params")
        } else {
            let results = format!("{}Results{}", m.pascal, m.results_args);
            (
                format!("{params}, results: {results}"),
                results,
                "params, results",
            )
        };
        out.docs(&format!(
            "Answers `{}` (method @{}){}.",
            m.method.name,
            m.ordinal,
            if m.stream {
                ", a streaming method"
            } else {
                ": fills `results` and hands them back"
            }
        ));
        out.open_fn(&format!(
            "fn {}(self: ::std::sync::Arc<Self>, {args}) -> impl {rpc}::ServerFuture<{output}>",
            m.name
        ));
        out.line(&format!("let _ = (self, {unused});"));
        out.line(&format!("{rpc}::unimplemented(TYPE_ID, {})", m.ordinal));
        out.close();
    }

    /// `dispatch`: a call to this interface, or to one it extends.
    fn dispatch_fn(&self, out: &mut Writer, info: &Rpc<'_>) {
        let rpc = &info.rpc;
        let server = format!("Server{}", info.args());
        out.docs(&format!(
            "Answers a call to `server` by its interface and method ids: a method of \
             `{}` or of an interface it extends.",
            info.node.short_name()
        ));
        out.open_fn(&format!(
            "pub fn dispatch{}(server: ::std::sync::Arc<S>, interface_id: u64, method_id: u16, params: {rpc}::Params, results: {rpc}::Results) -> {rpc}::BoxFuture<{rpc}::Result<{rpc}::Results>>",
            info.bounds(&self.runtime, &format!("S: {server}"))
        ));
        out.open_expression("match interface_id");
        out.arm(
            "TYPE_ID",
            &format!(
                "dispatch_method::{}(server, method_id, params, results)",
                info.args_with("S")
            ),
        );
        for (path, args) in &info.ancestors {
            let mut list = args.clone();
            list.push("S".into());
            out.arm(
                &format!("{path}::TYPE_ID"),
                &format!(
                    "{path}::dispatch::<{}>(server, interface_id, method_id, params, results)",
                    list.join(", ")
                ),
            );
        }
        out.arm(
            "_",
            &format!("{rpc}::unknown_method(interface_id, method_id)"),
        );
        out.close();
        out.close();
    }

    /// `dispatch_method`: a call to one of this interface's own methods.
    fn dispatch_methods(&self, out: &mut Writer, info: &Rpc<'_>) {
        let rpc = &info.rpc;
        let server = format!("Server{}", info.args());
        out.open_fn(&format!(
            "fn dispatch_method{}(server: ::std::sync::Arc<S>, method_id: u16, params: {rpc}::Params, results: {rpc}::Results) -> {rpc}::BoxFuture<{rpc}::Result<{rpc}::Results>>",
            info.bounds(&self.runtime, &format!("S: {server}"))
        ));
        if info.methods.is_empty() {
            out.line("let _ = (server, params, results);");
            out.line(&format!("{rpc}::unknown_method(TYPE_ID, method_id)"));
            out.close();
            return;
        }
        out.open_expression("match method_id");
        for m in &info.methods {
            let call = format!("<S as {server}>::{}", m.name);
            let params = format!("{rpc}::TypedParams::new(params)");
            let value = if m.stream {
                format!("{rpc}::answer_stream({call}(server, {params}), results)")
            } else {
                format!(
                    "{rpc}::answer({call}(server, {params}, {rpc}::TypedResults::new(results)))"
                )
            };
            out.arm(&m.ordinal.to_string(), &value);
        }
        out.arm("_", &format!("{rpc}::unknown_method(TYPE_ID, method_id)"));
        out.close();
        out.close();
    }
}

//! Typed RPC code of an interface (only with `Options::rpc`): what every
//! part needs to know about the interface, computed once ([`Rpc`]), and
//! the order the parts are written in. The parts: [`super::rpc_client`]
//! (the `Client`, its requests and the results' pipelines) and
//! [`super::rpc_server`] (the `Server` trait and `dispatch`).

use super::Generator;
use super::writer::Writer;
use crate::Error;
use crate::model::*;
use crate::names::{Case, assign};

/// `StreamResult`'s id (`/capnp/stream.capnp`): the results of a method
/// declared `-> stream`.
pub(super) const STREAM_RESULT: u64 = 0x995f_9a33_77c0_b16e;

/// One method, as the generated code names it.
pub(super) struct RpcMethod<'s> {
    pub(super) method: &'s Method,
    pub(super) ordinal: u16,
    /// The server trait's method (snake case).
    pub(super) name: String,
    /// The client's method that starts a call (`{name}_request`, a
    /// keyword's `_` dropped: `move_request`, not `move__request`).
    pub(super) request: String,
    /// `{name}Pipeline`'s stem (Pascal case).
    pub(super) pascal: String,
    /// The parameters' `Owned` type.
    pub(super) params: String,
    /// The results' `Owned` type (`AnyPointer` for a stream).
    pub(super) results: String,
    /// The generic arguments of `{Method}Params`: the interface's
    /// parameters its struct uses, as `<..>` (or "").
    pub(super) params_args: String,
    /// The same for `{Method}Results`.
    pub(super) results_args: String,
    pub(super) stream: bool,
}

/// What the parts of an interface's RPC code share.
pub(super) struct Rpc<'s> {
    pub(super) node: &'s Node,
    /// The RPC crate's path.
    pub(super) rpc: String,
    pub(super) file: u64,
    /// The depth of code inside the interface's module.
    pub(super) depth: usize,
    /// The interface's generic parameters (its own and its scopes').
    pub(super) generics: Vec<String>,
    pub(super) methods: Vec<RpcMethod<'s>>,
    /// Every interface this one extends, directly or not: (path to its
    /// module, its generic arguments).
    pub(super) ancestors: Vec<(String, Vec<String>)>,
    /// The direct superclasses among `ancestors` (indexes).
    pub(super) direct: Vec<usize>,
}

impl Rpc<'_> {
    /// Whether a method is declared `-> stream` (the client then keeps
    /// the flow control of its streaming calls).
    pub(super) fn streams(&self) -> bool {
        self.methods.iter().any(|m| m.stream)
    }

    /// `<T, U>`, or "" for an interface that is not generic.
    pub(super) fn args(&self) -> String {
        angle(&self.generics.join(", "))
    }

    /// `<T: Owned, U: Owned>` (with `extra` after them), or "".
    pub(super) fn bounds(&self, runtime: &str, extra: &str) -> String {
        let mut parts: Vec<String> = self
            .generics
            .iter()
            .map(|g| format!("{g}: {runtime}::typed::Owned"))
            .collect();
        if !extra.is_empty() {
            parts.push(extra.to_string());
        }
        angle(&parts.join(", "))
    }

    /// The generic arguments and then `extra`, as `<..>`.
    pub(super) fn args_with(&self, extra: &str) -> String {
        let mut parts = self.generics.clone();
        parts.push(extra.to_string());
        angle(&parts.join(", "))
    }
}

/// The items the typed RPC code declares in an interface's module:
/// `Client`, `Server`, and per method `{Method}Params`, `{Method}Results`
/// and `{Method}Pipeline`. Taken among the module's items (a nested enum
/// of such a name gets a `_`), with or without RPC code, so that names do
/// not depend on the options.
pub(super) fn interface_reserved(methods: &[Method]) -> Vec<String> {
    let mut names = vec!["Client".to_string(), "Server".to_string()];
    for m in methods {
        let pascal = crate::names::convert(&m.name, Case::Pascal);
        for suffix in ["Params", "Results", "Pipeline"] {
            names.push(format!("{pascal}{suffix}"));
        }
    }
    names
}

/// `{name}_request`, without the `_` that escaped a keyword `name`.
fn request_name(name: &str) -> String {
    let stem = name
        .strip_suffix('_')
        .filter(|s| crate::names::KEYWORDS.contains(s))
        .unwrap_or(name);
    format!("{stem}_request")
}

/// `<list>`, or "" for an empty list.
pub(super) fn angle(list: &str) -> String {
    if list.is_empty() {
        String::new()
    } else {
        format!("<{list}>")
    }
}

impl<'s> Generator<'s> {
    /// Writes interface `node`'s typed RPC code into its module (code at
    /// `depth`), when the options ask for it.
    pub(super) fn rpc_items(
        &self,
        out: &mut Writer,
        node: &'s Node,
        methods: &'s [Method],
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let Some(rpc) = self.options.rpc_path.clone() else {
            return Ok(());
        };
        let saved = self.params.replace(self.scope_params(node.id));
        let result = self
            .rpc_info(node, methods, rpc, file, depth)
            .and_then(|info| {
                self.rpc_client(out, &info)?;
                self.rpc_server(out, &info)
            });
        self.params.replace(saved);
        result
    }

    fn rpc_info(
        &self,
        node: &'s Node,
        methods: &'s [Method],
        rpc: String,
        file: u64,
        depth: usize,
    ) -> Result<Rpc<'s>, Error> {
        let generics: Vec<String> = self.params.borrow().iter().map(|p| p.2.clone()).collect();
        let spelled: Vec<(&str, Case)> = methods
            .iter()
            .map(|m| (m.name.as_str(), Case::Snake))
            .collect();
        let names = assign(&spelled, &[]);
        let mut out = Vec::new();
        for (i, (method, name)) in methods.iter().zip(names).enumerate() {
            let ordinal = u16::try_from(i).map_err(|_| Error::Unsupported {
                what: format!("interface {:#x} with over 65536 methods", node.id),
            })?;
            let stream = method.result_struct == STREAM_RESULT;
            let results_args = if stream {
                String::new()
            } else {
                self.used_generics(method.result_struct)
            };
            let results = if stream {
                format!("{}::typed::AnyPointer", self.runtime)
            } else {
                self.method_struct(node, method.result_struct, file, depth)?
            };
            out.push(RpcMethod {
                method,
                ordinal,
                pascal: crate::names::convert(&method.name, Case::Pascal),
                request: request_name(&name),
                name,
                params: self.method_struct(node, method.param_struct, file, depth)?,
                results,
                params_args: self.used_generics(method.param_struct),
                results_args,
                stream,
            });
        }
        let (ancestors, direct) = self.ancestors(node, file, depth)?;
        Ok(Rpc {
            node,
            rpc,
            file,
            depth,
            generics,
            methods: out,
            ancestors,
            direct,
        })
    }

    /// The interface's generic parameters (in scope now) that struct
    /// `id`'s `Owned` type takes as arguments, as `<..>` (or ""): a
    /// struct declared outside the interface uses none of them, one
    /// nested in an outer generic scope only that scope's. A type alias
    /// must use every parameter it declares (E0091).
    fn used_generics(&self, id: u64) -> String {
        let target = self.scope_params(id);
        let used: Vec<String> = self
            .params
            .borrow()
            .iter()
            .filter(|(scope, index, _)| target.iter().any(|(s, i, _)| s == scope && i == index))
            .map(|(_, _, name)| name.clone())
            .collect();
        angle(&used.join(", "))
    }

    /// The `Owned` type of a method's parameter or result struct `id`,
    /// from inside interface `node`'s module.
    fn method_struct(
        &self,
        node: &Node,
        id: u64,
        file: u64,
        depth: usize,
    ) -> Result<String, Error> {
        let scopes: Vec<(u64, Option<Vec<Option<Type>>>)> = self
            .params
            .borrow()
            .iter()
            .map(|(scope, _, _)| (*scope, None))
            .collect();
        let brand = Brand(scopes);
        let args = self.brand_args(id, &brand, file, depth)?;
        match self.implicit.get(&id) {
            Some((iface, name)) if *iface == node.id => Ok(format!("{name}::Owned{args}")),
            _ => Ok(format!("{}::Owned{args}", self.path_to(id, file, depth)?)),
        }
    }

    /// Every interface `node` extends (each once, nearest first), and the
    /// indexes of its direct superclasses among them.
    #[allow(clippy::type_complexity)]
    fn ancestors(
        &self,
        node: &Node,
        file: u64,
        depth: usize,
    ) -> Result<(Vec<(String, Vec<String>)>, Vec<usize>), Error> {
        let mut seen: Vec<u64> = Vec::new();
        let mut queue: Vec<u64> = node.superclasses.clone();
        let mut i = 0;
        while let Some(&id) = queue.get(i) {
            i += 1;
            if id == node.id || seen.contains(&id) || seen.len() >= 256 {
                continue;
            }
            seen.push(id);
            queue.extend(self.node(id)?.superclasses.iter().copied());
        }
        let mut out = Vec::new();
        for id in &seen {
            let path = self.path_to(*id, file, depth)?;
            out.push((
                path,
                self.brand_arg_list(*id, &Brand::default(), file, depth)?,
            ));
        }
        let direct = (0..seen.len())
            .filter(|&i| node.superclasses.contains(&seen[i]))
            .collect();
        Ok((out, direct))
    }
}

//! The calculator of the reference's sample (`calculator.capnp`, beside
//! this file): its server, and its client's script of checks. It follows
//! `calculator-server.c++` and `calculator-client.c++`, so either side
//! runs against the sample's C++ programs.
//!
//! The example (`examples/calculator.rs`) and the interop test
//! (`tests/calculator_cxx.rs`) include this file.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use capnarena::Arena;
use capnarena_rpc::{Caps, Error, Result, TypedParams};

use crate::calculator_capnp::calculator::{self, Operator, expression, function, value};

/// How deep an expression may nest. A deeper one is refused with an
/// error; reading and evaluating recurse once per level. The message's
/// nesting limit (64 pointers) alone would allow about 60 levels.
pub const MAX_DEPTH: u32 = 32;

/// An expression as plain Rust values. The server reads one out of a
/// message before it awaits anything, so the recursive evaluation owns
/// what it works on.
/// The client builds its requests from one.
#[derive(Clone)]
pub enum Expr {
    /// A number.
    Literal(f64),
    /// A value an earlier `evaluate` gave. It may not have arrived yet.
    Previous(value::Client),
    /// Parameter `n` of the function whose body this is.
    Parameter(u32),
    /// A function called on its arguments.
    Call(function::Client, Vec<Expr>),
}

/// Reads `e`, whose capabilities are in `params`; `depth` counts the
/// levels above it.
pub fn read_expr<P: capnarena::typed::Owned>(
    e: expression::Reader<'_>,
    params: &TypedParams<P>,
    depth: u32,
) -> Result<Expr> {
    if depth >= MAX_DEPTH {
        return Err(Error::failed(format!(
            "expression nested deeper than {MAX_DEPTH} levels"
        )));
    }
    Ok(match e.which()? {
        expression::Which::Literal(x) => Expr::Literal(x),
        // Capability fields read as typed clients, from the capabilities
        // that came with the parameters.
        expression::Which::PreviousResult(_) => {
            Expr::Previous(e.get_previous_result_client(params)?)
        }
        expression::Which::Parameter(n) => Expr::Parameter(n),
        expression::Which::Call(call) => {
            let function = call.get_function_client(params)?;
            let mut args = Vec::new();
            for arg in call.get_params()? {
                args.push(read_expr(arg, params, depth + 1)?);
            }
            Expr::Call(function, args)
        }
    })
}

/// Writes `e` into `b`; its capabilities join `caps`.
pub fn build_expr<A: Arena + ?Sized>(
    b: &mut expression::Builder<'_, A>,
    caps: &mut Caps<'_>,
    e: Expr,
) -> Result<()> {
    match e {
        Expr::Literal(x) => b.set_literal(x),
        Expr::Previous(v) => b.set_previous_result_client(caps, v),
        Expr::Parameter(n) => b.set_parameter(n),
        Expr::Call(function, args) => {
            let mut call = b.init_call();
            call.set_function_client(caps, function);
            let mut list = call.init_params(len_u32(args.len())?)?;
            for (i, arg) in (0u32..).zip(args) {
                build_expr(&mut list.get(i), caps, arg)?;
            }
        }
    }
    Ok(())
}

/// `n` as a list length.
fn len_u32(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::failed(format!("{n} elements do not fit a list")))
}

/// Evaluates `e`, whose parameters are `params`: reads previous values
/// and calls functions, the arguments of a call concurrently.
pub fn eval(e: Expr, params: Arc<[f64]>) -> Pin<Box<dyn Future<Output = Result<f64>> + Send>> {
    Box::pin(async move {
        match e {
            Expr::Literal(x) => Ok(x),
            Expr::Previous(v) => {
                let response = v.read_request().send().response.await?;
                response.read(|r| Ok(r.get_value()))
            }
            Expr::Parameter(n) => params.get(n as usize).copied().ok_or_else(|| {
                Error::failed(format!(
                    "parameter {n} out of range: the function has {}",
                    params.len()
                ))
            }),
            Expr::Call(function, args) => {
                let args = args.into_iter().map(|a| eval(a, params.clone()));
                let values = futures::future::try_join_all(args).await?;
                call(&function, &values).await
            }
        }
    })
}

/// Calls `function` with `args`.
pub async fn call(function: &function::Client, args: &[f64]) -> Result<f64> {
    let mut request = function.call_request();
    request.get()?.set_params_from_slice(args)?;
    let response = request.send().response.await?;
    response.read(|r| Ok(r.get_value()))
}

/// The server's calculator.
pub struct CalculatorImpl;

impl calculator::Server for CalculatorImpl {
    async fn evaluate(
        self: Arc<Self>,
        params: calculator::EvaluateParams,
        mut results: calculator::EvaluateResults,
    ) -> Result<calculator::EvaluateResults> {
        let expr = params.read(|p| read_expr(p.get_expression()?, &params, 0))?;
        let x = eval(expr, Arc::from([])).await?;
        let index = results.add_cap(value::Client::from_server(ValueImpl(x)));
        results.get()?.set_value(index);
        Ok(results)
    }

    async fn def_function(
        self: Arc<Self>,
        params: calculator::DefFunctionParams,
        mut results: calculator::DefFunctionResults,
    ) -> Result<calculator::DefFunctionResults> {
        let (count, body) = params.read(|p| {
            let count = p.get_param_count();
            let count = u32::try_from(count).map_err(|_| {
                Error::failed(format!("paramCount {count}: a function takes 0 or more"))
            })?;
            Ok((count, read_expr(p.get_body()?, &params, 0)?))
        })?;
        let function = FunctionImpl {
            param_count: count,
            body,
        };
        let index = results.add_cap(function::Client::from_server(function));
        results.get()?.set_func(index);
        Ok(results)
    }

    async fn get_operator(
        self: Arc<Self>,
        params: calculator::GetOperatorParams,
        mut results: calculator::GetOperatorResults,
    ) -> Result<calculator::GetOperatorResults> {
        let op = params
            .read(|p| Ok(p.get_op()))?
            .map_err(|e| Error::failed(format!("unknown operator: {e}")))?;
        let index = results.add_cap(function::Client::from_server(OperatorImpl(op)));
        results.get()?.set_func(index);
        Ok(results)
    }
}

/// A value the server computed.
pub struct ValueImpl(pub f64);

impl value::Server for ValueImpl {
    async fn read(
        self: Arc<Self>,
        _params: value::ReadParams,
        mut results: value::ReadResults,
    ) -> Result<value::ReadResults> {
        results.get()?.set_value(self.0);
        Ok(results)
    }
}

/// A function `defFunction` made: its body, with parameters.
pub struct FunctionImpl {
    param_count: u32,
    body: Expr,
}

impl function::Server for FunctionImpl {
    async fn call(
        self: Arc<Self>,
        params: function::CallParams,
        mut results: function::CallResults,
    ) -> Result<function::CallResults> {
        let args: Vec<f64> = params.read(|p| Ok(p.get_params()?.iter().collect()))?;
        if args.len() != self.param_count as usize {
            return Err(Error::failed(format!(
                "{} parameters, the function takes {}",
                args.len(),
                self.param_count
            )));
        }
        let x = eval(self.body.clone(), Arc::from(args)).await?;
        results.get()?.set_value(x);
        Ok(results)
    }
}

/// Reads the two parameters of a binary function.
fn two_params(params: &function::CallParams) -> Result<(f64, f64)> {
    params.read(|p| {
        let list = p.get_params()?;
        if list.len() != 2 {
            return Err(Error::failed(format!("{} parameters, not 2", list.len())));
        }
        Ok((list.get(0), list.get(1)))
    })
}

/// One of the four operators.
pub struct OperatorImpl(pub Operator);

impl function::Server for OperatorImpl {
    async fn call(
        self: Arc<Self>,
        params: function::CallParams,
        mut results: function::CallResults,
    ) -> Result<function::CallResults> {
        let (a, b) = two_params(&params)?;
        let x = match self.0 {
            Operator::Add => a + b,
            Operator::Subtract => a - b,
            Operator::Multiply => a * b,
            Operator::Divide => a / b,
        };
        results.get()?.set_value(x);
        Ok(results)
    }
}

/// The client's own function, which the server calls back: `a` to the
/// power `b`.
pub struct PowerFunction;

impl function::Server for PowerFunction {
    async fn call(
        self: Arc<Self>,
        params: function::CallParams,
        mut results: function::CallResults,
    ) -> Result<function::CallResults> {
        let (a, b) = two_params(&params)?;
        results.get()?.set_value(a.powf(b));
        Ok(results)
    }
}

/// `getOperator(op)`'s function, before it arrives.
pub fn operator(calc: &calculator::Client, op: Operator) -> Result<function::Client> {
    let mut request = calc.get_operator_request();
    request.get()?.set_op(op);
    Ok(request.send().pipeline.get_func())
}

/// `evaluate(e)`'s value, before it arrives.
pub fn evaluate(calc: &calculator::Client, e: Expr) -> Result<value::Client> {
    let mut request = calc.evaluate_request();
    let (mut p, mut caps) = request.get_with_caps()?;
    build_expr(&mut p.init_expression()?, &mut caps, e)?;
    Ok(request.send().pipeline.get_value())
}

/// `defFunction(count, body)`'s function, before it arrives.
pub fn def_function(calc: &calculator::Client, count: i32, body: Expr) -> Result<function::Client> {
    let mut request = calc.def_function_request();
    let (mut p, mut caps) = request.get_with_caps()?;
    p.set_param_count(count);
    build_expr(&mut p.init_body()?, &mut caps, body)?;
    Ok(request.send().pipeline.get_func())
}

/// Reads `value` (one round trip, or none more when pipelined).
pub async fn read(value: &value::Client) -> Result<f64> {
    let response = value.read_request().send().response.await?;
    response.read(|r| Ok(r.get_value()))
}

/// Fails unless `got` is `want`; `check` names the step.
fn expect(check: &str, got: f64, want: f64) -> Result<()> {
    if got == want {
        Ok(())
    } else {
        Err(Error::failed(format!("{check}: got {got}, want {want}")))
    }
}

/// The names of the reference client's checks, in the order
/// [`run_script`] runs them.
pub const CHECKS: [&str; 5] = [
    "Evaluating a literal",
    "Using add and subtract",
    "Pipelining eval() calls",
    "Defining functions",
    "Using a callback",
];

/// The reference client's script (`calculator-client.c++`): every call
/// is sent before the one it depends on returns, and only reads wait.
/// `on_pass` hears each check's name as it passes.
pub async fn run_script(calc: &calculator::Client, mut on_pass: impl FnMut(&str)) -> Result<()> {
    use Expr::{Call, Literal, Parameter, Previous};

    // Evaluating a literal.
    let v = evaluate(calc, Literal(123.0))?;
    expect(CHECKS[0], read(&v).await?, 123.0)?;
    on_pass(CHECKS[0]);

    // Using add and subtract: (123 + 45) - 67.
    let add = operator(calc, Operator::Add)?;
    let subtract = operator(calc, Operator::Subtract)?;
    let sum = Call(add, vec![Literal(123.0), Literal(45.0)]);
    let v = evaluate(calc, Call(subtract, vec![sum, Literal(67.0)]))?;
    expect(CHECKS[1], read(&v).await?, 101.0)?;
    on_pass(CHECKS[1]);

    // Pipelining eval() calls: 4 * 6, then + 3 and + 5 on the product
    // before it has arrived.
    let add = operator(calc, Operator::Add)?;
    let multiply = operator(calc, Operator::Multiply)?;
    let product = evaluate(calc, Call(multiply, vec![Literal(4.0), Literal(6.0)]))?;
    let add3 = evaluate(
        calc,
        Call(add.clone(), vec![Previous(product.clone()), Literal(3.0)]),
    )?;
    let add5 = evaluate(calc, Call(add, vec![Previous(product), Literal(5.0)]))?;
    let (add3, add5) = futures::future::try_join(read(&add3), read(&add5)).await?;
    expect(CHECKS[2], add3, 27.0)?;
    expect(CHECKS[2], add5, 29.0)?;
    on_pass(CHECKS[2]);

    // Defining functions: f(x, y) = x * 100 + y, g(x) = f(x, x + 1) * 2.
    let add = operator(calc, Operator::Add)?;
    let multiply = operator(calc, Operator::Multiply)?;
    let times_100 = Call(multiply.clone(), vec![Parameter(0), Literal(100.0)]);
    let f = def_function(calc, 2, Call(add.clone(), vec![times_100, Parameter(1)]))?;
    let plus_1 = Call(add, vec![Parameter(0), Literal(1.0)]);
    let f_call = Call(f.clone(), vec![Parameter(0), plus_1]);
    let g = def_function(calc, 1, Call(multiply, vec![f_call, Literal(2.0)]))?;
    let f_value = evaluate(calc, Call(f, vec![Literal(12.0), Literal(34.0)]))?;
    let g_value = evaluate(calc, Call(g, vec![Literal(21.0)]))?;
    let (f_value, g_value) = futures::future::try_join(read(&f_value), read(&g_value)).await?;
    expect(CHECKS[3], f_value, 1234.0)?;
    expect(CHECKS[3], g_value, 4244.0)?;
    on_pass(CHECKS[3]);

    // Using a callback: pow(2, 4 + 5), pow being the client's function.
    let add = operator(calc, Operator::Add)?;
    let power = function::Client::from_server(PowerFunction);
    let exponent = Call(add, vec![Literal(4.0), Literal(5.0)]);
    let v = evaluate(calc, Call(power, vec![Literal(2.0), exponent]))?;
    expect(CHECKS[4], read(&v).await?, 512.0)?;
    on_pass(CHECKS[4]);
    Ok(())
}

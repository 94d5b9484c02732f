//! The calculator service on generated code (`calculator/calculator.capnp`,
//! generated with typed RPC into `generated/calculator_capnp.rs`): a
//! multi-threaded tokio server on loopback TCP, and clients that chain
//! evaluations without waiting for their results (promise pipelining) and
//! pass their own function for the server to call back.
//!
//! `cargo run -p capnarena-rpc --example calculator`

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use capnarena_rpc::{Connection, Error, Options, Result, TypedParams};

#[path = "generated/calculator_capnp.rs"]
#[rustfmt::skip]
#[allow(dead_code, clippy::all, missing_docs)]
mod calculator_capnp;

use calculator_capnp::calculator::{self, Operator, expression, function, value};

/// An expression read out of a message into an owned tree, which the
/// recursive evaluation takes by value.
enum Expr {
    Literal(f64),
    Previous(value::Client),
    Call(function::Client, Vec<Expr>),
}

/// Reads `e`, whose capabilities are in `params`.
fn read_expr<P: capnarena::typed::Owned>(
    e: expression::Reader<'_>,
    params: &TypedParams<P>,
) -> Result<Expr> {
    Ok(match e.which()? {
        expression::Which::Literal(x) => Expr::Literal(x),
        // Capability fields read as typed clients, from the capabilities
        // that came with the parameters.
        expression::Which::PreviousResult(_) => {
            Expr::Previous(e.get_previous_result_client(params)?)
        }
        expression::Which::Call(call) => {
            let function = call.get_function_client(params)?;
            let mut args = Vec::new();
            for arg in call.get_params()? {
                args.push(read_expr(arg, params)?);
            }
            Expr::Call(function, args)
        }
    })
}

/// Evaluates an expression: reads previous values and calls functions
/// (the server's operators, or a client's), arguments concurrently.
fn eval(e: Expr) -> Pin<Box<dyn Future<Output = Result<f64>> + Send>> {
    Box::pin(async move {
        match e {
            Expr::Literal(x) => Ok(x),
            Expr::Previous(v) => {
                let response = v.read_request().send().response.await?;
                response.read(|r| Ok(r.get_value()))
            }
            Expr::Call(function, args) => {
                let values = futures::future::try_join_all(args.into_iter().map(eval)).await?;
                call(&function, &values).await
            }
        }
    })
}

/// Calls `function` with `args`.
async fn call(function: &function::Client, args: &[f64]) -> Result<f64> {
    let mut request = function.call_request();
    let mut p = request.get()?;
    let mut list = p.init_params(args.len() as u32)?;
    for (i, x) in args.iter().enumerate() {
        list.set(i as u32, *x);
    }
    let response = request.send().response.await?;
    response.read(|r| Ok(r.get_value()))
}

/// The server's calculator.
struct Calculator;

impl calculator::Server for Calculator {
    async fn evaluate(
        self: Arc<Self>,
        params: calculator::EvaluateParams,
        mut results: calculator::EvaluateResults,
    ) -> Result<calculator::EvaluateResults> {
        let expr = params.read(|p| read_expr(p.get_expression()?, &params))?;
        let x = eval(expr).await?;
        let index = results.add_cap(value::Client::from_server(Value(x)));
        results.get()?.set_value(index);
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
        let index = results.add_cap(function::Client::from_server(OperatorFn(op)));
        results.get()?.set_func(index);
        Ok(results)
    }
}

/// A value the server computed.
struct Value(f64);

impl value::Server for Value {
    async fn read(
        self: Arc<Self>,
        _params: value::ReadParams,
        mut results: value::ReadResults,
    ) -> Result<value::ReadResults> {
        results.get()?.set_value(self.0);
        Ok(results)
    }
}

/// One of the four operators.
struct OperatorFn(Operator);

impl function::Server for OperatorFn {
    async fn call(
        self: Arc<Self>,
        params: function::CallParams,
        mut results: function::CallResults,
    ) -> Result<function::CallResults> {
        let (a, b) = params.read(|p| {
            let list = p.get_params()?;
            if list.len() != 2 {
                return Err(Error::failed(format!("{} parameters, not 2", list.len())));
            }
            Ok((list.get(0), list.get(1)))
        })?;
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

/// A client's own function, which the server calls back: x².
struct Square;

impl function::Server for Square {
    async fn call(
        self: Arc<Self>,
        params: function::CallParams,
        mut results: function::CallResults,
    ) -> Result<function::CallResults> {
        let x = params.read(|p| Ok(p.get_params()?.get(0)))?;
        results.get()?.set_value(x * x);
        Ok(results)
    }
}

/// `getOperator(op)`'s function, before it arrives.
fn operator(calc: &calculator::Client, op: Operator) -> function::Client {
    let mut request = calc.get_operator_request();
    request.get().unwrap().set_op(op);
    request.send().pipeline.get_func()
}

/// An argument of a call a client builds: a number, or a value.
enum Arg {
    Num(f64),
    Value(value::Client),
}

/// `evaluate(function(args))`: the value, before it arrives.
fn evaluate_call(
    calc: &calculator::Client,
    function: function::Client,
    args: Vec<Arg>,
) -> Result<value::Client> {
    let mut request = calc.evaluate_request();
    // The parameters with their capabilities: capability fields are set
    // from typed clients, which join the call's capabilities.
    let (mut p, mut caps) = request.get_with_caps()?;
    let mut expression = p.init_expression()?;
    let mut call = expression.init_call();
    call.set_function_client(&mut caps, function);
    let mut list = call.init_params(args.len() as u32)?;
    for (i, arg) in args.into_iter().enumerate() {
        match arg {
            Arg::Num(x) => list.get(i as u32).set_literal(x),
            Arg::Value(v) => list.get(i as u32).set_previous_result_client(&mut caps, v),
        }
    }
    Ok(request.send().pipeline.get_value())
}

/// One client's session: `((a + b) * b)²`, the square by the client's own
/// function, which the server calls back. Every call is sent before the
/// one it depends on has returned (promise pipelining); only the last
/// read waits.
async fn session(calc: &calculator::Client, a: f64, b: f64) -> Result<f64> {
    let add = operator(calc, Operator::Add);
    let multiply = operator(calc, Operator::Multiply);
    let sum = evaluate_call(calc, add, vec![Arg::Num(a), Arg::Num(b)])?;
    let product = evaluate_call(calc, multiply, vec![Arg::Value(sum), Arg::Num(b)])?;
    let square = function::Client::from_server(Square);
    let squared = evaluate_call(calc, square, vec![Arg::Value(product)])?;
    let response = squared.read_request().send().response.await?;
    response.read(|r| Ok(r.get_value()))
}

/// Serves a calculator to every connection `listener` accepts.
async fn serve(listener: tokio::net::TcpListener) {
    let calc = calculator::Client::from_server(Calculator);
    while let Ok((stream, _)) = listener.accept().await {
        stream.set_nodelay(true).ok();
        let bootstrap = calc.client.clone();
        // The connection runs in tasks of its own until the peer hangs up.
        drop(Connection::new(stream, Some(bootstrap), Options::default()));
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 4)]
async fn main() -> Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| Error::failed(format!("bind: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::failed(e.to_string()))?;
    tokio::spawn(serve(listener));

    // Eight clients, each on its own connection, 50 sessions each at once.
    let mut clients = Vec::new();
    for c in 0..8u32 {
        clients.push(tokio::spawn(async move {
            let stream = tokio::net::TcpStream::connect(addr)
                .await
                .map_err(|e| Error::disconnected(e.to_string()))?;
            stream.set_nodelay(true).ok();
            let conn = Connection::new(stream, None, Options::default());
            let calc: calculator::Client = capnarena_rpc::FromClient::from_client(conn.bootstrap());
            let sessions = (0..50u32).map(|i| {
                let calc = calc.clone();
                async move {
                    let (a, b) = (f64::from(c), f64::from(i));
                    let got = session(&calc, a, b).await?;
                    let want = ((a + b) * b).powi(2);
                    if got != want {
                        return Err(Error::failed(format!(
                            "({a} + {b}) * {b} squared: {got}, not {want}"
                        )));
                    }
                    Ok(got)
                }
            });
            let values = futures::future::try_join_all(sessions).await?;
            drop(calc);
            conn.shutdown().await?;
            Ok::<_, Error>(values)
        }));
    }
    let mut total = 0;
    for (c, client) in clients.into_iter().enumerate() {
        let values = client
            .await
            .map_err(|e| Error::failed(format!("client task: {e}")))??;
        total += values.len();
        println!("client {c}: ((c + 49) * 49)^2 = {}", values[49]);
    }
    println!("{total} sessions, every answer checked");
    Ok(())
}

//! The calculator example's service (`examples/calculator/service.rs`)
//! in process, over a duplex pipe: the sample client's script passes,
//! and each bad request the schema allows fails its call with an error
//! that gives the numbers, while the connection goes on.

use capnarena_rpc::{Connection, ErrorKind, FromClient, Options, Result};

#[path = "../examples/generated/calculator_capnp.rs"]
#[rustfmt::skip]
#[allow(dead_code, clippy::all, missing_docs)]
mod calculator_capnp;

#[path = "../examples/calculator/service.rs"]
mod service;

use calculator_capnp::calculator::{self, Operator};
use service::Expr::{Call, Literal, Parameter};

/// A calculator served over a pipe: the client's connection and client.
fn connect() -> (Connection, Connection, calculator::Client) {
    let (a, b) = tokio::io::duplex(64 * 1024);
    let calc = calculator::Client::from_server(service::CalculatorImpl);
    let server = Connection::new(a, Some(calc.client), Options::default());
    let conn = Connection::new(b, None, Options::default());
    let calc = calculator::Client::from_client(conn.bootstrap());
    (server, conn, calc)
}

/// Fails unless `result` is a `Failed` error whose reason holds `want`.
fn assert_failed(result: Result<f64>, want: &str) {
    match result {
        Ok(x) => panic!("got {x}, want an error with {want:?}"),
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::Failed, "{e:?}");
            assert!(e.reason.contains(want), "{:?} lacks {want:?}", e.reason);
        }
    }
}

/// The sample client's whole script passes against the service, every
/// check in order.
#[tokio::test]
async fn script_passes_in_process() {
    let (_server, conn, calc) = connect();
    let mut passed = Vec::new();
    service::run_script(&calc, |check| passed.push(check.to_owned()))
        .await
        .unwrap();
    assert_eq!(passed, service::CHECKS);
    drop(calc);
    conn.shutdown().await.unwrap();
}

/// A parameter past a defined function's count fails the call, with the
/// index and the count; the connection serves the next call.
#[tokio::test]
async fn parameter_out_of_range_fails_the_call() {
    let (_server, _conn, calc) = connect();
    let f = service::def_function(&calc, 1, Parameter(3)).unwrap();
    assert_failed(
        service::call(&f, &[1.0]).await,
        "parameter 3 out of range: the function has 1",
    );
    let v = service::evaluate(&calc, Parameter(0)).unwrap();
    assert_failed(
        service::read(&v).await,
        "parameter 0 out of range: the function has 0",
    );
    let v = service::evaluate(&calc, Literal(7.0)).unwrap();
    assert_eq!(service::read(&v).await.unwrap(), 7.0);
}

/// A function called with the wrong number of parameters fails the call,
/// with both numbers; so does an operator, and a negative count.
#[tokio::test]
async fn wrong_parameter_counts_fail_the_call() {
    let (_server, _conn, calc) = connect();
    let f = service::def_function(&calc, 2, Parameter(1)).unwrap();
    assert_failed(
        service::call(&f, &[1.0]).await,
        "1 parameters, the function takes 2",
    );
    assert_eq!(service::call(&f, &[1.0, 2.0]).await.unwrap(), 2.0);
    let add = service::operator(&calc, Operator::Add).unwrap();
    assert_failed(
        service::call(&add, &[1.0, 2.0, 3.0]).await,
        "3 parameters, not 2",
    );
    let negative = service::def_function(&calc, -1, Literal(0.0)).unwrap();
    assert_failed(service::call(&negative, &[]).await, "paramCount -1");
}

/// An expression nested deeper than `MAX_DEPTH` is refused before it is
/// evaluated, with the limit; one at the limit is evaluated. (The
/// message's nesting limit, 64 pointers, would stop it at 60 calls.)
#[tokio::test]
async fn nesting_past_the_limit_fails_the_call() {
    let (_server, _conn, calc) = connect();
    let add = service::operator(&calc, Operator::Add).unwrap();
    // `levels` calls of add, each on the one below and 1: the sum is
    // `levels` plus the innermost literal.
    let nested = |levels: u32| {
        (0..levels).fold(Literal(0.0), |inner, _| {
            Call(add.clone(), vec![inner, Literal(1.0)])
        })
    };
    let v = service::evaluate(&calc, nested(service::MAX_DEPTH - 1)).unwrap();
    assert_eq!(
        service::read(&v).await.unwrap(),
        f64::from(service::MAX_DEPTH - 1)
    );
    let v = service::evaluate(&calc, nested(service::MAX_DEPTH)).unwrap();
    assert_failed(service::read(&v).await, "deeper than 32 levels");
}

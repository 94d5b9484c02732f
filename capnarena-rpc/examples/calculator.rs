//! The calculator of the reference's sample (`calculator/calculator.capnp`,
//! from capnproto's `c++/samples`, generated with typed RPC into
//! `generated/calculator_capnp.rs`). The server and the client's script
//! are in `calculator/service.rs`; they follow the sample's C++ programs
//! and run against them.
//!
//! `cargo run -p capnarena-rpc --example calculator` serves on loopback
//! TCP from a multi-threaded runtime, and runs the sample client's script
//! from 8 clients at once, 20 times each, every call pipelined.
//!
//! `... --example calculator -- server 127.0.0.1:0` serves alone, like
//! `calculator-server`; `... -- client HOST:PORT` runs the script once
//! against a server, like `calculator-client`.

use capnarena_rpc::{Connection, Error, FromClient, Options, Result};

#[path = "generated/calculator_capnp.rs"]
#[rustfmt::skip]
#[allow(dead_code, clippy::all, missing_docs)]
mod calculator_capnp;

#[path = "calculator/service.rs"]
mod service;

use calculator_capnp::calculator;

/// Serves a calculator to every connection `listener` accepts.
async fn serve(listener: tokio::net::TcpListener) {
    let calc = calculator::Client::from_server(service::CalculatorImpl);
    while let Ok((stream, _)) = listener.accept().await {
        stream.set_nodelay(true).ok();
        let bootstrap = calc.client.clone();
        // The connection runs in tasks of its own until the peer hangs up.
        drop(Connection::new(stream, Some(bootstrap), Options::default()));
    }
}

/// Connects to the calculator at `addr`.
async fn connect(addr: &str) -> Result<(Connection, calculator::Client)> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| Error::disconnected(format!("connecting to {addr}: {e}")))?;
    stream.set_nodelay(true).ok();
    let conn = Connection::new(stream, None, Options::default());
    let calc = calculator::Client::from_client(conn.bootstrap());
    Ok((conn, calc))
}

/// Binds `addr` (`HOST:PORT`; port 0 picks one).
async fn bind(addr: &str) -> Result<tokio::net::TcpListener> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| Error::failed(format!("binding {addr}: {e}")))
}

/// 8 clients on connections of their own, 20 scripts each at once.
async fn demo() -> Result<()> {
    let listener = bind("127.0.0.1:0").await?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::failed(e.to_string()))?
        .to_string();
    tokio::spawn(serve(listener));
    let mut clients = Vec::new();
    for _ in 0..8 {
        let addr = addr.clone();
        clients.push(tokio::spawn(async move {
            let (conn, calc) = connect(&addr).await?;
            let scripts = (0..20).map(|_| service::run_script(&calc, |_| {}));
            let done = futures::future::try_join_all(scripts).await?.len();
            drop(calc);
            conn.shutdown().await?;
            Ok::<_, Error>(done)
        }));
    }
    let mut total = 0;
    for (c, client) in clients.into_iter().enumerate() {
        let done = client
            .await
            .map_err(|e| Error::failed(format!("client task: {e}")))??;
        println!("client {c}: {done} scripts passed");
        total += done;
    }
    let checks = service::CHECKS.len();
    println!("{total} scripts of {checks} checks each, every answer checked");
    Ok(())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 4)]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => demo().await,
        ["server", addr] => {
            let listener = bind(addr).await?;
            let port = listener
                .local_addr()
                .map_err(|e| Error::failed(e.to_string()))?;
            println!("Listening on port {}...", port.port());
            serve(listener).await;
            Ok(())
        }
        ["client", addr] => {
            let (conn, calc) = connect(addr).await?;
            service::run_script(&calc, |check| println!("{check}... PASS")).await?;
            drop(calc);
            conn.shutdown().await
        }
        _ => Err(Error::failed(
            "usage: calculator [server ADDRESS:PORT | client HOST:PORT]",
        )),
    }
}

//! The server's answers at its edges: requests it cannot read, lists cut
//! at its limits, a full store, an oversized frame.

use std::sync::Arc;

use capnarena::{Message, ReaderOptions, SingleSegmentArena};
use capnarena_example_kvstore::kvstore_capnp::{Status, request, response};
use capnarena_example_kvstore::{
    Client, Error, Listed, MAX_LIST_BYTES, MAX_LIST_ENTRIES, MAX_REQUEST_BYTES, Put, Store, serve,
    serve_connection,
};
use tokio::net::TcpListener;

type Msg = Message<SingleSegmentArena>;

fn msg() -> Msg {
    Message::new(SingleSegmentArena::new())
}

/// Answers the request built by `build` and hands the response to `check`.
fn answer(
    store: &Store,
    build: impl FnOnce(request::Builder<'_, SingleSegmentArena>),
    check: impl FnOnce(response::Reader<'_>),
) {
    let mut req = msg();
    build(req.init_root().expect("request root"));
    let bytes = req.framed_bytes().expect("frame").to_vec();
    let mut inbox = msg();
    let reader = inbox
        .read_from_bytes(&bytes, ReaderOptions::default())
        .expect("read request");
    let mut resp = msg();
    store
        .answer(reader.get_root().expect("root"), &mut resp)
        .expect("answer");
    let bytes = resp.framed_bytes().expect("frame").to_vec();
    let reader = inbox
        .read_from_bytes(&bytes, ReaderOptions::default())
        .expect("read response");
    check(reader.get_root().expect("root"));
}

/// A request whose union member is not in the schema (a newer client's)
/// is answered with badRequest, its id and a reason naming the value, and
/// changes nothing.
#[test]
fn unknown_request_kind_is_a_bad_request() {
    let store = Store::new(10);
    answer(
        &store,
        |mut req| {
            req.set_id(77);
            req.set_get("k").expect("get");
            // The union's discriminant (UInt16 index 4 of the data section):
            // 9 names no member.
            req.as_struct_builder().set::<u16>(4, 9);
        },
        |resp| {
            assert_eq!(resp.get_id(), 77);
            assert_eq!(resp.get_status(), Ok(Status::BadRequest));
            let why = resp.get_error().expect("error text");
            assert!(why.contains('9'), "{why}");
        },
    );
    assert!(store.is_empty());
}

/// A put whose key is not valid UTF-8 is a bad request, and the key is
/// not stored.
#[test]
fn put_with_bad_text_is_a_bad_request() {
    let store = Store::new(10);
    answer(
        &store,
        |mut req| {
            let mut entry = req.init_put().expect("put");
            entry
                .init_key(2)
                .expect("key")
                .copy_from_slice(&[0xff, 0xfe]);
            entry.set_value(b"v").expect("value");
        },
        |resp| {
            assert_eq!(resp.get_status(), Ok(Status::BadRequest));
            assert!(resp.has_error());
        },
    );
    assert!(store.is_empty());
}

/// Puts and lists through `answer`: returns the list's keys and `more`.
fn list(store: &Store, prefix: &str, limit: u32) -> (Vec<String>, bool) {
    let mut out = (Vec::new(), false);
    answer(
        store,
        |mut req| {
            let mut range = req.init_list().expect("list");
            range.set_prefix(prefix).expect("prefix");
            range.set_limit(limit);
        },
        |resp| {
            assert_eq!(resp.get_status(), Ok(Status::Ok));
            let Ok(response::Which::Entries(entries)) = resp.which() else {
                panic!("not entries: {resp:?}");
            };
            for e in entries.expect("entries").iter() {
                out.0.push(e.get_key().expect("key").to_owned());
            }
            out.1 = resp.get_more();
        },
    );
    out
}

fn put(store: &Store, key: &str, value: &[u8]) -> Status {
    let mut status = None;
    answer(
        store,
        |mut req| {
            let mut entry = req.init_put().expect("put");
            entry.set_key(key).expect("key");
            entry.set_value(value).expect("value");
        },
        |resp| status = Some(resp.get_status().expect("status")),
    );
    status.expect("answered")
}

/// A list answers at most `limit`, at most MAX_LIST_ENTRIES whatever the
/// limit, and stops before MAX_LIST_BYTES of keys and values (but answers
/// one entry even when it alone is larger); `more` says whether matching
/// keys were left out. Only keys with the prefix are listed, in order.
#[test]
fn lists_stop_at_their_limits_and_say_so() {
    let store = Store::new(10_000);
    let n = MAX_LIST_ENTRIES + 5;
    for i in 0..n {
        assert_eq!(put(&store, &format!("a/{i:05}"), b"x"), Status::Created);
    }
    assert_eq!(put(&store, "b", b"y"), Status::Created);

    let (keys, more) = list(&store, "a/", 3);
    assert_eq!(
        (keys, more),
        (
            vec!["a/00000".into(), "a/00001".into(), "a/00002".into()],
            true
        )
    );
    let (keys, more) = list(&store, "a/", u32::MAX);
    assert_eq!((keys.len(), more), (MAX_LIST_ENTRIES as usize, true));
    let (keys, more) = list(&store, "a/0100", u32::MAX);
    assert_eq!((keys.len(), more), (5, false));
    assert_eq!(list(&store, "c", 10), (vec![], false));

    // Values of 0.4 of the byte budget: two fit, the third does not.
    let big = vec![7u8; MAX_LIST_BYTES * 2 / 5];
    for k in ["z/1", "z/2", "z/3"] {
        assert_eq!(put(&store, k, &big), Status::Created);
    }
    assert_eq!(
        list(&store, "z/", 10),
        (vec!["z/1".into(), "z/2".into()], true)
    );
    // One value over the budget still comes back, alone.
    assert_eq!(
        put(&store, "z/1", &vec![1u8; MAX_LIST_BYTES + 1]),
        Status::Ok
    );
    assert_eq!(list(&store, "z/", 10), (vec!["z/1".into()], true));
}

/// A full store refuses new keys (status full, nothing stored) and still
/// overwrites and deletes the keys it has.
#[test]
fn full_store_refuses_new_keys_only() {
    let store = Store::new(2);
    assert_eq!(put(&store, "a", b"1"), Status::Created);
    assert_eq!(put(&store, "b", b"2"), Status::Created);
    assert_eq!(put(&store, "c", b"3"), Status::Full);
    assert_eq!(put(&store, "a", b"11"), Status::Ok);
    assert_eq!(list(&store, "", 10), (vec!["a".into(), "b".into()], false));
}

/// Over TCP: the client sees `Error::Full` for a new key in a full
/// store, and the connection keeps serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_reports_full_and_goes_on() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    let server = tokio::spawn(serve(listener, Arc::new(Store::new(1)), 1));
    let mut client = Client::connect(addr).await.expect("connect");
    assert_eq!(client.put("a", b"1").await.expect("put"), Put::Created);
    assert!(matches!(client.put("b", b"2").await, Err(Error::Full)));
    let mut out = Vec::new();
    assert!(client.get("a", &mut out).await.expect("get"));
    assert_eq!(out, b"1");
    let listed = client.list_keys("", 10, |k| assert_eq!(k, "a")).await;
    assert_eq!(
        listed.expect("list"),
        Listed {
            count: 1,
            more: false
        }
    );
    drop(client);
    assert_eq!(server.await.expect("task").expect("server"), 4);
}

/// A request frame over MAX_REQUEST_BYTES ends its connection with
/// FrameTooLarge (no memory reserved for it), and the client sees the
/// connection closed, not an answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_request_closes_the_connection() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    let server = tokio::spawn(async move {
        let (sock, _) = listener.accept().await.expect("accept");
        serve_connection(sock, Arc::new(Store::new(10))).await
    });
    let mut client = Client::connect(addr).await.expect("connect");
    let value = vec![0u8; MAX_REQUEST_BYTES];
    let got = client.put("k", &value).await;
    assert!(
        matches!(
            got,
            Err(Error::Closed) | Err(Error::Capnp(capnarena::Error::Io(_)))
        ),
        "{got:?}"
    );
    match server.await.expect("task") {
        Err(capnarena::Error::FrameTooLarge { declared, limit }) => {
            assert_eq!(limit, MAX_REQUEST_BYTES as u64);
            assert!(declared > limit, "{declared}");
        }
        other => panic!("{other:?}"),
    }
}

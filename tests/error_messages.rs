//! The runtime's errors print their numbers and chain their causes as the
//! `Error` docs say, with hand-written `Display` and `Error` impls (no
//! derive macro in the runtime's build).

use std::error::Error as _;

use capnarena::{AllocError, Error};

/// An allocation failure reads as the arena's own message, both directly
/// and through `Error::Alloc`, and is the end of the chain (its message is
/// already the outer error's, so it is not repeated as a source).
#[test]
fn alloc_error_is_transparent() {
    let inner = AllocError {
        requested: 9,
        available: 4,
    };
    let expected = "arena cannot allocate 9 words (4 words available)";
    assert_eq!(inner.to_string(), expected);
    let outer = Error::from(inner);
    assert_eq!(outer.to_string(), expected);
    assert!(outer.source().is_none());
    assert!(matches!(outer, Error::Alloc(e) if e == inner));
}

/// An I/O error is wrapped with a prefix and kept as the source, so a
/// caller walking the chain reaches the operating system's error.
#[test]
fn io_error_is_the_source() {
    let io = std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "pipe closed");
    let outer = Error::from(io);
    assert_eq!(outer.to_string(), "i/o error: pipe closed");
    let source = outer.source().expect("an i/o error keeps its cause");
    let io = source
        .downcast_ref::<std::io::Error>()
        .expect("the cause is the io::Error itself");
    assert_eq!(io.kind(), std::io::ErrorKind::UnexpectedEof);
}

/// Struct variants print every number they carry, in the documented words,
/// and unit variants print their fixed sentence.
#[test]
fn variants_print_their_numbers() {
    let cases: [(Error, &str); 4] = [
        (
            Error::Truncated {
                needed: 24,
                available: 16,
            },
            "input truncated: need 24 bytes, have 16",
        ),
        (
            Error::OutOfBounds {
                segment: 2,
                start: -3,
                len: 5,
                segment_len: 10,
            },
            "pointer target out of bounds: segment 2, words [-3, -3+5) but segment has 10 words",
        ),
        (
            Error::TextFull {
                len: 8,
                pos: 6,
                pushed: 3,
            },
            "text of 8 bytes has 6 pushed; 3 more do not fit",
        ),
        (Error::EndOfStream, "end of stream before a message"),
    ];
    for (error, expected) in cases {
        assert_eq!(error.to_string(), expected);
        assert!(error.source().is_none(), "{error} has no cause");
    }
}

/// Errors cross threads and box into `Box<dyn Error + Send + Sync>`, as
/// `?` in an application's `main` needs.
#[test]
fn errors_are_send_sync_static() {
    fn boxed<E: std::error::Error + Send + Sync + 'static>(
        e: E,
    ) -> Box<dyn std::error::Error + Send + Sync> {
        Box::new(e)
    }
    let b = boxed(Error::NestingLimitExceeded { limit: 64 });
    assert_eq!(b.to_string(), "nesting limit of 64 exceeded");
    let _ = boxed(AllocError {
        requested: 1,
        available: 0,
    });
}

//! Issue 21, the generator: a hostile CodeGeneratorRequest gets an
//! `Err`, with bounded memory and stack. `main` read the request with an
//! unlimited traversal budget (a list of 2^29 zero-sized fields was
//! loaded field by field until the allocator gave up) and recursed over nesting the
//! request controls (nested nodes, groups, `List(List(...))`), through
//! loops and shared nodes too, so a deep or looping request overflowed the
//! stack or ran for ever.
//!
//! Every scenario runs in a child process (this binary again, running
//! [`child`]), on a thread of 2 MiB (a build script's main thread), with
//! its address space limited to 4 GiB, so that a stack overflow or a
//! runaway allocation fails that process and the test reports it. Linux
//! only (`/proc` for the peak resident set, `sh` for the limit).

#![cfg(target_os = "linux")]

#[path = "../../tests/common/rss.rs"]
mod probe;

use capnarena::{Message, SingleSegmentArena};
use capnarena_codegen::schema_capnp::{code_generator_request, type_};
use capnarena_codegen::{Error, Options, generate};

/// A field's type: `UInt32`, or a list of a type.
#[derive(Clone)]
enum Ty {
    U32,
    List(Box<Ty>),
}

impl Ty {
    /// `List` `levels` times around `UInt32`.
    fn lists(levels: usize) -> Ty {
        (0..levels).fold(Ty::U32, |t, _| Ty::List(Box::new(t)))
    }
}

/// A member of a struct: a field of a type, or a group (the group's node).
enum Member {
    Slot(String, Ty),
    Group(String, u64),
}

/// A node of a request, as far as these tests need one.
struct N {
    id: u64,
    scope: u64,
    /// Nested nodes: (name, id).
    nested: Vec<(String, u64)>,
    /// `None` for the file.
    members: Option<Vec<Member>>,
    is_group: bool,
}

/// The file node's id (the request's one requested file, `t.capnp`).
const FILE: u64 = 0xf11e;

fn file(nested: Vec<(String, u64)>) -> N {
    N {
        id: FILE,
        scope: 0,
        nested,
        members: None,
        is_group: false,
    }
}

fn strukt(id: u64, scope: u64, nested: Vec<(String, u64)>, members: Vec<Member>) -> N {
    N {
        id,
        scope,
        nested,
        members: Some(members),
        is_group: false,
    }
}

/// Writes `t` into `b`, a level at a time.
fn set_type<A: capnarena::Arena>(mut b: type_::Builder<'_, A>, t: &Ty) {
    match t {
        Ty::U32 => b.set_uint32(),
        Ty::List(e) => {
            let mut l = b.init_list();
            set_type(l.init_element_type().unwrap(), e);
        }
    }
}

/// The framed CodeGeneratorRequest of `nodes`, asking for `t.capnp`.
fn request(nodes: &[N]) -> Vec<u8> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg
        .init_root::<code_generator_request::Builder<'_, _>>()
        .unwrap();
    {
        let mut list = root.init_nodes(nodes.len() as u32).unwrap();
        for (i, n) in nodes.iter().enumerate() {
            let mut b = list.get(i as u32);
            b.set_id(n.id);
            let name = if n.id == FILE {
                "t.capnp".to_string()
            } else {
                format!("t.capnp:S{:x}", n.id)
            };
            b.set_display_name(&name).unwrap();
            b.set_display_name_prefix_length(if n.id == FILE { 0 } else { 8 });
            b.set_scope_id(n.scope);
            let mut nested = b.init_nested_nodes(n.nested.len() as u32).unwrap();
            for (j, (name, id)) in n.nested.iter().enumerate() {
                let mut e = nested.get(j as u32);
                e.set_name(name).unwrap();
                e.set_id(*id);
            }
            let Some(members) = &n.members else {
                b.set_file();
                continue;
            };
            let mut s = b.init_struct();
            s.set_data_word_count(members.len() as u16);
            s.set_pointer_count(members.len() as u16);
            s.set_is_group(n.is_group);
            let mut fields = s.init_fields(members.len() as u32).unwrap();
            for (j, m) in members.iter().enumerate() {
                let mut f = fields.get(j as u32);
                f.set_code_order(j as u16);
                f.set_discriminant_value(0xffff);
                match m {
                    Member::Slot(name, ty) => {
                        f.set_name(name).unwrap();
                        let mut slot = f.init_slot();
                        slot.set_offset(j as u32);
                        set_type(slot.init_type().unwrap(), ty);
                    }
                    Member::Group(name, id) => {
                        f.set_name(name).unwrap();
                        f.init_group().set_type_id(*id);
                    }
                }
            }
        }
    }
    let mut files = root.init_requested_files(1).unwrap();
    let mut f = files.get(0);
    f.set_id(FILE);
    f.set_filename("t.capnp").unwrap();
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

/// Structs nested `levels` deep under the file (ids 1..=levels), the
/// deepest with `last` as its members.
fn nested_structs(levels: u64, last: Vec<Member>) -> Vec<N> {
    let mut nodes = vec![file(vec![("S1".into(), 1)])];
    let mut last = Some(last);
    for id in 1..=levels {
        let nested = if id < levels {
            vec![(format!("S{}", id + 1), id + 1)]
        } else {
            vec![]
        };
        let members = if id < levels {
            vec![Member::Slot("x".into(), Ty::U32)]
        } else {
            last.take().unwrap_or_default()
        };
        nodes.push(strukt(id, id - 1, nested, members));
    }
    nodes[1].scope = FILE;
    nodes
}

/// A struct (id 1) holding groups nested `levels` deep (ids 2..), the
/// deepest with a `UInt32` field.
fn nested_groups(levels: u64) -> Vec<N> {
    let mut nodes = vec![file(vec![("S1".into(), 1)])];
    nodes.push(strukt(1, FILE, vec![], vec![Member::Group("g".into(), 2)]));
    for id in 2..levels + 2 {
        let members = if id < levels + 1 {
            vec![Member::Group("g".into(), id + 1)]
        } else {
            vec![Member::Slot("x".into(), Ty::U32)]
        };
        let mut n = strukt(id, id - 1, vec![], members);
        n.is_group = true;
        nodes.push(n);
    }
    nodes
}

/// What a scenario must give.
#[derive(Debug)]
enum Want {
    /// Generated code containing this text.
    Code(&'static str),
    /// An error whose message contains this text.
    Err(&'static str),
}

/// The scenarios: a name, the request, and what it must give.
fn scenario(index: usize) -> Option<(&'static str, Vec<u8>, Want)> {
    let slot = |ty| vec![Member::Slot("x".into(), ty)];
    Some(match index {
        0 => (
            "structs nested 10,000 deep",
            request(&nested_structs(10_000, slot(Ty::U32))),
            Want::Err("levels of nesting below the file: 33, more than the limit of 32"),
        ),
        1 => (
            "groups nested 10,000 deep",
            request(&nested_groups(10_000)),
            Want::Err("levels of nesting below the file: 33, more than the limit of 32"),
        ),
        2 => (
            "a field of List nested 1,000 deep",
            request(&nested_structs(1, slot(Ty::lists(1000)))),
            Want::Err("levels of nesting in a type: 17, more than the limit of 16"),
        ),
        3 => {
            // The file nests A (1), A nests B (2), B nests A again.
            let nodes = [
                file(vec![("A".into(), 1)]),
                strukt(1, FILE, vec![("B".into(), 2)], slot(Ty::U32)),
                strukt(2, 1, vec![("A".into(), 1)], slot(Ty::U32)),
            ];
            (
                "nested nodes in a loop",
                request(&nodes),
                Want::Err("node 0x1 is reached twice"),
            )
        }
        4 => {
            // A struct whose group is the struct itself.
            let nodes = [
                file(vec![("A".into(), 1)]),
                strukt(1, FILE, vec![], vec![Member::Group("g".into(), 1)]),
            ];
            (
                "a group that is its own struct",
                request(&nodes),
                Want::Err("node 0x1 is reached twice"),
            )
        }
        5 => {
            // 24 levels, each nesting the next twice: 2^24 places.
            let mut nodes = vec![file(vec![("S1".into(), 1), ("T1".into(), 1)])];
            for id in 1..=24u64 {
                let nested = if id < 24 {
                    vec![
                        (format!("S{}", id + 1), id + 1),
                        (format!("T{}", id + 1), id + 1),
                    ]
                } else {
                    vec![]
                };
                nodes.push(strukt(id, id - 1, nested, slot(Ty::U32)));
            }
            (
                "each struct nested twice, 24 levels",
                request(&nodes),
                Want::Err("node 0x1 is reached twice"),
            )
        }
        6 => {
            // The deepest request the limits allow: structs 28 levels
            // down, groups 4 more, and there a field of List 16 deep.
            let mut nodes = nested_structs(28, vec![Member::Group("g".into(), 29)]);
            let mut groups = nested_groups(4);
            groups.drain(..2);
            for (k, g) in groups.iter_mut().enumerate() {
                g.id = 29 + k as u64;
                g.scope = g.id - 1;
                if let Some(Member::Group(_, id)) = g.members.as_mut().and_then(|m| m.first_mut()) {
                    *id = g.id + 1;
                }
            }
            groups[3].members = Some(slot(Ty::lists(16)));
            nodes.extend(groups);
            (
                "the deepest nesting allowed",
                request(&nodes),
                Want::Code("ListList"),
            )
        }
        7 => (
            "structs nested 33 deep",
            request(&nested_structs(33, slot(Ty::U32))),
            Want::Err("levels of nesting below the file: 33, more than the limit of 32"),
        ),
        8 => (
            "a field of List nested 17 deep",
            request(&nested_structs(1, slot(Ty::lists(17)))),
            Want::Err("levels of nesting in a type: 17, more than the limit of 16"),
        ),
        9 => {
            // The checked-in request for schema.capnp (copied into one
            // segment), with the tag word of its first list of fields
            // changed to 2^29 - 1 elements of no words.
            let mut req = one_segment(
                &std::fs::read(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/requests/schema.bin"
                ))
                .unwrap(),
            );
            let tag = fields_tag_word(&req);
            req[tag..tag + 8].copy_from_slice(&[0xfc, 0xff, 0xff, 0x7f, 0, 0, 0, 0]);
            ("2^29 zero-sized fields", req, Want::Err("traversal limit"))
        }
        _ => return None,
    })
}

/// The framed message `framed`, copied into a message of one segment.
fn one_segment(framed: &[u8]) -> Vec<u8> {
    let words = capnarena::words_from_bytes(framed).unwrap();
    let reader =
        capnarena::MessageReader::from_words(&words, capnarena::ReaderOptions::new()).unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.root_pointer()
        .unwrap()
        .set_from(&reader.root_pointer().unwrap())
        .unwrap();
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

/// The byte offset in a framed one-segment request of the tag word of
/// its first list of fields (an inline-composite list of `Field`
/// structs: 3 data words, 4 pointers), found from the list pointer that
/// points at it.
fn fields_tag_word(req: &[u8]) -> usize {
    assert_eq!(&req[..4], &[0; 4], "one segment");
    let words: Vec<u64> = req[8..]
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let field_size = 3 | (4 << 16);
    for (i, &p) in words.iter().enumerate() {
        if p & 3 != 1 || (p >> 32) & 7 != 7 {
            continue;
        }
        let target = i as i64 + 1 + i64::from((p as u32 as i32) >> 2);
        let Some(&tag) = usize::try_from(target).ok().and_then(|t| words.get(t)) else {
            continue;
        };
        if tag & 3 == 0 && tag >> 32 == field_size && (tag as u32) >> 2 > 0 {
            return 8 + 8 * target as usize;
        }
    }
    panic!("no list of fields in the request");
}

/// Not a test of its own: the process [`hostile_requests_fail_cleanly`]
/// starts for each scenario (named by `LIMITS_SCENARIO`). Generates on a
/// 2 MiB thread; prints `OUTCOME` and what came out, and `RISE` with the
/// rise of the peak resident set.
#[test]
#[ignore = "run by hostile_requests_fail_cleanly in a child process"]
fn child() {
    let index: usize = std::env::var("LIMITS_SCENARIO")
        .expect("LIMITS_SCENARIO")
        .parse()
        .expect("a scenario number");
    let (_, req, _) = scenario(index).expect("a scenario");
    let mut outcome = None;
    let rise = probe::peak_rise(|| {
        let req = req.clone();
        let t = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || generate(&req, &Options::default()))
            .unwrap();
        outcome = Some(t.join().expect("the generator's thread"));
    });
    match outcome.expect("an outcome") {
        Ok(files) => {
            let code: String = files.iter().map(|f| f.contents.as_str()).collect();
            println!("OUTCOME ok {}", code.replace('\n', " "));
        }
        Err(e) => println!("OUTCOME err {e}"),
    }
    println!("RISE {rise}");
}

/// Each hostile request gives the error that explains it (the limit, with
/// its numbers, or the node reached twice), and the deepest request the
/// limits allow is generated, all on a 2 MiB thread, with the peak
/// resident set at most 64 MiB above where it started. The field list of
/// 2^29 zero-sized elements is refused by the traversal limit (the
/// request's own size) before any field is loaded. On `main`, scenarios 0
/// to 5 overflowed the stack or ran out of memory, 7 and 8 generated code,
/// and 9 ran out of memory.
#[test]
fn hostile_requests_fail_cleanly() {
    let mut failures = Vec::new();
    let mut index = 0;
    while let Some((what, req, want)) = scenario(index) {
        let out = probe::run_child(
            "child",
            &[("LIMITS_SCENARIO", index.to_string())],
            Some(4 << 30),
        );
        let outcome = probe::child_line(&out, "OUTCOME ").unwrap_or_default();
        let rise = probe::child_number(&out, "RISE ");
        println!(
            "{what} ({} bytes): {} / peak resident set +{rise:?} bytes",
            req.len(),
            &outcome[..outcome.len().min(120)]
        );
        let good = out.status.success()
            && match want {
                Want::Code(text) => outcome.starts_with("ok ") && outcome.contains(text),
                Want::Err(text) => outcome.starts_with("err ") && outcome.contains(text),
            }
            && rise.is_some_and(|r| r <= 64 << 20);
        if !good {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let tail = &stderr[stderr.len().saturating_sub(300)..];
            failures.push(format!(
                "{what}: wanted {want:?}, got status {}, {:?}, rise {rise:?}; stderr ...{tail}",
                out.status,
                &outcome[..outcome.len().min(300)]
            ));
        }
        index += 1;
    }
    assert_eq!(index, 10);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The limits leave real requests alone: every checked-in request (the
/// reference compiler's output for the project's schemas and the
/// reference's own) still generates.
#[test]
fn real_requests_are_within_the_limits() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/requests");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let req = std::fs::read(&path).unwrap();
        let files = generate(&req, &Options::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!files.is_empty(), "{}", path.display());
    }
}

/// A request that nests fine but whose errors carry numbers: the limit
/// error names the node and both counts.
#[test]
fn limit_error_names_node_and_numbers() {
    let req = request(&nested_structs(
        1,
        vec![Member::Slot("x".into(), Ty::lists(40))],
    ));
    match generate(&req, &Options::default()) {
        Err(Error::Limit {
            node, found, limit, ..
        }) => assert_eq!((node, found, limit), (1, 17, 16)),
        other => panic!("{other:?}"),
    }
}

/// A name that is not a schema identifier is refused before anything is
/// generated: on `main`, a field named with a line break and an item
/// (written into a `///` line of the generated code) added that item to
/// the generated module, and a requested file name with a line break did
/// the same through the file's header comment.
#[test]
fn names_cannot_add_code() {
    let injected = "x\npub fn injected() {}\n//";
    let req = request(&nested_structs(
        1,
        vec![Member::Slot(injected.into(), Ty::U32)],
    ));
    match generate(&req, &Options::default()) {
        Err(Error::BadName { node, name, .. }) => assert_eq!((node, name.as_str()), (1, injected)),
        Err(e) => panic!("{e}"),
        Ok(files) => panic!("generated: {}", files[0].contents),
    }
    let mut req = request(&nested_structs(1, vec![]));
    // The requested file's name, "t.capnp", as "t\ncapnp".
    let at = req
        .windows(8)
        .rposition(|w| w == b"t.capnp\0")
        .expect("the requested file's name");
    req[at + 1] = b'\n';
    match generate(&req, &Options::default()) {
        Err(Error::BadName { node, .. }) => assert_eq!(node, FILE),
        Err(e) => panic!("{e}"),
        Ok(files) => panic!("generated: {}", files[0].contents),
    }
}

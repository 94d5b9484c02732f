//! Bounded work and stack (issue 21): pathological schemas give a
//! positioned error naming the limit, or compile, on a 2 MiB thread (a
//! debug build script's main thread holds no more), instead of
//! overflowing the stack, panicking, or taking memory exponential in the
//! input. Each schema is held in memory (`Compiler::source`).

use capnarena_compiler::{Compiler, Diagnostics, limits};

const ID: &str = "@0xd0a4c1b3e2f50608;\n";

/// Compiles `text` as `/v/t.capnp` (with `extra` files beside it) on a
/// thread with a 2 MiB stack: the request's size, or the diagnostics.
fn compile_small_stack(text: String, extra: Vec<(String, String)>) -> Result<usize, Diagnostics> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let mut c = Compiler::new()
                .no_standard_import()
                .working_dir("/v")
                .source("/v/t.capnp", format!("{ID}{text}"))
                .file("t.capnp");
            for (name, body) in extra {
                c = c.source(format!("/v/{name}"), body);
            }
            c.compile().map(|r| r.len())
        })
        .expect("spawn")
        .join()
        .expect("the compiler panicked")
}

fn first_error(r: Result<usize, Diagnostics>) -> (u32, u32, String) {
    let d = r.expect_err("compiled");
    let x = &d.0[0];
    (x.line(), x.column(), x.message.clone())
}

/// A chain of 2,000 `using` aliases, each naming the next (regression:
/// the stack overflowed at 7,000 in release, 2,000 in debug).
#[test]
fn alias_chain_stops_at_the_recursion_limit() {
    let mut s = String::from("struct U { f @0 :A0; }\n");
    for i in 0..2000 {
        s += &format!("using A{i} = A{};\n", i + 1);
    }
    s += "struct A2000 {}\n";
    let (line, _, msg) = first_error(compile_small_stack(s, vec![]));
    assert!(
        msg.contains(&format!("more than {} levels deep", limits::MAX_RECURSION)),
        "{msg}"
    );
    assert!(line > 3 && line < 3 + limits::MAX_RECURSION, "line {line}");
}

/// A chain of 2,000 constants, each the next one's value.
#[test]
fn constant_chain_stops_at_the_recursion_limit() {
    let mut s = String::new();
    for i in 0..2000 {
        s += &format!("const c{i} :UInt32 = .c{};\n", i + 1);
    }
    s += "const c2000 :UInt32 = 5;\n";
    let (_, _, msg) = first_error(compile_small_stack(s, vec![]));
    assert!(msg.contains("levels deep"), "{msg}");
}

/// 10,000 files, each importing the next and using its struct as a field
/// type, compile (regression: the traversal that orders nodes recursed
/// once per file and overflowed the stack at 3,000 in debug; the
/// reference compiles this).
#[test]
fn import_chain_of_10000_files_compiles() {
    let n = 10_000;
    let mut extra = Vec::new();
    for i in 0..n {
        extra.push((
            format!("f{i}.capnp"),
            format!(
                "@0x{:x};\nusing N = import \"f{}.capnp\";\nstruct S {{ n @0 :N.S; }}\n",
                (1u64 << 63) | (i as u64 + 7),
                i + 1
            ),
        ));
    }
    extra.push((
        format!("f{n}.capnp"),
        format!("@0x{:x};\nstruct S {{}}\n", (1u64 << 63) | 1),
    ));
    let s = "using N = import \"f0.capnp\";\nstruct T { n @0 :N.S; }\n".to_string();
    let size = compile_small_stack(s, extra).unwrap_or_else(|d| panic!("{d}"));
    assert!(size > 0);
}

/// A struct with 65,536 fields (every ordinal) compiles (regression: a
/// 16-bit member count overflowed: a panic in debug, an index out of
/// bounds in release), and one with 65,537 is refused by its ordinal.
#[test]
fn struct_with_65536_members_compiles() {
    let fields = |n: u32| {
        let mut s = String::from("struct S {\n");
        for i in 0..n {
            s += &format!("  f{i} @{i} :Bool;\n");
        }
        s + "}\n"
    };
    compile_small_stack(fields(65_536), vec![]).unwrap_or_else(|d| panic!("{d}"));
    let (line, _, msg) = first_error(compile_small_stack(fields(65_537), vec![]));
    assert_eq!(
        (line, msg.as_str()),
        (65_539, "Ordinals cannot be greater than 65535.")
    );
}

/// A struct value nested 120 levels deep compiles on a 2 MiB stack
/// (regression: writing it into the request took 21 KiB of stack per
/// level in debug); 200 levels are refused at the recursion limit.
#[test]
fn nested_struct_values_are_bounded() {
    let nested = |n: usize| {
        format!(
            "struct S {{ a @0 :S; }}\nconst c :S = {}(){};\n",
            "(a = ".repeat(n),
            ")".repeat(n)
        )
    };
    compile_small_stack(nested(120), vec![]).unwrap_or_else(|d| panic!("{d}"));
    let (_, _, msg) = first_error(compile_small_stack(nested(199), vec![]));
    assert!(msg.contains("levels deep"), "{msg}");
}

/// Constants each copying the one before two levels deeper: the value
/// deepens by 2 per line although no recursion is deep, and is refused
/// once it would nest past the limit (regression: 300 lines made a value
/// 600 levels deep, whose writing overflowed the stack).
#[test]
fn copied_constants_cannot_nest_without_bound() {
    let mut s = String::from("struct S { a @0 :S; t @1 :Text; }\nconst c0 :S = (t = \"x\");\n");
    for i in 1..300 {
        s += &format!("const c{i} :S = (a = (a = .c{}));\n", i - 1);
    }
    let (_, _, msg) = first_error(compile_small_stack(s, vec![]));
    assert!(msg.starts_with("Copying this constant,"), "{msg}");
}

/// Constants that double on each line stop at the copy limit with an
/// error naming it (regression: 24 lines aborted on allocation failure;
/// the reference fails with bad_alloc).
#[test]
fn doubling_constants_stop_at_the_copy_limit() {
    let mut s = String::from(
        "struct S { a @0 :S; b @1 :S; t @2 :Text; }\nconst c0 :S = (t = \"abcdefgh\");\n",
    );
    for i in 1..40 {
        s += &format!("const c{i} :S = (a = .c{}, b = .c{});\n", i - 1, i - 1);
    }
    let (_, _, msg) = first_error(compile_small_stack(s, vec![]));
    assert!(
        msg.contains(&format!(
            "more than the limit of {} words",
            limits::MAX_COPIED_WORDS
        )),
        "{msg}"
    );
}

/// Generic types that double on each line (`using T2 = G(T1, T1)`) stop
/// at the type size limit (regression: 20 lines made a 150 MB request in
/// 27 s and 2 GB).
#[test]
fn doubling_generic_types_stop_at_the_type_limit() {
    let mut s = String::from("struct G(A, B) {}\nusing T0 = G(Text, Text);\n");
    for i in 1..18 {
        s += &format!("using T{i} = G(T{}, T{});\n", i - 1, i - 1);
    }
    s += "struct U { f @0 :T17; }\n";
    let (_, _, msg) = first_error(compile_small_stack(s, vec![]));
    assert!(
        msg.contains(&format!(
            "the limits are {} and {}",
            limits::MAX_TYPE_SIZE,
            limits::MAX_TYPE_DEPTH
        )),
        "{msg}"
    );
}

/// `List(List(...))` types built up through aliases, 10 levels per line,
/// are refused instead of overflowing the stack (regression: 60 lines
/// overflowed it).
#[test]
fn deep_types_through_aliases_are_refused() {
    let wrap = |inner: &str| format!("{}{inner}{}", "List(".repeat(10), ")".repeat(10));
    let mut s = format!("using T0 = {};\n", wrap("Text"));
    for i in 1..60 {
        s += &format!("using T{i} = {};\n", wrap(&format!("T{}", i - 1)));
    }
    s += "struct U { f @0 :T59; }\n";
    let (_, _, msg) = first_error(compile_small_stack(s, vec![]));
    assert!(
        msg.contains("levels deep") || msg.contains("the limits are"),
        "{msg}"
    );
}

/// Declarations nested 199 deep (the lexer's limit is 200) compile on a
/// 2 MiB stack.
#[test]
fn nested_declarations_compile() {
    let n = limits::MAX_NESTING as usize - 1;
    let mut s = String::new();
    for i in 0..n {
        s += &format!("struct S{i} {{\n");
    }
    s += &"}\n".repeat(n);
    compile_small_stack(s, vec![]).unwrap_or_else(|d| panic!("{d}"));
}

/// Member suffixes after a generic application, nested through the
/// application's parameters: `a(a(...b).a.a...).a.a...` with 254 members
/// per level builds an expression tree 50,000 deep within the lexer's
/// nesting limit (regression: walking it overflowed the stack). The
/// parser refuses trees deeper than `limits::MAX_EXPRESSION_DEPTH`.
#[test]
fn deep_expressions_are_refused_by_the_parser() {
    let chain = ".a".repeat(254);
    let n = 199;
    let s = format!(
        "using X = {}b{};\n",
        "a(".repeat(n),
        format!("){chain}").repeat(n)
    );
    let (line, _, msg) = first_error(compile_small_stack(s, vec![]));
    assert_eq!(line, 2);
    assert!(
        msg.starts_with(&format!(
            "Expression nests more than {} levels deep",
            limits::MAX_EXPRESSION_DEPTH
        )),
        "{msg}"
    );
}

//! The compiler's limits: how much it reads, builds and nests before it
//! stops with an error that names the limit. They keep the memory, time
//! and stack of a compile in proportion to its input, whoever wrote the
//! schemas (a dependency, a user). Each is far above what real schemas
//! need; the reasons for each value are given with it.

/// Largest schema file or embedded file read, in bytes: 16 MiB. The
/// largest schemas in use are a few hundred KiB; an embed's bytes go into
/// the request whole, and a request must stay readable by a plugin under
/// the usual 64 MiB traversal limit.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Most bytes read in one compile, all schema and embedded files
/// together: 32 MiB. Each file is read once however often it is imported
/// or embedded. Compiling takes memory in proportion to the schema text,
/// about 90 bytes per byte for dense declarations (a 7.6 MB file of
/// 100,000 structs: 670 MB peak, release or debug), so this bounds a
/// compile's memory near 3 GB.
pub const MAX_INPUT_BYTES: u64 = 32 << 20;

/// Deepest recursion of the compiler over a schema, counting each
/// declaration compiled for another (a type whose layout a default needs,
/// an alias naming an alias, a constant copying a constant), each level
/// of expression inside them, and each level of pointers in a value
/// (copied constants included): 128. This bounds the compiler's stack:
/// the deepest schemas it allows compile on a 2 MiB thread in a debug
/// build (a build script's) with room to spare. Real schemas use a dozen.
pub const MAX_RECURSION: u32 = 128;

/// Deepest nesting of blocks (`{}`), parentheses and brackets in a
/// file: 200. The lexer, the parser and the compiler's walks over
/// expressions and declarations recurse once per level.
pub const MAX_NESTING: u32 = 200;

/// Largest type, counted in the scopes and parameters of its brand
/// written out: 4,096. Aliases share their parts, so `using T2 = G(T1,
/// T1)` doubles a type on each line; past this it is an error instead of
/// exponential memory. Real generic types have a few dozen.
pub const MAX_TYPE_SIZE: u32 = 4096;

/// Deepest type, in nested scopes and generic parameters: 100. Walks over
/// types recurse once per level.
pub const MAX_TYPE_DEPTH: u32 = 100;

/// Most words of constants copied into other values (a constant named in
/// another's value, a default or an annotation), all copies together:
/// 1 Mi words (8 MiB encoded). Constants that copy the previous one twice
/// on each line double; past this they are an error instead of
/// exponential memory. A copy is held a few times over while compiling,
/// at a few times its encoded size, so this keeps the peak near 100 MiB;
/// real schemas copy a few hundred words.
pub const MAX_COPIED_WORDS: u64 = 1 << 20;

/// Deepest expression tree: 256 levels of members (`a.b`), generic
/// parameters (`G(T)`), lists and tuples. Suffixes chain without
/// brackets, so [`MAX_NESTING`] alone would allow trees 50,000 deep; walks
/// over an expression recurse once per level.
pub const MAX_EXPRESSION_DEPTH: u32 = 256;

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
/// together: 64 MiB. Each file is read once however often it is imported
/// or embedded.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

//! What generated code calls and a user does not: the helpers
//! `capnarena-codegen` writes calls to, in one module, hidden from the
//! docs. It changes with the generator of the same version; nothing else
//! should name it.

use crate::layout::StaticContext;
use crate::{Arena, PointerBuilder, PointerReader, Result};

pub use crate::text::visitor::fmt_text;
#[cfg(feature = "alloc")]
pub use crate::typed::value::codegen_calls::{
    read_enum_list, read_optional, read_struct_list, read_struct_pointer, write_enum_list,
    write_optional, write_struct_list, write_struct_pointer,
};

/// The pointer `p`, or the root of `default` when `p` is null: how a
/// pointer field with a schema default is read.
///
/// # Errors
/// `default` holds no root (a malformed constant).
#[inline]
pub fn or_default<'a>(
    p: PointerReader<'a>,
    default: &'static StaticContext,
) -> Result<PointerReader<'a>> {
    if p.is_null() { default.root() } else { Ok(p) }
}

/// Copies the root of `default` into `p` when `p` is null: how a builder
/// gets a pointer field with a schema default before handing it out.
///
/// # Errors
/// The arena has no room, or `default` is malformed.
#[inline]
pub fn fill_default<A: Arena + ?Sized>(
    p: &mut PointerBuilder<'_, A>,
    default: &'static StaticContext,
) -> Result<()> {
    if p.is_null() {
        p.set_from(&default.root()?)?;
    }
    Ok(())
}

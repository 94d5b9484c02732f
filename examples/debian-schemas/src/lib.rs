//! Every schema Debian's libcapnp-dev installs, as generated capnarena
//! code: built (clippy-clean) by CI to show the generator handles the
//! reference's own schemas (generics, interfaces, annotations, imports).

include!(concat!(env!("OUT_DIR"), "/mods.rs"));

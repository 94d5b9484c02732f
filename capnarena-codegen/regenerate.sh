#!/bin/bash
# Regenerates every checked-in generated file and request with the current generator.
set -e
cd "$(dirname "$0")/.."
cargo build -q -p capnarena-codegen --bin capnpc-capnarena
G="$PWD/target/debug/capnpc-capnarena"
R=capnarena-codegen/tests/requests
rm -rf /tmp/gen && mkdir -p /tmp/gen
capnp compile -o$G:/tmp/gen --src-prefix=/usr/include /usr/include/capnp/schema.capnp
cp /tmp/gen/schema_capnp.rs capnarena-codegen/src/schema_capnp.rs
capnp compile -o$G:tests/generated --src-prefix=tests/schemas tests/schemas/codegen.capnp tests/schemas/imported.capnp
# The vectors' schema with schema nodes (Options::schema_nodes): the dynamic layer's tests load it from the types.
CAPNARENA_SCHEMA_NODES=1 capnp compile -o$G:tests/generated --src-prefix=tests/vectors tests/vectors/all_types.capnp
# Generics with schema nodes too: the dynamic layer's tests carry bindings from the types.
CAPNARENA_SCHEMA_NODES=1 capnp compile -o$G:tests/generated --src-prefix=tests/schemas tests/schemas/generics.capnp
capnp compile -o$G:tests/generated --src-prefix=tests/schemas tests/schemas/names.capnp
capnp compile -o$G:tests/generated --src-prefix=tests/schemas tests/schemas/evolution_v1.capnp tests/schemas/evolution_v2.capnp tests/schemas/evolution_v3.capnp
capnp compile -o$G:tests/generated --src-prefix=tests/schemas tests/schemas/nonutf8.capnp
capnp compile -o$G:tests/generated --src-prefix=tests/schemas tests/schemas/renamed.capnp tests/schemas/renamed_parent.capnp
# With plain values (Options::owned_values): the runtime's docs show them on it.
CAPNARENA_OWNED_VALUES=1 capnp compile -o$G:examples/generated --src-prefix=examples/addressbook/schema examples/addressbook/schema/addressbook.capnp
# The golden fixtures: one construct each, the schema beside its request and code.
F=capnarena-codegen/tests/fixtures
for s in $F/*.capnp; do
  capnp compile -o$G:$F --src-prefix=$F $s
  capnp compile -o- --src-prefix=$F $s > $F/$(basename $s .capnp).bin
done
capnp compile -o- --src-prefix=/usr/include /usr/include/capnp/schema.capnp > $R/schema.bin
capnp compile -o- --src-prefix=tests/schemas tests/schemas/codegen.capnp tests/schemas/imported.capnp > $R/codegen.bin
capnp compile -o- --src-prefix=tests/vectors tests/vectors/all_types.capnp > $R/all_types.bin
capnp compile -o- --src-prefix=tests/schemas tests/schemas/generics.capnp > $R/generics.bin
capnp compile -o- --src-prefix=tests/schemas tests/schemas/names.capnp > $R/names.bin
capnp compile -o- --src-prefix=tests/schemas tests/schemas/evolution_v1.capnp tests/schemas/evolution_v2.capnp tests/schemas/evolution_v3.capnp > $R/evolution.bin
capnp compile -o- --src-prefix=tests/schemas tests/schemas/nonutf8.capnp > $R/nonutf8.bin
capnp compile -o- --src-prefix=tests/schemas tests/schemas/renamed.capnp tests/schemas/renamed_parent.capnp > $R/renamed.bin
capnp compile -o- --src-prefix=examples/addressbook/schema examples/addressbook/schema/addressbook.capnp > $R/addressbook.bin
capnp compile -o$G:capnarena-rpc/src --src-prefix=/usr/include /usr/include/capnp/rpc.capnp /usr/include/capnp/rpc-twoparty.capnp
capnp compile -o- --src-prefix=/usr/include /usr/include/capnp/rpc.capnp /usr/include/capnp/rpc-twoparty.capnp > $R/rpc.bin
# The RPC interop schema, with typed RPC code (Options::rpc).
CAPNARENA_RPC=1 capnp compile -o$G:capnarena-rpc/tests/generated --src-prefix=capnarena-rpc/tests/interop capnarena-rpc/tests/interop/test.capnp
capnp compile -o- --src-prefix=capnarena-rpc/tests/interop capnarena-rpc/tests/interop/test.capnp > $R/rpc_test.bin
CAPNARENA_RPC=1 capnp compile -o$G:capnarena-rpc/examples/generated --src-prefix=capnarena-rpc/examples/calculator capnarena-rpc/examples/calculator/calculator.capnp
# The runtime's test schemas with interfaces, with typed RPC code (compiled by capnarena-rpc's tests).
CAPNARENA_RPC=1 capnp compile -o$G:capnarena-rpc/tests/generated --src-prefix=tests/schemas tests/schemas/codegen.capnp tests/schemas/imported.capnp tests/schemas/names.capnp tests/schemas/rpc_generics.capnp
capnp compile -o- --src-prefix=capnarena-rpc/examples/calculator capnarena-rpc/examples/calculator/calculator.capnp > $R/calculator.bin

# Every other interface schema of the repository, with typed RPC code
# (compiled by capnarena-rpc's tests/generated_rpc.rs): the reference's
# test.capnp family (with schema.capnp, which it imports) and the
# workspace's own schemas with interfaces.
C=conformance/corpus/capnproto/c++/src
CAPNARENA_RPC=1 capnp compile --no-standard-import -I$C -o$G:capnarena-rpc/tests/generated/reference --src-prefix=$C/capnp $C/capnp/schema.capnp $C/capnp/test.capnp $C/capnp/test-import.capnp $C/capnp/test-import2.capnp
capnp compile --no-standard-import -I$C -o- --src-prefix=$C/capnp $C/capnp/schema.capnp $C/capnp/test.capnp $C/capnp/test-import.capnp $C/capnp/test-import2.capnp > $R/rpc_reference.bin
CAPNARENA_RPC=1 capnp compile --no-standard-import -I$C -o$G:capnarena-rpc/tests/generated/schemas --src-prefix=tests/schemas --src-prefix=capnarena-compiler/tests/schemas --src-prefix=$C/capnp $C/capnp/stream.capnp tests/schemas/owned_generics.capnp tests/schemas/text_format.capnp capnarena-compiler/tests/schemas/misc.capnp capnarena-compiler/tests/schemas/interfaces.capnp
capnp compile --no-standard-import -I$C -o- --src-prefix=tests/schemas --src-prefix=capnarena-compiler/tests/schemas --src-prefix=$C/capnp $C/capnp/stream.capnp tests/schemas/owned_generics.capnp tests/schemas/text_format.capnp capnarena-compiler/tests/schemas/misc.capnp capnarena-compiler/tests/schemas/interfaces.capnp > $R/rpc_schemas.bin

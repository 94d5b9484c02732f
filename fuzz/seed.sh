#!/usr/bin/env bash
# Seeds the fuzz corpora from the reference-written test vectors
# (tests/vectors): every framed message (.bin, .segN.bin), every bare
# segment (.flat) and every packed message (.packed), alone and back to
# back. Corpus directories are not committed (see .gitignore);
# run this before the first `cargo +nightly fuzz run`.
set -euo pipefail
cd "$(dirname "$0")"
vectors=../tests/vectors
mkdir -p corpus/read_framed corpus/read_stream corpus/roundtrip corpus/arena_ops

shopt -s nullglob
for f in "$vectors"/*.bin "$vectors"/*.flat; do
  name=$(basename "$f")
  # read_framed: the bytes as they are (framed, or a bare segment).
  cp "$f" "corpus/read_framed/$name"
  # read_stream: its first byte picks the chunk size and interruptions
  # (0x07: 8-byte chunks, never interrupted; 0x62: 3-byte chunks,
  # interrupted every 4th read), the rest is the stream.
  { printf '\x07'; cat "$f"; } > "corpus/read_stream/c07-$name"
  { printf '\x62'; cat "$f"; } > "corpus/read_stream/c62-$name"
done
# Two messages in one stream, for the reused-arena check.
for a in empty scalars lists full; do
  for b in empty scalars lists full; do
    { printf '\x0f'; cat "$vectors/$a.bin" "$vectors/$b.seg3.bin"; } \
      > "corpus/read_stream/two-$a-$b.bin"
  done
done

# Packs a framed file word by word, with no runs (a zero word is 00 00, a
# word with no zero byte ff, its bytes, 00): valid packed input with other
# bytes than the reference's (the .packed vectors), and multi-segment
# messages, which have no .packed vector.
pack_plain() {
  local b i tag body
  od -An -v -tu1 -w8 "$1" | while read -r -a b; do
    tag=0
    body=''
    for i in 0 1 2 3 4 5 6 7; do
      if ((b[i] != 0)); then
        tag=$((tag | 1 << i))
        body+=$(printf '\\x%02x' "${b[i]}")
      fi
    done
    case $tag in
      0) printf '\x00\x00' ;;
      255) printf "\\xff$body\\x00" ;;
      *) printf "\\x$(printf %02x "$tag")$body" ;;
    esac
  done
}
small=(empty scalars lists full)
mkdir -p corpus/packed_codec corpus/read_packed corpus/message_stream tmp-packed
for a in "${small[@]}"; do
  for n in 3 16; do
    pack_plain "$vectors/$a.seg$n.bin" >"tmp-packed/$a.seg$n.packed"
  done
  pack_plain "$vectors/$a.bin" >"tmp-packed/$a.plain.packed"
done
for f in "$vectors"/*.packed tmp-packed/*.packed; do
  name=$(basename "$f")
  # packed_codec: six control bytes (input and output piece sizes, output
  # room: exact, or 256 words more; reader chunks and interruptions;
  # pack buffer; writer pieces), then the packed bytes, whole or cut.
  { printf '\x03\x07\x08\x62\x90\x05'; cat "$f"; } >"corpus/packed_codec/a-$name"
  { printf '\x27\x21\x88\x1f\x20\x1c'; cat "$f"; } >"corpus/packed_codec/b-$name"
  { printf '\x00\x00\x08\x00\x00\x00'; head -c -3 "$f"; } >"corpus/packed_codec/cut-$name"
  # read_packed: three control bytes (BufReader capacity and
  # interruptions; chunk size and arena; arena size), then the message.
  { printf '\x07\x07\x00'; cat "$f"; } >"corpus/read_packed/single-$name"
  { printf '\x82\x22\x09'; cat "$f"; } >"corpus/read_packed/multi-$name"
  { printf '\x3f\x5f\x90'; cat "$f"; } >"corpus/read_packed/fixed-$name"
done
# message_stream: two control bytes (bit 0 of the first: packed; then the
# arena and chunk size; the second: BufReader capacity and
# interruptions), then two or three messages back to back.
for a in "${small[@]}"; do
  for b in "${small[@]}"; do
    { printf '\x38\x07'; cat "$vectors/$a.bin" "$vectors/$b.seg3.bin"; } \
      >"corpus/message_stream/framed-$a-$b"
    { printf '\x13\x82'; cat "$vectors/$a.packed" "tmp-packed/$b.seg3.packed"; } \
      >"corpus/message_stream/packed-$a-$b"
    { printf '\x2d\x07'; cat "$vectors/$a.packed" "$vectors/$b.packed" "$vectors/$a.packed"; } \
      >"corpus/message_stream/packed3-$a-$b"
    { printf '\xfe\x41'; cat "$vectors/$b.seg16.bin" "$vectors/$a.bin" "$vectors/$b.bin"; } \
      >"corpus/message_stream/framed3-$a-$b"
  done
done
# stream_codecs and async_read: two control bytes (bit 0 of the first:
# packed; the rest of it the piece or chunk size; the second: the frame
# limit, or which polls are Pending), then two or three messages back to
# back, whole or with the last byte cut.
mkdir -p corpus/stream_codecs corpus/async_read
for a in "${small[@]}"; do
  for b in "${small[@]}"; do
    for t in stream_codecs async_read; do
      { printf '\x0e\x00'; cat "$vectors/$a.bin" "$vectors/$b.seg3.bin"; } \
        >"corpus/$t/framed-$a-$b"
      { printf '\x03\x02'; cat "$vectors/$a.packed" "tmp-packed/$b.seg3.packed"; } \
        >"corpus/$t/packed-$a-$b"
      { printf '\x40\x01'; cat "$vectors/$b.seg16.bin" "$vectors/$a.bin"; } | head -c -1 \
        >"corpus/$t/cut-$a-$b"
      { printf '\x21\x03'; cat "$vectors/$a.packed" "$vectors/$b.packed" "$vectors/$a.packed"; } \
        >"corpus/$t/packed3-$a-$b"
    done
  done
done
rm -r tmp-packed
# roundtrip and arena_ops take structured input (arbitrary): the vector
# bytes serve as raw entropy to start from.
for f in "$vectors"/*.flat; do
  cp "$f" "corpus/roundtrip/$(basename "$f")"
  cp "$f" "corpus/arena_ops/$(basename "$f")"
done
# compile_schema: every schema of the project (test vectors, the
# compiler's test schemas and its error suite's sources stay in Rust), and
# the installed reference schemas when present.
mkdir -p corpus/compile_schema
for f in "$vectors"/*.capnp ../capnarena-compiler/tests/schemas/*.capnp \
  ../capnarena-compiler/tests/schemas/sub/*.capnp /usr/include/capnp/*.capnp \
  /usr/include/capnp/compat/*.capnp; do
  cp "$f" "corpus/compile_schema/$(basename "$f")"
done
# compile_tree: files separated by the byte 0x1e, in the order
# src/main.capnp, src/a.capnp, src/sub/b.capnp, inc/c.capnp,
# inc/sub/d.capnp, src/data.bin, inc/blob.bin: imports and embeds in
# every form, some reaching outside the tree.
mkdir -p corpus/compile_tree
rs=$'\x1e'
id() { printf '@0x%x;\n' $((0x8000000000000000 | $1)); }
{
  id 1; printf 'using A = import "a.capnp";\nusing C = import "/c.capnp";\n'
  printf 'struct M { a @0 :A.S; c @1 :C.T; d @2 :Data = embed "data.bin"; }\n'
  printf 'const t :Text = embed "/blob.bin";\n'
  printf '%s' "$rs"; id 2; printf 'using B = import "sub/b.capnp";\nstruct S { b @0 :B.U; }\n'
  printf '%s' "$rs"; id 3; printf 'struct U { x @0 :Int32 = 7; }\nconst e :Data = embed "../data.bin";\n'
  printf '%s' "$rs"; id 4; printf 'using D = import "sub/d.capnp";\nstruct T { d @0 :D.V; }\n'
  printf '%s' "$rs"; id 5; printf 'struct V { s @0 :Text = "\\xff\\377"; }\nconst b :Data = embed "../blob.bin";\n'
  printf '%s' "$rs"; printf '\x00\xff\xc3\x28 bytes'
  printf '%s' "$rs"; printf 'blob \xfe'
} >corpus/compile_tree/tree
{
  id 1; printf 'const a :Text = embed "../secret.txt";\nconst b :Text = embed "/../secret.txt";\n'
  printf 'using O = import "../outside.capnp";\nusing P = import "/../outside.capnp";\n'
  printf 'const c :Text = embed "//secret.txt";\nconst d :Data = embed "sub";\nstruct S { o @0 :O.Outside; p @1 :P.Outside; }\n'
} >corpus/compile_tree/escapes
for f in ../capnarena-compiler/tests/schemas/*.capnp; do
  cp "$f" "corpus/compile_tree/$(basename "$f")"
done
# hostile_io: eight control bytes (arena faults, segment size, writer
# failures, reader lies, writer buffer), then a framed or packed message
# (a stream to read into the arena, and the recipe of the one built).
mkdir -p corpus/hostile_io
for f in "$vectors"/*.bin "$vectors"/*.packed; do
  name=$(basename "$f")
  { printf '\x00\x00\x40\x00\x00\x00\x00\x80'; cat "$f"; } >"corpus/hostile_io/honest-$name"
  { printf '\x03\x02\x03\x05\x81\x0c\x1f\x00'; cat "$f"; } >"corpus/hostile_io/stale-$name"
  { printf '\x45\x0d\x07\x22\x0a\x13\x33\xa0'; cat "$f"; } >"corpus/hostile_io/lying-$name"
done
# generate_request: the reference compiler's requests for real schemas
# (the generator's own schema.capnp, the project's test schemas).
mkdir -p corpus/generate_request
for f in ../capnarena-codegen/tests/requests/*.bin; do
  cp "$f" "corpus/generate_request/$(basename "$f")"
done
# compat_check: a u32 length, then the old request and the new one: each
# real request against itself and against the one of the evolved schemas.
mkdir -p corpus/compat_check
requests=../capnarena-codegen/tests/requests
for f in "$requests"/*.bin; do
  for g in "$f" "$requests/evolution.bin" "$requests/renamed.bin"; do
    size=$(wc -c <"$f")
    { printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((size & 255)) $((size >> 8 & 255)) $((size >> 16 & 255)) $((size >> 24 & 255)))"
      cat "$f" "$g"; } >"corpus/compat_check/$(basename "$f" .bin)-$(basename "$g")"
  done
done
# json_decode: a root-type byte (0 AllTypes, 1 Log, 2 TestJsonAnnotations),
# then JSON: the reference's annotation test document, and (when the
# reference tool is installed) its JSON of every vector, pretty and short.
mkdir -p corpus/json_decode
{ printf '\x02'; cat ../conformance/corpus/capnproto/c++/src/capnp/testdata/annotated.json; } \
  >corpus/json_decode/annotated.json
if command -v capnp >/dev/null 2>&1; then
  for v in empty scalars lists full log; do
    root=AllTypes; pick='\x00'
    if [ "$v" = log ]; then root=Log; pick='\x01'; fi
    for style in "" --short; do
      { printf "$pick"; capnp convert binary:json $style -I"$vectors" "$vectors/all_types.capnp" "$root" <"$vectors/$v.bin"; } \
        >"corpus/json_decode/$v${style}.json" || true
    done
  done
fi

# parse_text: the texts the vectors were written from, the reference's
# renderings of them, and the reference's own text test data.
mkdir -p corpus/parse_text
for f in "$vectors"/*.txt "$vectors"/*.expected; do
  cp "$f" "corpus/parse_text/$(basename "$f")"
done
for f in ../conformance/corpus/capnproto/c++/src/capnp/testdata/*.txt; do
  cp "$f" "corpus/parse_text/reference-$(basename "$f")"
done
for d in corpus/*; do
  echo "$d: $(ls "$d" | wc -l) files"
done

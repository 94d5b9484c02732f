#!/usr/bin/env bash
# Seeds the fuzz corpora from the reference-written test vectors
# (tests/vectors): every framed message (.bin, .segN.bin) and every bare
# segment (.flat). Corpus directories are not committed (see .gitignore);
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
# roundtrip and arena_ops take structured input (arbitrary): the vector
# bytes serve as raw entropy to start from.
for f in "$vectors"/*.flat; do
  cp "$f" "corpus/roundtrip/$(basename "$f")"
  cp "$f" "corpus/arena_ops/$(basename "$f")"
done
for d in corpus/*; do
  echo "$d: $(ls "$d" | wc -l) files"
done

#!/usr/bin/env python3
"""Lists a crate's public API from rustdoc's JSON output, one item a line.

    python3 scripts/public_api.py target/doc/capnarena.json

Each line is a kind and a path: `struct capnarena::Message`,
`fn capnarena::Message::init_root`, `trait-fn capnarena::Arena::segment`.
Items rustdoc leaves out (private, `#[doc(hidden)]`) are not listed.
Methods are listed under the type they are reached through, so a method
of a type re-exported at two paths is listed twice, as a user meets it.
"""

import json
import sys

# The rustdoc JSON format versions this reader was checked against.
KNOWN_FORMATS = range(50, 60)


def inner_kind(item):
    (kind,) = item["inner"].keys()
    return kind


def main(path):
    doc = json.load(open(path))
    version = doc.get("format_version")
    if version not in KNOWN_FORMATS:
        sys.exit(
            f"{path}: rustdoc JSON format {version}; this script reads "
            f"{KNOWN_FORMATS.start}-{KNOWN_FORMATS.stop - 1}"
        )
    index = doc["index"]
    lines = set()
    for item_id, summary in doc["paths"].items():
        if summary["crate_id"] != 0 or item_id not in index:
            continue
        item = index[item_id]
        kind = summary["kind"]
        name = "::".join(summary["path"])
        lines.add(f"{kind} {name}")
        inner = item["inner"].get(kind) or {}
        if kind in ("struct", "enum", "union"):
            for impl_id in inner.get("impls", []):
                impl = index.get(str(impl_id)) or index.get(impl_id)
                if impl is None:
                    continue
                body = impl["inner"]["impl"]
                if body.get("trait") is not None or body.get("blanket_impl") is not None:
                    continue
                for member_id in body["items"]:
                    member = index.get(str(member_id)) or index.get(member_id)
                    if member is None or member["visibility"] != "public":
                        continue
                    lines.add(f"{inner_kind(member)} {name}::{member['name']}")
            if kind == "enum":
                for variant_id in inner.get("variants", []):
                    variant = index.get(str(variant_id)) or index.get(variant_id)
                    if variant is not None:
                        lines.add(f"variant {name}::{variant['name']}")
        elif kind == "trait":
            for member_id in inner.get("items", []):
                member = index.get(str(member_id)) or index.get(member_id)
                if member is not None:
                    lines.add(f"trait-{inner_kind(member)} {name}::{member['name']}")
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

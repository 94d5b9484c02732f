@0xe1f2a3b4c5d6e7f8;
# Bytes kept exactly: escapes \x80-\xff and octal in text and data,
# raw bytes that are not UTF-8 in doc comments (here: ÿþ), and an
# embedded file that is not UTF-8.

annotation note(*) :Text;

const magic :Data = "\x8f\xc6\xcd\xef\x45\x1a\xea\x96";
# Sandstorm's package.capnp spells its magic number this way.
const escapedText :Text = "caf\xc3\xa9 \xff\377\200 \101";
const octalData :Data = "\0\177\200\377";
const rawText :Text = "raw éÿ bytes";
const embedded :Data = embed "nonutf8.bin";
const embeddedText :Text = embed "nonutf8.bin";

struct Holder $note("\xfe annotated ÿ") {
  # A struct whose doc comment has a stray byte: €.
  text @0 :Text = "\xff default";
  # Field doc À¯.
  data @1 :Data = "\x00\xff";
  list @2 :List(Text) = ["\x80", "ok", "\377"];
}

const holder :Holder = (text = "\xfe", list = ["\xc3"]);

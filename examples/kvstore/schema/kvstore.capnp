# The key-value service's messages. A client sends a Request and reads
# one Response for it; requests on one connection are answered in order.
# (Doc comments follow what they document, as in the reference's own
# schemas.)
@0xf93959c8fe2e99a9;

struct Entry {
  key @0 :Text;
  value @1 :Data;
}

struct Request {
  id @0 :UInt64;
  # Echoed in the response, so a client checks it reads the answer to its
  # own request.

  union {
    get @1 :Text;
    # The value of this key.
    put @2 :Entry;
    # Sets a key's value, making the key or overwriting its value.
    delete @3 :Text;
    list @4 :ListRange;
  }

  struct ListRange {
    # The keys that start with `prefix`, in order, at most `limit` of
    # them (and at most the server's own limit).
    prefix @0 :Text;
    limit @1 :UInt32;
    keysOnly @2 :Bool;
    # Answer with the keys alone (Response.keys), not the entries.
  }
}

enum Status {
  ok @0;
  notFound @1;
  created @2;
  # A put that made a new key (an overwrite answers ok).
  full @3;
  # A put of a new key when the store holds as many keys as it may.
  badRequest @4;
  # The request could not be read; Response.error says why.
}

struct Response {
  id @0 :UInt64;
  status @1 :Status;

  union {
    none @2 :Void;
    value @3 :Data;
    entries @4 :List(Entry);
    keys @5 :List(Text);
  }

  error @6 :Text;
  # With badRequest: why the request could not be read.
  more @7 :Bool;
  # A list that stopped at a limit while more keys match.
}

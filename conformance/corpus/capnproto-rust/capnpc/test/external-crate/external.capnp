@0xe6f94f52f7be8fe2;

annotation annot (*) :Opts;

struct Opts {
    field @0 :Text;
}

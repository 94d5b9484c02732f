@0x9afc0f7513269df3;

struct Child {
  name @0 :Text;
}

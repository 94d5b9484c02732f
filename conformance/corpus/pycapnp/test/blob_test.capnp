@0xacfbfd0b7bde9594;

struct BlobTest {
    blob @0 :Data;
}
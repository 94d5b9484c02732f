@0xaa89f7261e168017;

interface SimpleInterface {
    subtract @0 (a :Int32, b :Int32) -> (result :Int32);
}

# The example service of capnarena-rpc: a calculator whose values and
# functions are capabilities, so a client can chain evaluations without
# waiting for each result (promise pipelining) and pass its own functions
# to the server.
@0x9e2b51d8f4c3a701;

interface Calculator {
  # Evaluates an expression; the value is a capability, usable at once.
  evaluate @0 (expression :Expression) -> (value :Value);

  # One of the four operators, as a function of two parameters.
  getOperator @1 (op :Operator) -> (func :Function);

  struct Expression {
    union {
      literal @0 :Float64;
      previousResult @1 :Value;
      # A value an earlier `evaluate` gave (it may not have arrived yet).
      call :group {
        function @2 :Function;
        params @3 :List(Expression);
      }
    }
  }

  interface Value {
    read @0 () -> (value :Float64);
  }

  # A function of numbers: the server's operators, or one of a client's.
  interface Function {
    call @0 (params :List(Float64)) -> (value :Float64);
  }

  enum Operator {
    add @0;
    subtract @1;
    multiply @2;
    divide @3;
  }
}

// x / y, as f32-div and f16-div time it. A file of this
// name in a --kernel-dir measures another implementation (a polynomial, a table) the same way.
fn value(a: A, b: A) -> R { return a / b; }

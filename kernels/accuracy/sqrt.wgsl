// sqrt(x), as f32-sqrt and f16-sqrt time it. A file of this
// name in a --kernel-dir measures another implementation (a polynomial, a table) the same way.
fn value(a: A, b: A) -> R { return sqrt(a); }

// log(x), as f32-log and f16-log time it. A file of this
// name in a --kernel-dir measures another implementation (a polynomial, a table) the same way.
fn value(a: A, b: A) -> R { return log(a); }

// pow(x, y), as f32-pow and f16-pow time it. A file of this
// name in a --kernel-dir measures another implementation (a polynomial, a table) the same way.
fn value(a: A, b: A) -> R { return pow(a, b); }

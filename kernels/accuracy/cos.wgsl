// cos(x), as f32-sincos and f16-sincos time it. A file of this
// name in a --kernel-dir measures another implementation (a polynomial, a table) the same way.
fn value(a: A, b: A) -> R { return cos(a); }

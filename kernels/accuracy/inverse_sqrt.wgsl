// inverseSqrt(x), as f32-rsqrt and f16-rsqrt time it. A file of this
// name in a --kernel-dir measures another implementation (a polynomial, a table) the same way.
fn value(a: A, b: A) -> R { return inverseSqrt(a); }

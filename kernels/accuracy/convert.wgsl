// The conversions f32 -> f16 and f16 -> f32, as f32-f16-convert times them (A and R differ).
fn value(a: A, b: A) -> R { return R(a); }

// The accuracy tests' inaccurate implementation: a polynomial in place of the sin builtin, as a
// kernel directory (x - x^3/6 + x^5/120: fine near 0, about 0.52 off at pi).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace wgb::test {

// A fresh folder holding accuracy/sin.wgsl; the caller removes it.
inline std::filesystem::path polynomial_sin_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir / "accuracy");
  std::ofstream(dir / "accuracy" / "sin.wgsl")
      << "fn value(a: A, b: A) -> R { let a2 = a * a; return a * (1.0 - a2 / 6.0 + a2 * a2 / 120.0); }\n";
  return dir;
}

}  // namespace wgb::test

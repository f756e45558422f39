// The width the command line lays its output out for.
#pragma once

#include <cstddef>

namespace wgb::cli {

// COLUMNS when it holds a width from 40 to 1000; else the width of the terminal on `fd`; else (a pipe
// or a file) report::kDefaultTableWidth, 100 columns.
std::size_t terminal_width(int fd = 1);

}  // namespace wgb::cli

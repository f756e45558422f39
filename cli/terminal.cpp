// The width the command line lays its output out for (see terminal.hpp).
#include "cli/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "report/table.hpp"

namespace wgb::cli {

std::size_t terminal_width(int fd) {
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && *columns != '\0') {
    char* end = nullptr;
    const long n = std::strtol(columns, &end, 10);
    if (*end == '\0' && n >= 40 && n <= 1000) return static_cast<std::size_t>(n);
  }
  winsize ws{};
  if (::isatty(fd) != 0 && ::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) return ws.ws_col;
  return report::kDefaultTableWidth;
}

}  // namespace wgb::cli

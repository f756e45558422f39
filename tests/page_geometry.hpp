// Layout checks of a page in headless Chromium (Debian's `chromium`): a copy of the page gets a
// small script that measures what the browser laid out, and --dump-dom returns its findings. The
// page is laid out in an iframe exactly `width` px wide (a headless window is at least 500 px, so
// a phone's 390 px needs the frame); the frame is same-origin (srcdoc) and reports to its parent.
// What it flags, at the window width given:
//   - overlapping chart labels (every `svg text.lbl` of one chart against the others),
//   - table header or key cells whose text spills out of the cell (labels over their values),
//   - identifiers broken over two lines (`td code`, the links of `td.id` cells and of first columns,
//     except device class names: a.cls),
//   - a page wider than the window (something that neither wraps nor scrolls in its own box).
// The pages themselves carry no script; only the measured copy does.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace wgb::test {

inline std::string find_chromium_binary() {
  if (const char* c = std::getenv("WGB_CHROMIUM"); c != nullptr && *c != '\0') return c;
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium"}) {
    if (::access(p, X_OK) == 0) return p;
  }
  return {};
}

inline constexpr const char* kGeometryScript = R"js(<script>
(function () {
  const out = [];
  const box = (e) => e.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  document.querySelectorAll('svg.chart').forEach((svg) => {
    const t = [...svg.querySelectorAll('text.lbl')].map((e) => [e.textContent, box(e)]);
    for (let i = 0; i < t.length; i++)
      for (let j = i + 1; j < t.length; j++)
        if (hit(t[i][1], t[j][1])) out.push('labels overlap in ' + svg.id + ': ' + t[i][0] + ' / ' + t[j][0]);
  });
  document.querySelectorAll('th').forEach((th) => {
    if (th.getClientRects().length === 0) return;  // not rendered (a closed <details>)
    if (th.scrollWidth > th.clientWidth + 1) out.push('cell text spills out: ' + th.textContent);
  });
  document.querySelectorAll('td code, td.id a, td:first-child > a:not(.cls)').forEach((e) => {
    const lines = new Set([...e.getClientRects()].map((r) => Math.round(r.top)));
    if (lines.size > 1) out.push('identifier broken over lines: ' + e.textContent);
  });
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    out.push('page wider than the window: ' + document.documentElement.scrollWidth + ' > ' + window.innerWidth);
  const pre = parent.document.createElement('pre');
  pre.textContent = 'GEOMETRY[' + out.join('\n') + ']GEOMETRY width=' + window.innerWidth;
  parent.document.body.appendChild(pre);
})();
</script>)js";

struct Geometry {
  bool ran = false;
  int width = 0;                      // the window's inner width the page was laid out at
  std::vector<std::string> problems;  // empty: nothing flagged
};

// Lays `html` out at `width` x 2000 px in `dir` and returns what the script found.
inline Geometry page_geometry(const std::string& chromium, const std::string& html, int width,
                              const std::filesystem::path& dir) {
  const auto page = dir / ("geometry-" + std::to_string(width) + ".html");
  std::string measured = html;
  const auto end = measured.rfind("</body>");
  measured.insert(end == std::string::npos ? measured.size() : end, kGeometryScript);
  std::string attr;  // the page as the iframe's srcdoc attribute
  for (char c : measured) {
    if (c == '&') {
      attr += "&amp;";
    } else if (c == '"') {
      attr += "&quot;";
    } else {
      attr += c;
    }
  }
  std::ofstream(page, std::ios::binary)
      << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\"><iframe width=\"" << width
      << "\" height=\"2000\" style=\"border:0;display:block\" srcdoc=\"" << attr << "\"></iframe></body></html>";
  const auto dom = dir / ("geometry-" + std::to_string(width) + ".dom");
  const std::string cmd = "timeout 120 '" + chromium +
                          "' --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run "
                          "--disable-extensions --user-data-dir='" +
                          (dir / "profile").string() + "' --window-size=" + std::to_string(width + 100) +
                          ",2100 --dump-dom 'file://" + page.string() + "' > '" + dom.string() + "' 2>/dev/null";
  Geometry g;
  if (std::system(cmd.c_str()) != 0) return g;
  std::ifstream in(dom, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto a = text.rfind("GEOMETRY["), b = text.rfind("]GEOMETRY width=");  // the last: the script holds them too
  if (a == std::string::npos || b == std::string::npos) return g;
  g.ran = true;
  g.width = std::atoi(text.c_str() + b + 16);
  std::string list = text.substr(a + 9, b - a - 9);
  for (std::size_t p = 0; p < list.size();) {
    const auto nl = list.find('\n', p);
    const std::string line = list.substr(p, nl == std::string::npos ? std::string::npos : nl - p);
    if (!line.empty()) g.problems.push_back(line);
    if (nl == std::string::npos) break;
    p = nl + 1;
  }
  return g;
}

}  // namespace wgb::test

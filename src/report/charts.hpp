// The report's SVG charts, for every page that shows them: the HTML report (report/html.hpp) and
// the results server's run page (store/html.hpp, "The Stack"). Each renderer returns a section of
// inline SVG with its heading: no script, nothing fetched, every string from a document escaped.
// Element ids come from one Ids per page, so several documents (or charts) never repeat one.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/document.hpp"
#include "report/files.hpp"

namespace wgb::report::charts {

// Element ids of one page: the first use of a name keeps it, later uses get "-2", "-3", ...
class Ids {
 public:
  std::string operator()(const std::string& name) {
    const int n = ++used_[name];
    return n == 1 ? name : name + "-" + std::to_string(n);
  }

 private:
  std::map<std::string, int> used_;
};

// The CSS rules the charts need (classes of svg.chart, the verdict boxes).
const char* css();
// The report page's own CSS (body, tables, boxes), for other self-contained pages.
const char* page_css();

// The roofline of one device: its rows under its own ceilings (find_ceilings: the GPU's, or the
// host CPU's in a host document), one roof per measured FLOP precision. `device` names it.
std::string roofline(const std::vector<ReportRow>& rows, const std::string& device, Ids& ids);
// Rate or latency against the swept parameter, one chart per benchmark and parameter of `doc`.
std::string curves(const Document& doc, Ids& ids);
// The host suite's curves (parameters.series: over thread count and working-set size).
std::string host_curves(const Document& doc, Ids& ids);
// Per technique family: bars with dispersion whiskers and the family's verdict (report/verdict.hpp).
std::string family_bars(const std::vector<ReportRow>& rows, Ids& ids);
// The memory suite's sustain timeline (memory-sustain's parameters.timeline).
std::string sustain_timeline(const std::vector<ReportRow>& rows, Ids& ids);
// After run --accuracy: each builtin's error against its probe's rate, and the entries tabled with
// their worst inputs (report/accuracy_html.cpp); nothing when no row carries accuracy.
std::string accuracy(const std::vector<ReportRow>& rows, Ids& ids);
// A hierarchy document's levels: their table and both curves with the boundaries marked
// (report/hierarchy_html.cpp); nothing for other documents.
std::string hierarchy(const Document& doc, Ids& ids);

}  // namespace wgb::report::charts

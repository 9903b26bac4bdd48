// SPDX-License-Identifier: MIT
// `fputune report`: the charts (gnuplot scripts, run once, SVG back) and the self-contained HTML page.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors.hpp"
#include "report_data.hpp"

namespace fputune::cli {

// gnuplot missing or failing: the machine failed us (exit 3), not the input.
struct ChartToolError : SystemError {
    using SystemError::SystemError;
};

struct Chart {
    std::string id;  // "c3": unique in the page; prefixes the ids inside its SVG
    std::string kind;  // "tradeoff" | "threshold" | "fpu"
    std::string title;  // the SVG's <title> and the figure's caption
    std::vector<std::string> series;  // the plot titles, in drawing order (gnuplot puts each in <g><title>)
    std::string script;  // gnuplot commands and data, after the terminal and output are set
    int width = 600, height = 470;  // the SVG's size (it scales with the page; the legend's rows set the height)
    std::string svg;  // filled by render_charts: inline SVG, ids prefixed, no XML prolog
};

// The charts of a report, keyed "tradeoff:<kernel>", "threshold:<algorithm>:<input>", "fpu".
std::map<std::string, Chart> report_charts(const ReportData& d);

// The gnuplot found on PATH; throws ChartToolError saying how to install it when there is none.
std::string find_gnuplot();

// Runs gnuplot once over every chart (its svg terminal) and fills Chart::svg. Throws ChartToolError when
// gnuplot fails or leaves a chart undrawn.
void render_charts(std::map<std::string, Chart>& charts, const std::string& gnuplot);

struct ReportContext {
    std::string command_line, date;
};

// The whole page: inline CSS and SVG only, no script, no URL of any kind.
std::string report_html(const ReportData& d, const std::map<std::string, Chart>& charts, const ReportContext& ctx);

std::string html_escape(const std::string& s);
// "[2]" of a machine label "[2] Intel(R) Xeon(R) Processor".
std::string machine_tag(const std::string& label);

}  // namespace fputune::cli

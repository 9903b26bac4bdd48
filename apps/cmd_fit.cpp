// SPDX-License-Identifier: MIT
// `fputune fit`: straight lines through a sweep's section costs, per kernel and cache state.
#include <iostream>

#include "atomic_file.hpp"
#include "cli.hpp"
#include "model_file.hpp"
#include "render.hpp"

namespace fputune::cli {

int run_fit(const Args& args) {
    po::options_description desc("fit options");
    desc.add_options()("input", po::value<std::string>()->default_value("fputune-sweep.json"),
                       "sweep file (or model file) to fit")("output,o", po::value<std::string>(),
                                                            "write the fputune.model/2 file here (atomically)")(
        "kernel,k", po::value<std::vector<std::string>>()->composing(), "only kernels matching GLOB (repeatable)")(
        "json", "print the model JSON instead of the table");
    po::positional_options_description pos;
    pos.add("input", 1);
    po::variables_map vm;
    if (!parse("fit", "[FILE] [-o model.json] [-k GLOB]... [--json]", desc, args, vm, true, &pos)) return kExitOk;
    const std::string input = vm["input"].as<std::string>();
    std::vector<std::string> globs;
    if (vm.count("kernel")) globs = vm["kernel"].as<std::vector<std::string>>();
    if (vm.count("output")) {
        check_writable(vm["output"].as<std::string>());
        refuse_same_files({{"-o", vm["output"].as<std::string>()}}, {{"", input}});
    }
    const ModelFile m = load_models(input, globs);
    const std::string text = to_json(m).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (vm.count("output")) write_file_atomic(vm["output"].as<std::string>(), text);
    if (vm.count("json")) {
        std::cout << text;
        return kExitOk;
    }
    std::cout << render_fit(m);
    if (vm.count("output")) std::cout << "wrote " << vm["output"].as<std::string>() << "\n";
    return kExitOk;
}

}  // namespace fputune::cli

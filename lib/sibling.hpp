// SPDX-License-Identifier: MIT
// A busy sibling on purpose: a co-runner on the SMT sibling of the measuring CPU, with one of a few standard
// loads, so that a sweep sees the worst a kernel meets on a machine with SMT on (docs/contention.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "kernel.hpp"
#include "sweep.hpp"

namespace fputune {

enum class SiblingLoad {
    int_alu,  // independent scalar integer chains: the integer ports
    vec_alu,  // independent SSE2 integer-vector chains: the vector ports our kernels use
    mem,  // a copy (read and write streams) over 512 MiB: the load and store ports, the caches, memory bandwidth
    // The swept kernels' own code: sections of about 4 KiB of the kernel set_kernel() names (the one the
    // main thread measures), or of each swept FPU kernel in turn while none is named: the ports, tables and
    // caches the kernel itself wants, as two requests of one algorithm on sibling threads meet.
    same,
};
const char* sibling_load_name(SiblingLoad l) noexcept;  // "int", "vec", "mem", "same"
// "busy" (= busy:vec), "busy:int", "busy:vec", "busy:mem", "busy:same"; nullopt for anything else.
std::optional<SiblingLoad> parse_sibling_option(std::string_view text) noexcept;
inline constexpr const char* kSiblingLoads = "busy, busy:int, busy:vec, busy:mem, busy:same";

// The sibling to load for `cpu` under `root` (doctor.hpp smt_siblings): the first, or nullopt with `why`
// saying what the topology shows.
std::optional<int> sibling_to_load(const std::string& root, int cpu, std::string& why);
// The neighbour to load for `cpu` (sweep --neighbour): a CPU of `allowed` that is neither `cpu` nor one of its
// SMT siblings under `root`, the last such; nullopt with `why` when there is none. Its loads share what cores
// share (memory bandwidth, the L3), not the core's ports: the `mem` load is the one that matters there.
std::optional<int> neighbour_to_load(const std::string& root, int cpu, const std::vector<int>& allowed,
                                     std::string& why);

// Runs a load on one CPU in its own thread while it is on (start/stop may be called many times: a sweep
// toggles it round by round); joined on destruction. `kernels`: what the `same` load runs (those that need
// the FPU; reference-only oracles left out); with none it runs the `vec` load instead.
class SiblingRunner {
public:
    SiblingRunner(int cpu, SiblingLoad load, const std::vector<const Kernel*>& kernels = {});
    ~SiblingRunner();
    SiblingRunner(const SiblingRunner&) = delete;
    SiblingRunner& operator=(const SiblingRunner&) = delete;
    void set_busy(bool busy) noexcept { busy_.store(busy, std::memory_order_relaxed); }
    bool busy() const noexcept { return busy_.load(std::memory_order_relaxed); }
    int cpu() const noexcept { return cpu_; }
    SiblingLoad load() const noexcept { return load_; }
    bool pinned() const noexcept { return pinned_.load(); }  // false: the thread could not be pinned to `cpu`
    // Work units the load has done (it runs while busy): > 0 proves it ran.
    std::uint64_t work() const noexcept { return work_.load(std::memory_order_relaxed); }
    // The `same` load: the kernel to run now (one of `kernels`; nullptr or another one: each in turn), set by
    // whoever knows what the measuring thread samples, and the sections of `k` it has run so far.
    void set_kernel(const Kernel* k) noexcept { current_.store(k, std::memory_order_relaxed); }
    const Kernel* named() const noexcept { return current_.load(std::memory_order_relaxed); }
    std::uint64_t runs_of(const Kernel* k) const noexcept;
    const std::vector<const Kernel*>& kernels() const noexcept { return kernels_; }

private:
    void loop();
    std::uint64_t same_load(std::size_t& next) noexcept;
    int cpu_;
    SiblingLoad load_;
    std::atomic<bool> busy_{false}, quit_{false}, pinned_{false};
    std::atomic<std::uint64_t> work_{0}, sink_{0};
    std::vector<std::uint64_t> stream_;  // the memory load's buffer
    // The `same` load: its kernels, a count of sections per kernel, the kernel named now, a key, a context
    // and the source and destination buffers (page-aligned within `buffer_`).
    std::vector<const Kernel*> kernels_;
    std::unique_ptr<std::atomic<std::uint64_t>[]> runs_;
    std::atomic<const Kernel*> current_{nullptr};
    std::vector<std::uint8_t> key_, buffer_;
    std::uint8_t* area_ = nullptr;
    alignas(kCtxAlign) std::uint8_t ctx_[kMaxCtxBytes] = {};
    std::thread thread_;
};

// The pool's on_point hook (sampler.hpp) for a sweep of `plan` with a `same` load: names to the runner the
// kernel of each point as it is sampled (the pool's points are plan's sections, then its thresholds, as
// measure_plan lists them). A pool of another number of points (another plan, such as a closed loop's
// extra points) names none: the runner takes each kernel in turn. Empty for any other load.
std::function<void(std::size_t, std::size_t)> same_kernel_hook(SiblingRunner& runner, SweepPlan plan);

}  // namespace fputune

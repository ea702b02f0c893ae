#include "tests/gpu/gpu_test_data.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "bench/gpu/pgm.hpp"
#include "common/error.hpp"
#include "common/model_io.hpp"
#include "gpu/cuda_check.hpp"

namespace fs = std::filesystem;

namespace cascade::test {

std::optional<std::string> gpu_data_dir() {
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("CASCADE_GPU_DATA")) candidates.emplace_back(env);
    candidates.emplace_back(fs::path("gpu-pack") / "data");
    candidates.emplace_back(fs::path(CASCADE_SOURCE_DIR) / "gpu-pack" / "data");
    for (const fs::path& dir : candidates)
        if (fs::is_directory(dir / "frames") && fs::is_directory(dir / "models")) return fs::canonical(dir).string();
    MESSAGE("SKIP: no GPU test data (run tools/gpu-pack, or set CASCADE_GPU_DATA to a folder with models/ and frames/)");
    return std::nullopt;
}

bool have_cuda_device() {
    if (gpu::cuda_device_available()) return true;
    MESSAGE("SKIP: no CUDA device");
    return false;
}

std::vector<Frame> load_frames(const std::string& data_dir, std::size_t limit) {
    std::vector<Frame> out;
    for (const std::string& path : list_pgm((fs::path(data_dir) / "frames").string())) {
        if (limit > 0 && out.size() == limit) break;
        out.push_back({fs::path(path).filename().string(), read_pgm(path)});
    }
    if (out.empty()) MESSAGE("SKIP: no frames in " << data_dir << "/frames");
    return out;
}

namespace {

template <class Cascade>
std::optional<Cascade> load_model_of_kind(const std::string& data_dir, const std::string& file) {
    const fs::path path = fs::path(data_dir) / "models" / file;
    if (!fs::exists(path)) {
        MESSAGE("SKIP: model " << path.string() << " not found");
        return std::nullopt;
    }
    Model model = load_model(path.string());
    if (!std::holds_alternative<Cascade>(model.cascade)) throw InputError(path.string(), "not a model of the expected kind");
    return std::get<Cascade>(std::move(model.cascade));
}

}  // namespace

std::optional<LbpCascade> load_lbp_model(const std::string& data_dir, const std::string& file) {
    return load_model_of_kind<LbpCascade>(data_dir, file);
}

std::optional<HogCascade> load_hog_model(const std::string& data_dir, const std::string& file) {
    return load_model_of_kind<HogCascade>(data_dir, file);
}

std::optional<HaarCascade> load_haar_model(const std::string& data_dir, const std::string& file) {
    return load_model_of_kind<HaarCascade>(data_dir, file);
}

}  // namespace cascade::test

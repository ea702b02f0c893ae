// Data for the GPU tests, which run where OpenCV's codecs are absent: models and real frames as PGM files in
// one folder (tools/gpu-pack fills it: models/*.xml, frames/*.pgm).
// Every function that finds something missing prints a "SKIP: ..." MESSAGE and returns empty, so a test that
// lacks its data or its GPU says so and returns, never passes silently.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/image.hpp"
#include "common/model.hpp"

namespace cascade::test {

// $CASCADE_GPU_DATA, else gpu-pack/data in the working directory, else in the source tree.
std::optional<std::string> gpu_data_dir();

// True when a CUDA device is present; otherwise prints "SKIP: no CUDA device".
bool have_cuda_device();

struct Frame {
    std::string label;
    GrayImage image;
};
// frames/*.pgm of the data folder, sorted by name; at most `limit` (0: all).
std::vector<Frame> load_frames(const std::string& data_dir, std::size_t limit = 0);

// models/<file> of the data folder as an LBP, HoG or Haar cascade (InputError when it is of another kind).
std::optional<LbpCascade> load_lbp_model(const std::string& data_dir, const std::string& file);
std::optional<HogCascade> load_hog_model(const std::string& data_dir, const std::string& file);
std::optional<HaarCascade> load_haar_model(const std::string& data_dir, const std::string& file);

}  // namespace cascade::test

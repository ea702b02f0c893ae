// A cascade-detect run read back from its JSON (`cascade-detect --output RUN.json`, any backend), and its
// detections assigned to annotated images, for cascade-eval image --detections.
//
// Required: "files" (every input the run read; cascade-detect lists them) and "detections" (objects with
// "file" among them, integer "frame" >= 0, integer "x", "y", positive integer "w", "h", finite "score").
// "model", "backend", "gpu" and "parameters" are read when present (strings, numbers, null, {width,
// height}), so the results show what was run. Anything else is bad input: InputError naming the file.
//
// Which file of the run is which annotated image:
//   1. the same path: both made absolute from the working directory and normalised (symbolic links
//      resolved), so a run made from the same folder as cascade-eval matches by the path it printed;
//   2. then, for what is left on both sides, the same file name when it names exactly one annotated image
//      and one file of the run (a run made on another machine, or from another folder).
// Every annotated image must be matched: one the run did not read has unknown detections, and counting it
// as empty would raise the miss rate unnoticed, so it is an error naming it. Files of the run that are no
// annotated image are left out (and counted). A run that read one image twice is refused.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/detection.hpp"
#include "data/annotations.hpp"

namespace cascade::eval {

struct DetectionRun {
    std::string path;   // the JSON file
    std::string model;  // its "model" (empty when absent)
    std::vector<std::pair<std::string, std::string>> settings;  // backend, gpu and parameters, as text
    std::vector<std::string> files;                             // as the run printed them
    std::vector<std::vector<Detection>> detections;             // per file
};

DetectionRun read_detection_run(const std::string& path);

struct RunOnImages {
    std::vector<std::vector<Detection>> detections;  // per annotated image
    int by_name = 0;                                  // images matched by file name only (rule 2)
    int left_out = 0;                                 // files of the run that are no annotated image
};

RunOnImages detections_on(const DetectionRun& run, const std::vector<data::AnnotatedImage>& images);

}  // namespace cascade::eval

// Pieces of the project's XML model format (docs/model-format.md) shared by common/model_xml.cpp and the
// per-kind files (common/hog_model_xml.cpp, common/haar_model_xml.cpp, common/cov_model_xml.cpp).
#pragma once

#include <string>
#include <vector>

#include <tinyxml2.h>

#include "common/model.hpp"

namespace cascade {

// <stages> of <stage first count threshold [accept]> (accept from format version 2).
void read_stages(const tinyxml2::XMLElement& stages_el, long long version, std::vector<Stage>& stages,
                 const std::string& source);
// The XML declaration, the <cascade_model> start tag and <window>.
void append_header(std::string& out, const char* kind, SumPolicy policy, Size window);
void append_stages(std::string& out, const std::vector<Stage>& stages);

// The <weak_learners> of a hog model: <hog> elements in order (common/hog_model_xml.cpp); to_xml: the whole model.
void read_hog_weaks(const tinyxml2::XMLElement& list, long long version, HogCascade& c, const std::string& source);
std::string to_xml(const HogCascade& c);
// Kind lbp (common/lbp_model_xml.cpp): the <lbp> elements of <weak_learners>, <responses count>, the final
// <histogram-svm> (format version 9; checked by validate), and the whole model.
void read_lbp_weaks(const tinyxml2::XMLElement& list, LbpCascade& c, const std::string& source);
void read_responses(const tinyxml2::XMLElement& e, std::vector<float>& responses, const std::string& source);
LbpHistogramSvm read_histogram_svm(const tinyxml2::XMLElement& e, long long version, const std::string& source);
std::string to_xml(const LbpCascade& c);

// The <weak_learners> of a haar model: <tree> elements in order (appended to c.weaks, c.nodes, c.leaves).
void read_haar_weaks(const tinyxml2::XMLElement& list, HaarCascade& c, const std::string& source);
void append_haar_weaks(std::string& out, const HaarCascade& c);
std::string to_xml(const HaarCascade& c);

// The <weak_learners> of a cov model: <cov> elements in order (common/cov_model_xml.cpp); to_xml: the whole model.
void read_cov_weaks(const tinyxml2::XMLElement& list, long long version, CovCascade& c, const std::string& source);
std::string to_xml(const CovCascade& c);

}  // namespace cascade

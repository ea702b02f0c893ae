// Small tinyxml2 helper shared by the model readers.
#pragma once

#include <string>

#include <tinyxml2.h>

namespace cascade {

// All text directly inside `e` (comments between elements skipped), pieces joined by a space, so that a
// number list split by comments or elements reads as one whitespace-separated list.
inline std::string xml_text_of(const tinyxml2::XMLElement& e) {
    std::string out;
    for (const tinyxml2::XMLNode* n = e.FirstChild(); n; n = n->NextSibling())
        if (const auto* t = n->ToText()) {
            out += t->Value();
            out += ' ';
        }
    return out;
}

}  // namespace cascade

#pragma once
// Whether this test build runs under AddressSanitizer (tools/sanitize), where the code runs 20-40x slower: a test
// with a long loop over real data takes a smaller share of the same data there, so CI stays within its time.
#if defined(__SANITIZE_ADDRESS__)
#define CASCADE_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CASCADE_TEST_SANITIZED 1
#endif
#endif

namespace cascade::test {
#ifdef CASCADE_TEST_SANITIZED
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
}  // namespace cascade::test

// The standalone driver of a fuzz harness for the ordinary (GCC) build: replays every file of the
// seed corpus, then a few thousand inputs derived from them by deterministic mutations (bit
// flips, byte insertions and deletions, truncations, splices of two seeds, deep nesting of
// brackets). A harness that crashes or hangs here fails its ctest. Long runs use libFuzzer
// instead (scripts/fuzz-long.sh builds the same harnesses with clang -fsanitize=fuzzer).
//
// Usage: fuzz_<name> CORPUS_DIR [RUNS] [SEED]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<std::string> readCorpus(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<std::string> out;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        out.push_back(ss.str());
    }
    return out;
}

std::string mutate(const std::vector<std::string>& seeds, std::mt19937_64& rng) {
    std::string s = seeds[rng() % seeds.size()];
    const int edits = 1 + int(rng() % 8);
    for (int e = 0; e < edits; ++e) {
        const size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
        switch (rng() % 7) {
        case 0:
            if (!s.empty()) s[at % s.size()] ^= char(1u << (rng() % 8));
            break;
        case 1: s.insert(at, 1, char(rng() % 256)); break;
        case 2:
            if (!s.empty()) s.erase(at % s.size(), 1 + rng() % 16);
            break;
        case 3: s.resize(at); break;
        case 4: {
            const std::string& other = seeds[rng() % seeds.size()];
            const size_t from = other.empty() ? 0 : rng() % other.size();
            s.insert(at, other.substr(from, rng() % 64));
            break;
        }
        case 5: {  // deep nesting: what recursive parsers fall over
            static const char* opens = "([{";
            static const char* closes = ")]}";
            const int k = int(rng() % 3);
            const size_t depth = 1 + rng() % 5000;
            s.insert(at, std::string(depth, opens[k]) + std::string(depth, closes[k]));
            break;
        }
        default: {  // a structural token of the formats under test
            static const char* tokens[] = {"\n", "\"", "\\", "{", "}", "[", "]", ",", ":", "null", "-1e309",
                                           "<<<<<<< SEARCH\n", "=======\n", ">>>>>>> REPLACE\n", "```", "data: ",
                                           "\r\n", "(", ")", "min(", "ceil_div(", "\xff\xfe", "0x", "9999999999999999999"};
            s.insert(at, tokens[rng() % (sizeof tokens / sizeof *tokens)]);
        }
        }
    }
    return s;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR [RUNS] [SEED]\n", argv[0]);
        return 2;
    }
    const auto seeds = readCorpus(argv[1]);
    if (seeds.empty()) {
        std::fprintf(stderr, "%s: the corpus folder %s holds no seed\n", argv[0], argv[1]);
        return 2;
    }
    const long runs = argc > 2 ? std::atol(argv[2]) : 2000;
    std::mt19937_64 rng(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 20261204);
    for (const auto& s : seeds) LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
    for (long i = 0; i < runs; ++i) {
        const std::string s = mutate(seeds, rng);
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
    }
    std::printf("%s: %zu seeds and %ld mutated inputs, no crash\n", argv[0], seeds.size(), runs);
    return 0;
}

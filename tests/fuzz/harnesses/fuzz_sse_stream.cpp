// A model server's streamed reply: the bytes of an HTTP body fed to the exchange's SSE reader in
// chunks of the size the first byte picks, as curl's write callback would. Besides not crashing,
// what the reader passes on must never contain the API key, however the stream splits it.
#include "FuzzInput.h"
#include "core/agent/src/OpenAiExchange.h"

#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const char* contentTypes[] = {"text/event-stream", "application/json", "", "text/plain; charset=utf-8"};
    static const std::string key = "sk-fuzz-secret";
    if (size < 1) return 0;
    const size_t chunk = 1 + data[0] % 97;
    std::string seen;
    const std::function<void(const std::string&)> onToken = [&](const std::string& piece) { seen += piece; };
    try {
        sage::agent::Exchange ex;
        ex.onToken = &onToken;
        ex.key = key;
        ex.maxBytes = 1u << 16;  // small, so that the size cap is reached too
        ex.header("HTTP/1.1 200 OK");
        ex.header(std::string("Content-Type: ") + contentTypes[(data[0] >> 6) & 3]);
        const std::string body = sage::fuzz::text(data + 1, size - 1);
        for (size_t at = 0; at < body.size(); at += chunk)
            if (!ex.write(body.data() + at, std::min(chunk, body.size() - at))) break;
        if (ex.mode == sage::agent::Exchange::Mode::Events) ex.finishEvents();
    } catch (const std::exception&) {
    }
    if (seen.find(key) != std::string::npos) {
        std::fprintf(stderr, "fuzz_sse_stream: the API key reached onToken\n");
        std::abort();
    }
    return 0;
}

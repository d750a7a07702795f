// The text of a synchronisation between two pipes, shared by precise_sync and the race repairs.
#pragma once

#include <string>

namespace sage::agent::transforms::sync {

// "AscendC::SetFlag<AscendC::HardEvent::A_B>(EVENT_IDn); AscendC::WaitFlag<...>(EVENT_IDn);" with an
// event id the kernel does not use for that event, or "AscendC::PipeBarrier<PIPE_A>();" when both
// pipes are the same, or a PIPE_ALL barrier when the pair has no HardEvent.
std::string waitFor(const std::string& source, const std::string& fromPipe, const std::string& toPipe);

} // namespace sage::agent::transforms::sync

// The kind of a diagnostic: what the source check, the compiler or the simulator found. Every kind
// this version emits has a code; a kind read from outside that this version does not know keeps
// its text (code Other), so it is shown, matched and written back unchanged. The spelling is the
// one earlier versions stored ("capacity_exceeded", "race_raw", ...); docs/kernel-api.md lists the
// simulator's kinds.
#pragma once

#include <string>
#include <string_view>

namespace sage::toolchain {

class DiagnosticKind {
public:
    enum Code {
        Other,  // a kind this version does not know (text())
        // the source check and the compiler
        CompileError, CompileWarning, LinkError, RejectedInclude, RejectedApi, RejectedPath, RejectedProgram,
        // the simulator: memory and copies
        CapacityExceeded, MisalignedAddress, DatacopyNot32bMultiple, DatacopyParams, GmOutOfBounds, LocalOutOfBounds,
        UbUninitialisedRead, AddressOverlap, GatherOffsetOutOfRange, GathermaskPattern,
        // queues and buffers
        TooManyAllocs, AllocNoFreeBuffer, EnqueBeyondDepth, DequeEmpty, InvalidFree, InvalidEnque, QueueNotInitialised,
        TbufNotInitialised,
        // synchronisation
        FlagUnpaired, BadEventId, Deadlock, RaceRaw, RaceWar, RaceWaw,
        // instructions
        VectorCountExceedsTensor, RepeatExceeds255, ReduceParams, ReduceRegisterUnset, WrongPosition, WrongDtype,
        MatmulOperandMissing, MmadBiasIgnored, Unsupported,
        // the launch and the kernel's own code
        LaunchInvalid, AssertFailed, KernelException,
        // Not a diagnostic anyone emits: the failure kind of a run that ended but did not verify
        // (repair planning and memory triggers name it like a diagnostic).
        WrongResult,
    };

    DiagnosticKind(Code code = Other) : code_(code) {}  // implicit: `d.kind = DiagnosticKind::Deadlock`
    // The kind spelled `text`; never fails (an unknown text is Other and kept).
    static DiagnosticKind parse(std::string_view text);

    Code code() const { return code_; }
    // The spelling: the code's name, or the text an Other kind was read from.
    std::string_view name() const;
    static std::string_view nameOf(Code code);  // "other" for Other
    bool isRace() const { return code_ == RaceRaw || code_ == RaceWar || code_ == RaceWaw; }

    bool operator==(Code code) const { return code_ == code; }
    bool operator==(const DiagnosticKind& other) const { return code_ == other.code_ && text_ == other.text_; }

private:
    Code code_;
    std::string text_;  // only for Other
};

} // namespace sage::toolchain

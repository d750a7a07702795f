#include "sage_memory/Statement.h"

namespace sage::memory {

Statement::~Statement() = default;

Statement& Statement::bind(int index, std::int64_t value) {
    impl_->bindInt64(index, value);
    return *this;
}

Statement& Statement::bind(int index, double value) {
    impl_->bindDouble(index, value);
    return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
    impl_->bindText(index, value);
    return *this;
}

Statement& Statement::bind(int index, const std::optional<std::int64_t>& value) {
    return value ? bind(index, *value) : bindNull(index);
}

Statement& Statement::bind(int index, const std::optional<double>& value) {
    return value ? bind(index, *value) : bindNull(index);
}

Statement& Statement::bindNull(int index) {
    impl_->bindNull(index);
    return *this;
}

bool Statement::step() { return impl_->step(); }

void Statement::run() {
    while (step()) {
    }
    reset();
}

void Statement::reset() { impl_->reset(); }

void Statement::resetQuietly() noexcept {
    if (impl_) impl_->resetQuietly();
}

std::int64_t Statement::int64(int column) const { return impl_->int64(column); }
double Statement::real(int column) const { return impl_->real(column); }
std::string Statement::text(int column) const { return impl_->text(column); }
bool Statement::isNull(int column) const { return impl_->isNull(column); }

std::optional<std::int64_t> Statement::optionalInt64(int column) const {
    if (isNull(column)) return std::nullopt;
    return int64(column);
}

std::optional<double> Statement::optionalReal(int column) const {
    if (isNull(column)) return std::nullopt;
    return real(column);
}

} // namespace sage::memory

#include "models/common/Payload.h"

namespace cclsim {

PayloadStats& payloadStats() {
    static PayloadStats s;
    return s;
}

}  // namespace cclsim

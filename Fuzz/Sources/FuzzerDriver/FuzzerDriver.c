// The declaration in include/FuzzerDriver.h is all this target holds; libFuzzer itself is linked by
// `-sanitize=fuzzer`.
#include "FuzzerDriver.h"

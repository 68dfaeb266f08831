// libFuzzer's driver (compiler-rt, FuzzerInterface.h): runs the fuzzing loop with `callback` as the target, as
// libFuzzer's own `main` does. The fuzz targets call it from their own entry point, because SwiftPM names every
// executable's entry point itself.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

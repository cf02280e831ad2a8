// libFuzzer's entry for programs that keep their own main (LLVM 11 and later; clang's runtime, linked by
// -sanitize=fuzzer). Declared here because it has no header of its own; nothing is linked unless used.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

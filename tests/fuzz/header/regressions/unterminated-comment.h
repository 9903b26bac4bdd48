/* never closed
#define FPUTUNE_SHA256_FPU_BYTES 4096

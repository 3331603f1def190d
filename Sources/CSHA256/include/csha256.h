#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// Nonzero when this CPU has the SHA extensions (x86-64 SHA-NI with SSSE3 and SSE4.1).
int vellum_sha256_hardware_available(void);

/// Compresses `blocks` 64-byte blocks at `data` into `state` (the eight working words
/// a…h in FIPS 180-4 order) with the SHA instructions, `round_constants` being the
/// standard's 64 constants K (the caller's table: kept in one place, `SHA256.swift`).
/// Call only when `vellum_sha256_hardware_available()` is nonzero.
void vellum_sha256_compress_hardware(uint32_t state[8], const uint8_t *data, size_t blocks,
                                     const uint32_t round_constants[64]);

#endif

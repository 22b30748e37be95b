/* assert.h for the freestanding WebAssembly build (sdk/js/wasm): a failed assertion traps,
 * which node reports as a WebAssembly.RuntimeError (the engine's asserts guard invariants
 * that valid calls keep; okr_wasm.c checks every input before it reaches the engine). */
#ifndef OKR_WASM_ASSERT_H
#define OKR_WASM_ASSERT_H
#ifdef NDEBUG
#define assert(x) ((void)0)
#else
#define assert(x) ((x) ? (void)0 : __builtin_trap())
#endif
#endif

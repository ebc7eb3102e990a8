/*
 * A one-function Node-API addon: `reset()` empties the x87/MMX register stack (EMMS) and clears pending x87
 * exceptions (FNCLEX).
 *
 * Why: on x86-64 Linux, litesvm's SBF JIT leaves MMX state behind after some programs (the Associated Token
 * Account and Memo programs among them): all eight x87 registers tagged in use. The next x87 computation on
 * that thread overflows the register stack and yields NaN; V8's garbage collector sizes a hash table with
 * `long double` math (libstdc++), gets a huge bucket count and aborts the process with std::bad_alloc
 * (litesvm issue #171). Emptying the stack after every SVM call keeps the thread's FPU state clean.
 */
#include <node_api.h>

static napi_value reset(napi_env env, napi_callback_info info) {
  (void)env;
  (void)info;
#if defined(__x86_64__) || defined(__i386__)
  __asm__ volatile("emms\n\tfnclex" ::: "memory");
#endif
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  if (napi_create_function(env, "reset", NAPI_AUTO_LENGTH, reset, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "reset", fn) != napi_ok) return NULL;
  return exports;
}

NAPI_MODULE(fpu_reset, init)

/* hipwb/push_macros.h — opens a region in which user macros cannot rewrite the prelude.
 *
 * Every name the prelude declares for itself (parameters, locals, template parameters,
 * private members) is spelled in the implementation's reserved namespace (`__x`, `__T`), as
 * standard libraries do, so `-DN=256` or `-DT=float` cannot reach it. A few names cannot be
 * spelled that way: the public members x, y, z, w of dim3, the vector types and threadIdx & co.
 * (and f of hipChannelFormatDesc), which HIP's API fixes; a and b, the members a() and b() of
 * std::uniform_int_distribution, which libstdc++'s <algorithm> declares (hipwb/std.h includes
 * it, as ROCm's headers do); and the tokens `property`/`get` of
 * `__declspec(property(get = ...))` and `contract`/`off` of `#pragma clang fp contract(off)`,
 * which clang reads with macro expansion. This header saves any user macro of those names and
 * removes it; hipwb/pop_macros.h restores it. Each public `hip/` header includes the pair around
 * its body (no include guard: the pairs nest). A user macro named x still rewrites the user's
 * own `v.x`, as it would with ROCm's headers.
 */
#pragma push_macro("x")
#pragma push_macro("y")
#pragma push_macro("z")
#pragma push_macro("w")
#pragma push_macro("f")
#pragma push_macro("a")
#pragma push_macro("b")
#pragma push_macro("property")
#pragma push_macro("get")
#pragma push_macro("contract")
#pragma push_macro("off")
#undef x
#undef y
#undef z
#undef w
#undef f
#undef a
#undef b
#undef property
#undef get
#undef contract
#undef off

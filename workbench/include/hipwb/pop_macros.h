/* hipwb/pop_macros.h — closes the region hipwb/push_macros.h opened: restores the user's
 * macros named x, y, z, w, f, a, b, property, get, contract and off (if any). */
#pragma pop_macro("x")
#pragma pop_macro("y")
#pragma pop_macro("z")
#pragma pop_macro("w")
#pragma pop_macro("f")
#pragma pop_macro("a")
#pragma pop_macro("b")
#pragma pop_macro("property")
#pragma pop_macro("get")
#pragma pop_macro("contract")
#pragma pop_macro("off")

// use_copy_lib.cpp: a plain C++ program that uses the copy library; it never sees a kernel.
// Part of hipwb's fieldwork corpus.
#include "copy_lib.hpp"

#include <iostream>
#include <numeric>
#include <vector>

int main()
{
    std::vector<uint32_t> words(1000), back;
    std::iota(words.begin(), words.end(), 100u);
    const int status = copylib::round_trip(words, back);
    std::cout << (status == 0 ? "round trip exact" : "round trip FAILED") << std::endl;
    return status;
}

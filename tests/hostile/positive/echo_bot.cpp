// echo_bot.cpp - the positive suite's C++ bot: a random legal action through the C SDK, with
// what a C++ program usually brings along (libstdc++, exceptions, a std::thread, iostreams),
// so that the native seccomp profile is checked against a real C++ runtime.
#include <atomic>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "okbot.h"

namespace {
std::mt19937_64 rng(12345);
std::atomic<long> decisions{0};

int decide(const okb_decision *d, void *)
{
    std::vector<int> idx(static_cast<size_t>(d->n));
    for (int i = 0; i < d->n; i++)
        idx[static_cast<size_t>(i)] = i;
    try {
        if (idx.empty())
            throw std::runtime_error("no legal action");
    } catch (const std::exception &e) {
        std::cerr << "echo_bot.cpp: " << e.what() << "\n";
        return 0;
    }
    decisions++;
    return idx[rng() % idx.size()];
}
} // namespace

int main()
{
    // a worker thread at startup, like many real bots (search threads): clone(CLONE_THREAD)
    std::string warm;
    std::thread t([&warm] { warm = "warm"; });
    t.join();
    std::cerr << "echo_bot.cpp: " << warm << "\n";
    okb_bot bot{};
    bot.name = "echo-cpp";
    bot.version = "1.0";
    bot.decide = decide;
    int rc = okb_run(&bot, nullptr);
    std::cerr << "echo_bot.cpp: " << decisions.load() << " decisions\n";
    return rc;
}

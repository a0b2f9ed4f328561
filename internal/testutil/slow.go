package testutil

import "time"

// Slow is the longest a test lets something take that the program does at
// once: a set shown, an asker ended, a connection closed. A machine busy
// with the whole suite, or with two suites side by side, stays far below
// it (the worst seen was about a second), and a hold-up for ever, or for
// the tens of seconds of a timer that should not have run, still fails the
// test. How fast these things are is measured by the benchmarks
// (docs/performance.md), not by the tests.
const Slow = 10 * time.Second

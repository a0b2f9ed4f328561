// Command hello is the floor for any Go program: scripts/bench.sh builds it
// as askuser is built and measures askuser's start-up against it.
package main

import "fmt"

func main() { fmt.Println("hello, world") }

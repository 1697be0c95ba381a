// Command kviz is a terminal lab for Apache Kafka partition assignment and
// rebalancing. See README.md.
package main

import (
	"os"

	"github.com/kvizlab/kviz/cli"
)

func main() {
	os.Exit(cli.Execute(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

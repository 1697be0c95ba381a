// Command scalegen writes issue 21's Kafka-scale scenarios (model/modeltest.Scale)
// to files, for scripts/scale.sh and for opening in the lab:
//
//	go run ./scripts/scalegen -members 10000 -partitions 500000 -topics 1000 -strategy uniform -given -crash > big.yaml
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/kvizlab/kviz/model/modeltest"
)

func main() {
	var s modeltest.Scale
	flag.IntVar(&s.Members, "members", 10000, "consumers in the group")
	flag.IntVar(&s.Partitions, "partitions", 500000, "partitions in all, spread evenly over the topics")
	flag.IntVar(&s.Topics, "topics", 1000, "topics")
	flag.StringVar(&s.Strategy, "strategy", "uniform", "assignor (its preferred protocol is the group's)")
	flag.BoolVar(&s.Given, "given", false, "start Stable with the assignor's answer owned (else every member joins at 0)")
	flag.BoolVar(&s.Crash, "crash", false, "crash the first member at 10 s")
	flag.StringVar(&s.KafkaVersion, "kafka-version", "", "group.kafka_version (default 4.1)")
	tenth := flag.Bool("tenth", false, "the same scenario at a tenth of the size")
	flag.Parse()
	if *tenth {
		s = s.Tenth()
	}
	y, err := s.YAML()
	if err != nil {
		fmt.Fprintln(os.Stderr, "scalegen:", err)
		os.Exit(2)
	}
	os.Stdout.WriteString(y)
}

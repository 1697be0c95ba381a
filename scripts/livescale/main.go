// Command livescale measures kviz live on a KIP-848 consumer group of
// Kafka scale (issue 21) without a client per member: it starts kfake in
// process, drives -members member ids through ConsumerGroupHeartbeat from
// one kgo client as real consumers would (join, take the assignment, confirm
// it as owned partitions until every member is stable), then runs the kviz
// binary given by -kviz on it:
//
//	kviz live --bootstrap-server ADDR --group G --scenario > g.yaml
//	kviz whatif g.yaml --at-ms 0 --leave MEMBER
//
// and prints each one's wall time and peak memory (the child's max RSS).
// With -hold it then keeps the cluster up until interrupted, printing its
// address, so a profile or another binary can read the same group without
// building it again (minutes at 10,000 members).
//
// See livetest.StartScale for how the group is built.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/kvizlab/kviz/live/livetest"
)

func main() {
	members := flag.Int("members", 10000, "group members")
	topics := flag.Int("topics", 1000, "topics")
	parts := flag.Int("partitions", 500, "partitions per topic")
	kviz := flag.String("kviz", "kviz", "the kviz binary to measure")
	out := flag.String("out", os.TempDir(), "where g.yaml goes")
	runs := flag.Int("runs", 1, "how many times to run each kviz command")
	hold := flag.Bool("hold", false, "keep the cluster up afterwards, until interrupted")
	flag.Parse()
	if err := run(*members, *topics, int32(*parts), *kviz, *out, *runs, *hold); err != nil {
		fmt.Fprintln(os.Stderr, "livescale:", err)
		os.Exit(1)
	}
}

func run(members, topics int, parts int32, kviz, out string, runs int, hold bool) error {
	c, ids, err := livetest.StartScale(context.Background(), members, topics, parts, func(f string, a ...any) { fmt.Printf(f+"\n", a...) })
	if err != nil {
		return err
	}
	defer c.Close()
	addr, group := c.ListenAddrs()[0], livetest.ScaleGroup
	yaml := filepath.Join(out, fmt.Sprintf("livescale-%d.yaml", members))
	for r := 0; r < runs; r++ {
		if err := measure("live --scenario", yaml, kviz, "live", "--bootstrap-server", addr, "--group", group, "--scenario", "--timeout", "30m"); err != nil {
			return err
		}
	}
	for r := 0; r < runs; r++ {
		if err := measure("whatif --leave", "", kviz, "whatif", yaml, "--at-ms", "0", "--leave", ids[members/2]); err != nil {
			return err
		}
	}
	if hold {
		fmt.Printf("holding: kviz live --bootstrap-server %s --group %s (interrupt to stop)\n", addr, group)
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
		<-stop
	}
	return nil
}

// measure runs kviz with args, its stdout to stdoutPath (or discarded), and
// prints its wall time and peak RSS.
func measure(what, stdoutPath, kviz string, args ...string) error {
	cmd := exec.Command(kviz, args...)
	cmd.Stderr = os.Stderr
	var f *os.File
	if stdoutPath != "" {
		var err error
		if f, err = os.Create(stdoutPath); err != nil {
			return err
		}
		defer f.Close()
		cmd.Stdout = f
	}
	t := time.Now()
	err := cmd.Run()
	wall := time.Since(t)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	size := ""
	if f != nil {
		if st, err := f.Stat(); err == nil {
			size = fmt.Sprintf(", output %.1f MB", float64(st.Size())/1e6)
		}
	}
	fmt.Printf("%-16s wall %6.2f s  cpu %6.2f s  peak RSS %6.0f MB%s\n", what, wall.Seconds(),
		(time.Duration(ru.Utime.Nano()) + time.Duration(ru.Stime.Nano())).Seconds(), float64(ru.Maxrss)/1024, size)
	return nil
}

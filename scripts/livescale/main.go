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
//
// Members subscribe by name and join before the topics exist, then the
// topics are created in one request: kfake recomputes its whole target
// assignment (over every member's subscription and every partition) on each
// join, so with no partitions yet a join costs it members x topics, not
// members x topics + partitions, and the partitions are assigned once.
// (A pattern subscription would make the joins cheaper still, but kfake's
// ConsumerGroupDescribe leaves a pattern member's subscription out and
// assignments carry only topic ids, so kviz could not name its topics.) Its
// uniform assignor is sticky and every member is present, so no partition
// needs revoking and two heartbeats per member reach Stable.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func main() {
	members := flag.Int("members", 10000, "group members")
	topics := flag.Int("topics", 1000, "topics")
	parts := flag.Int("partitions", 500, "partitions per topic")
	kviz := flag.String("kviz", "kviz", "the kviz binary to measure")
	out := flag.String("out", os.TempDir(), "where g.yaml goes")
	runs := flag.Int("runs", 1, "how many times to run each kviz command")
	flag.Parse()
	if err := run(*members, *topics, int32(*parts), *kviz, *out, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "livescale:", err)
		os.Exit(1)
	}
}

const group = "scale"

func run(members, topics int, parts int32, kviz, out string, runs int) error {
	ctx := context.Background()
	t0 := time.Now()
	c, err := kfake.NewCluster(kfake.NumBrokers(1),
		kfake.GroupMaxSessionTimeout(time.Hour),
		kfake.BrokerConfigs(map[string]string{
			"group.consumer.session.timeout.ms":     "3600000",
			"group.consumer.max.session.timeout.ms": "3600000",
			"group.consumer.heartbeat.interval.ms":  "5000",
			"group.consumer.max.size":               "1000000",
		}))
	if err != nil {
		return err
	}
	defer c.Close()
	addr := c.ListenAddrs()[0]
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ClientID("livescale"))
	if err != nil {
		return err
	}
	defer cl.Close()

	names := make([]string, topics)
	for i := range names {
		names[i] = fmt.Sprintf("t%04d", i)
	}
	ids := make([]string, members)
	epochs := make([]int32, members)
	owned := make([][]kmsg.ConsumerGroupHeartbeatRequestTopic, members)
	for i := range ids {
		ids[i] = fmt.Sprintf("member-%06d-%08x", i, uint32(i)*2654435761)
	}
	// Join: epoch 0, an empty owned list, the pattern and the assignor.
	if err := each(members, func(i int) error {
		req := kmsg.NewPtrConsumerGroupHeartbeatRequest()
		req.Group, req.MemberID, req.MemberEpoch = group, ids[i], 0
		req.RebalanceTimeoutMillis = 60000
		req.SubscribedTopicNames = names
		req.ServerAssignor = kmsg.StringPtr("uniform")
		req.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{}
		resp, err := req.RequestWith(ctx, cl)
		if err == nil && resp.ErrorCode != 0 {
			err = fmt.Errorf("join %s: error code %d", ids[i], resp.ErrorCode)
		}
		if err != nil {
			return err
		}
		epochs[i] = resp.MemberEpoch
		return nil
	}); err != nil {
		return err
	}
	fmt.Printf("joined %d members in %s\n", members, time.Since(t0).Round(time.Millisecond))

	t1 := time.Now()
	adm := kadm.NewClient(cl)
	cr, err := adm.CreateTopics(ctx, parts, 1, nil, names...)
	if err != nil {
		return err
	}
	if err := cr.Error(); err != nil {
		return err
	}
	fmt.Printf("created %d topics x %d partitions in %s\n", topics, parts, time.Since(t1).Round(time.Millisecond))

	// Reconcile: heartbeat with the owned partitions (what the member last
	// got) until a whole round changes nothing.
	t2 := time.Now()
	for round := 1; ; round++ {
		var mu sync.Mutex
		changed := 0
		if err := each(members, func(i int) error {
			req := kmsg.NewPtrConsumerGroupHeartbeatRequest()
			req.Group, req.MemberID, req.MemberEpoch = group, ids[i], epochs[i]
			req.RebalanceTimeoutMillis = -1
			req.Topics = owned[i]
			if req.Topics == nil {
				req.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{}
			}
			resp, err := req.RequestWith(ctx, cl)
			if err == nil && resp.ErrorCode != 0 {
				err = fmt.Errorf("heartbeat %s: error code %d", ids[i], resp.ErrorCode)
			}
			if err != nil {
				return err
			}
			diff := resp.MemberEpoch != epochs[i]
			epochs[i] = resp.MemberEpoch
			if resp.Assignment != nil {
				var ts []kmsg.ConsumerGroupHeartbeatRequestTopic
				for _, t := range resp.Assignment.Topics {
					rt := kmsg.NewConsumerGroupHeartbeatRequestTopic()
					rt.TopicID, rt.Partitions = t.TopicID, t.Partitions
					ts = append(ts, rt)
				}
				owned[i] = ts
				diff = true
			}
			if diff {
				mu.Lock()
				changed++
				mu.Unlock()
			}
			return nil
		}); err != nil {
			return err
		}
		fmt.Printf("round %d: %d members changed\n", round, changed)
		if changed == 0 {
			break
		}
		if round == 20 {
			return fmt.Errorf("no stable group after 20 rounds")
		}
	}
	fmt.Printf("reconciled in %s (setup %s in all)\n", time.Since(t2).Round(time.Millisecond), time.Since(t0).Round(time.Millisecond))

	yaml := filepath.Join(out, fmt.Sprintf("livescale-%d.yaml", members))
	for r := 0; r < runs; r++ {
		if err := measure("live --scenario", yaml, kviz, "live", "--bootstrap-server", addr, "--group", group, "--scenario", "--timeout", "10m"); err != nil {
			return err
		}
	}
	for r := 0; r < runs; r++ {
		if err := measure("whatif --leave", "", kviz, "whatif", yaml, "--at-ms", "0", "--leave", ids[members/2]); err != nil {
			return err
		}
	}
	return nil
}

// each runs fn for 0..n-1 on a few goroutines (kfake serves a group's
// requests one at a time; a few in flight keep it busy).
func each(n int, fn func(int) error) error {
	const workers = 8
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					errs <- err
					for range next {
					}
					return
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
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

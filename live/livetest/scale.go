package livetest

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ScaleGroup is the KIP-848 consumer group ScaleGroup builds.
const ScaleGroup = "scale"

// StartScale starts kfake with a stable KIP-848 consumer group ScaleGroup
// of members members (uniform assignor) over topics topics t0000.. of parts
// partitions each, without a client per member (issue 21): one kgo client
// sends ConsumerGroupHeartbeat for every member id as a real consumer would
// (KIP-848: join at epoch 0 with an empty owned list, then heartbeat the
// partitions last received as owned until nothing changes). It returns the
// cluster (the caller closes it) and the member ids; logf (may be nil) is
// told each step's time.
//
// Members subscribe by name and join before the topics exist, then the
// topics are created in one request: kfake recomputes its whole target
// assignment (over every member's subscription and every partition) on each
// join, so with no partitions yet a join costs it members x topics, not
// members x topics + partitions, and the partitions are assigned once. Its
// uniform assignor is sticky and every member is there before any
// partition, so none needs revoking and two heartbeats per member reach
// Stable. (A pattern subscription would make the joins cheaper still, but
// kfake's ConsumerGroupDescribe leaves a pattern member's subscription out
// and assignments carry only topic ids, so kviz could not name its topics.)
// Sessions last an hour, so the group stays while it is read.
func StartScale(ctx context.Context, members, topics int, parts int32, logf func(string, ...any)) (*kfake.Cluster, []string, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
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
		return nil, nil, err
	}
	ok := false
	defer func() {
		if !ok {
			c.Close()
		}
	}()
	addr := c.ListenAddrs()[0]
	// (kgo allows at most 15 minutes of request timeout overhead.)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ClientID("livescale"), kgo.RequestTimeoutOverhead(15*time.Minute))
	if err != nil {
		return nil, nil, err
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
		req.Group, req.MemberID, req.MemberEpoch = ScaleGroup, ids[i], 0
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
		return nil, nil, err
	}
	logf("joined %d members in %s", members, time.Since(t0).Round(time.Millisecond))

	t1 := time.Now()
	adm := kadm.NewClient(cl)
	adm.SetTimeoutMillis(int32(time.Hour / time.Millisecond))
	cr, err := adm.CreateTopics(ctx, parts, 1, nil, names...)
	if err != nil {
		return nil, nil, err
	}
	if err := cr.Error(); err != nil {
		return nil, nil, err
	}
	logf("created %d topics x %d partitions in %s", topics, parts, time.Since(t1).Round(time.Millisecond))

	// Reconcile: heartbeat with the owned partitions (what the member last
	// got) until a whole round changes nothing.
	t2 := time.Now()
	for round := 1; ; round++ {
		var mu sync.Mutex
		changed := 0
		if err := each(members, func(i int) error {
			req := kmsg.NewPtrConsumerGroupHeartbeatRequest()
			req.Group, req.MemberID, req.MemberEpoch = ScaleGroup, ids[i], epochs[i]
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
			return nil, nil, err
		}
		logf("round %d: %d members changed", round, changed)
		if changed == 0 {
			break
		}
		if round == 20 {
			return nil, nil, fmt.Errorf("no stable group after 20 rounds")
		}
	}
	logf("reconciled in %s (setup %s in all)", time.Since(t2).Round(time.Millisecond), time.Since(t0).Round(time.Millisecond))

	ok = true
	return c, ids, nil
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

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/live"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/tui"
)

// firstSettled reads the group every --interval, for --timeout at most,
// until it imports: a classic group opened mid-rebalance shows no
// subscriptions until it is Stable.
func firstSettled(ctx context.Context, errOut io.Writer, src liveSource, g *live.Group) (*live.Snapshot, error) {
	fmt.Fprintf(errOut, "kviz: group %s is %s and shows no subscriptions yet: waiting up to --timeout %s for it to settle\n", g.Group, g.State, src.Timeout)
	deadline := time.Now().Add(src.Timeout)
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(src.Interval):
		}
		g, err := withTimeout(ctx, src.Timeout, src.Read)
		if err != nil {
			return nil, err
		}
		snap, err := live.NewSnapshot(g, nil)
		if err == nil || time.Now().After(deadline) {
			return snap, err
		}
	}
}

// openLiveLab reads the group once (so an unreachable cluster or unknown
// group is one plain line before the screen changes), then opens the live
// lab, which reads it again every interval.
func openLiveLab(cmd *cobra.Command, src liveSource) error {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	m, err := newLiveLab(ctx, cmd.ErrOrStderr(), src)
	if err != nil {
		return err
	}
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(cmd.InOrStdin()), tea.WithOutput(cmd.OutOrStdout()))
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return failure(fmt.Errorf("lab: %w", err))
	}
	return nil
}

// newLiveLab is the live lab on its first read, wired to read the group
// again through package live.
func newLiveLab(ctx context.Context, errOut io.Writer, src liveSource) (tui.Live, error) {
	g := src.Fixed
	var read tui.LiveRead
	source := src.Source
	if g == nil {
		var err error
		if g, err = withTimeout(ctx, src.Timeout, src.Read); err != nil {
			return tui.Live{}, failure(err)
		}
		read = func(ctx context.Context, prev *tui.LiveSnapshot) (*tui.LiveSnapshot, error) {
			g, err := src.Read(ctx)
			if err != nil {
				return nil, err
			}
			return labSnapshot(live.NewSnapshot(g, liveOrigin(prev)))
		}
		source = "group " + src.Group + " at " + src.Brokers
	}
	snap, err := live.NewSnapshot(g, nil)
	if err != nil && src.Fixed == nil && !g.Settled() && g.Type == live.Classic {
		// a classic group mid-rebalance with nothing that names its
		// topics: its first settled read will
		snap, err = firstSettled(ctx, errOut, src, g)
	}
	first, err := labSnapshot(snap, err)
	if err != nil {
		return tui.Live{}, failure(err)
	}
	m, err := tui.NewLive(first, source, read, src.Interval, src.Timeout)
	if err != nil {
		return tui.Live{}, failure(fmt.Errorf("group %s: %v", g.Group, err))
	}
	return m, nil
}

// labSnapshot is what the live lab reads of a live read: the lab imports no
// Kafka client, so live.Snapshot stays here and rides along as the
// snapshot's Origin, for the next read to say what changed since.
func labSnapshot(s *live.Snapshot, err error) (*tui.LiveSnapshot, error) {
	if err != nil {
		return nil, err
	}
	out := &tui.LiveSnapshot{Scenario: s.Scenario, State: s.Group.State, Settled: s.Group.Settled(),
		Showable: s.Group.Showable(), Changes: s.Changes, Origin: s}
	if c := s.Group.Coordinator; c != nil {
		// the scenario numbers brokers 0.. in id order (live.Group.Import)
		out.Coordinator = &tui.LiveCoordinator{ID: *c, Index: slices.IndexFunc(s.Group.BrokerRacks, func(b live.BrokerRack) bool { return b.ID == *c })}
	}
	for _, o := range s.PartitionLag {
		out.Lags = append(out.Lags, tui.PartitionLag{TP: kafka.TP{Topic: o.Topic, Partition: o.Partition}, Lag: o.Lag})
	}
	return out, nil
}

// liveOrigin is the live read behind a lab snapshot (nil for none).
func liveOrigin(s *tui.LiveSnapshot) *live.Snapshot {
	if s == nil {
		return nil
	}
	prev, _ := s.Origin.(*live.Snapshot)
	return prev
}

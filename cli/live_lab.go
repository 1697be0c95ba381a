package cli

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/live"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/tui"
)

// openLiveLab reads the group once (so an unreachable cluster or unknown
// group is one plain line before the screen changes), then opens the live
// lab, which reads it again every interval.
func openLiveLab(cmd *cobra.Command, src liveSource) error {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	m, err := newLiveLab(ctx, src)
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
func newLiveLab(ctx context.Context, src liveSource) (tui.Live, error) {
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
	first, err := labSnapshot(live.NewSnapshot(g, nil))
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

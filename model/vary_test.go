package model_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// variations are the strategy/protocol pairs a scenario is varied under;
// protocol "" lets the strategy pick its preferred one.
var variations = [][2]string{
	{"range", ""}, {"roundrobin", "eager"}, {"sticky", ""}, {"cooperative-sticky", "eager"},
	{"cooperative-sticky", ""}, {"uniform", ""}, {"range-server", "consumer"}, {"range", "cooperative"},
}

// withGroupValues is the scenario file with strategy (and protocol) set
// under group:, as a user would edit it.
func withGroupValues(t *testing.T, data []byte, strategy, protocol string) []byte {
	t.Helper()
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal(data, &doc))
	root := doc.Content[0]
	var group *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "group" {
			group = root.Content[i+1]
		}
	}
	if group == nil {
		group = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "group"}, group)
	}
	set := func(key, value string) {
		for i := 0; i+1 < len(group.Content); i += 2 {
			if group.Content[i].Value == key {
				if value == "" {
					group.Content = append(group.Content[:i], group.Content[i+2:]...)
				} else {
					group.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Value: value}
				}
				return
			}
		}
		if value != "" {
			group.Content = append(group.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key},
				&yaml.Node{Kind: yaml.ScalarNode, Value: value})
		}
	}
	set("strategy", strategy)
	set("protocol", protocol)
	out, err := yaml.Marshal(&doc)
	require.NoError(t, err)
	return out
}

func jsonlOf(sim *model.Sim) string {
	var b []byte
	for i := 0; i < sim.Len(); i++ {
		b = append(sim.AppendStepJSON(b, i), '\n')
	}
	return string(b)
}

var placePrefix = regexp.MustCompile(`^[^:]+\.yaml:\d+: `)

// withoutPlace drops the "file:line: " an error from the parser starts with.
func withoutPlace(msg string) string {
	return placePrefix.ReplaceAllString(msg, "")
}

// TestWithStrategyIsTheEditedFile: varying a scenario gives, step for step,
// the trace of the same file edited to say that strategy and protocol, and
// refuses what the parser refuses, with its message.
func TestWithStrategyIsTheEditedFile(t *testing.T) {
	for _, name := range demo.Names() {
		data, _ := demo.Get(name)
		sc, err := scenario.Parse(name+".yaml", data)
		require.NoError(t, err)
		for _, v := range variations {
			t.Run(name+"/"+v[0]+"/"+v[1], func(t *testing.T) {
				varied, verr := sc.WithStrategy(v[0], v[1])
				edited, perr := scenario.Parse(name+".yaml", withGroupValues(t, data, v[0], v[1]))
				if perr != nil {
					require.Error(t, verr, "the parser refuses %v: %v", v, perr)
					require.True(t, strings.HasPrefix(verr.Error(), withoutPlace(perr.Error())), "%q is not %q", verr, perr)
					return
				}
				require.NoError(t, verr)
				a, aerr := model.Simulate(varied)
				b, berr := model.Simulate(edited)
				require.Equal(t, berr, aerr)
				require.Equal(t, edited.Protocol, varied.Protocol)
				require.Equal(t, edited.HeartbeatIntervalMs, varied.HeartbeatIntervalMs)
				require.Equal(t, jsonlOf(b), jsonlOf(a))
			})
		}
	}
}

// TestWithStrategyLeavesTheOriginal: a variation shares nothing mutable.
func TestWithStrategyLeavesTheOriginal(t *testing.T) {
	data, _ := demo.Get("lab")
	sc, err := scenario.Parse("lab.yaml", data)
	require.NoError(t, err)
	before := jsonlOf(mustSim(t, sc))
	varied, err := sc.WithStrategy("uniform", "")
	require.NoError(t, err)
	require.Equal(t, "consumer", varied.Protocol)
	require.Equal(t, int64(5000), varied.HeartbeatIntervalMs, "the consumer protocol's heartbeat default")
	varied.Topics["extra"] = 3
	varied.Timeline = append(varied.Timeline, scenario.Event{AtMs: 1, Kind: "leave", Member: "c1"})
	require.Equal(t, before, jsonlOf(mustSim(t, sc)))
	require.Equal(t, int64(3000), sc.HeartbeatIntervalMs)
	_, err = sc.WithStrategy("nope", "")
	require.ErrorContains(t, err, "group.strategy")
}

func mustSim(t *testing.T, sc *scenario.Scenario) *model.Sim {
	t.Helper()
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	return sim
}

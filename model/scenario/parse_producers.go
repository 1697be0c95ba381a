package scenario

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/model/produce"
	"github.com/kvizlab/kviz/strategies"
)

// flowParse collects the data-path parts of a scenario while the rest is
// parsed; finishFlow turns them into Scenario.Flow.
type flowParse struct {
	producers     []produce.ProducerConfig
	producerNodes []*yaml.Node
	group         consumerSettings
	members       map[string]consumerSettings
	memberOrder   []string
	produces      []ProduceEvent
	readers       []ReaderSpec
}

// consumerKeys are the consumer settings a group or a member may carry.
var consumerKeys = []string{"rate", "enable_auto_commit", "auto_commit_interval_ms", "commit", "auto_offset_reset"}

// consumerSettings are the consumer keys given at one level (nil = not given).
type consumerSettings struct {
	rate       *float64
	autoCommit *bool
	intervalMs *int64
	commit     *string
	reset      *string
	at         *yaml.Node // where they were given, for errors
}

// consumerKey reads one consumer setting into s.
func (p *parser) consumerKey(s *consumerSettings, key, what string, v *yaml.Node) error {
	if s.at == nil {
		s.at = v
	}
	switch key {
	case "rate":
		r, err := p.float(v, what+".rate", 0.001, 1e9)
		s.rate = &r
		return err
	case "enable_auto_commit":
		if v.Kind != yaml.ScalarNode || (v.Value != "true" && v.Value != "false") {
			return p.errf(v, "%s.enable_auto_commit must be true or false, got %q", what, v.Value)
		}
		b := v.Value == "true"
		s.autoCommit = &b
	case "auto_commit_interval_ms":
		ms, err := p.int64(v, what+".auto_commit_interval_ms", 1, 24*3600*1000)
		s.intervalMs = &ms
		return err
	case "commit":
		c, err := p.oneOf(v, what+".commit", []string{"sync", "async"})
		s.commit = &c
		return err
	case "auto_offset_reset":
		r, err := p.oneOf(v, what+".auto_offset_reset", []string{"earliest", "latest", "none"})
		s.reset = &r
		return err
	}
	return nil
}

// memberConsumer remembers a member's (or a join's) own consumer settings.
func (p *parser) memberConsumer(id string, s consumerSettings) {
	if s.at == nil {
		return
	}
	if p.flow.members == nil {
		p.flow.members = map[string]consumerSettings{}
	}
	if _, ok := p.flow.members[id]; !ok {
		p.flow.memberOrder = append(p.flow.memberOrder, id)
	}
	p.flow.members[id] = s
}

// config merges member settings over group settings into Kafka's terms.
func (p *parser) config(group, member consumerSettings, what string) (produce.ConsumerConfig, error) {
	s := group
	if member.rate != nil {
		s.rate = member.rate
	}
	if member.autoCommit != nil || member.commit != nil {
		s.autoCommit, s.commit = member.autoCommit, member.commit
	}
	if member.intervalMs != nil {
		s.intervalMs = member.intervalMs
	}
	if member.reset != nil {
		s.reset = member.reset
	}
	at := orNode(member.at, group.at)
	var c produce.ConsumerConfig
	if s.rate != nil {
		c.Rate = *s.rate
	}
	if s.intervalMs != nil {
		c.AutoCommitIntervalMs = int(*s.intervalMs)
	}
	if s.reset != nil {
		c.OffsetReset = produce.OffsetReset(*s.reset)
	}
	auto := s.autoCommit == nil || *s.autoCommit // Kafka's default: enable.auto.commit=true
	switch {
	case s.commit != nil && s.autoCommit != nil && *s.autoCommit:
		return c, p.errf(at, "%s: choose enable_auto_commit: true or commit: %s, not both", what, *s.commit)
	case s.commit != nil:
		c.Commit = produce.CommitMode(*s.commit)
	case auto:
		c.Commit = produce.CommitAuto
	default:
		return c, p.errf(at, "%s: enable_auto_commit: false needs commit: sync or async (else nothing is ever committed)", what)
	}
	return c, nil
}

func (p *parser) float(n *yaml.Node, what string, lo, hi float64) (float64, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, p.errf(n, "%s must be a number", what)
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
	if err != nil || math.IsNaN(v) {
		return 0, p.errf(n, "%s must be a number, got %q", what, n.Value)
	}
	if v < lo || v > hi {
		return 0, p.errf(n, "%s must be between %g and %g, got %g", what, lo, hi, v)
	}
	return v, nil
}

func (p *parser) oneOf(n *yaml.Node, what string, valid []string) (string, error) {
	s, err := p.str(n, what)
	if err != nil {
		return "", err
	}
	if !slices.Contains(valid, s) {
		return "", p.errf(n, "%s: unknown value %q%s (valid: %s)", what, s, Suggest(s, valid), strings.Join(valid, ", "))
	}
	return s, nil
}

var producerKeys = []string{"name", "topic", "rate", "keys", "partitioner", "kafka_version", "batch_size", "linger_ms", "value_bytes"}

// producers reads the producers: list.
func (p *parser) producers(n *yaml.Node, sc *Scenario) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "producers must be a list, like - {topic: t0, rate: 100}")
	}
	for i, c := range n.Content {
		cfg, err := p.producer(c, sc, i)
		if err != nil {
			return err
		}
		p.flow.producers = append(p.flow.producers, cfg)
		p.flow.producerNodes = append(p.flow.producerNodes, c)
	}
	return nil
}

func (p *parser) producer(n *yaml.Node, sc *Scenario, i int) (produce.ProducerConfig, error) {
	var cfg produce.ProducerConfig
	what := "producers[" + strconv.Itoa(i) + "]"
	err := p.fields(n, what, producerKeys, func(key string, _, v *yaml.Node) error {
		var err error
		switch key {
		case "name":
			cfg.Name, err = p.str(v, what+".name")
		case "topic":
			cfg.Topic, err = p.str(v, what+".topic")
			if _, ok := sc.Topics[cfg.Topic]; err == nil && !ok {
				err = p.errf(v, "%s.topic: unknown topic %q%s", what, cfg.Topic, Suggest(cfg.Topic, strategies.SortedTopics(sc.Topics)))
			}
		case "rate":
			cfg.Rate, err = p.float(v, what+".rate", 0, 1e9)
		case "keys":
			cfg.Keys, err = p.keys(v, what+".keys")
		case "partitioner":
			cfg.Partitioner, err = p.str(v, what+".partitioner")
		case "kafka_version":
			cfg.Version, err = p.str(v, what+".kafka_version")
		case "batch_size":
			var b int64
			b, err = p.int64(v, what+".batch_size", 1, 64<<20)
			cfg.BatchSize = int(b)
		case "linger_ms":
			var l int64
			l, err = p.int64(v, what+".linger_ms", 0, 3600*1000)
			li := int(l)
			cfg.LingerMs = &li
		case "value_bytes":
			var b int64
			b, err = p.int64(v, what+".value_bytes", 1, 1<<20)
			cfg.ValueBytes = int(b)
		}
		return err
	})
	if err != nil {
		return cfg, err
	}
	if cfg.Topic == "" {
		return cfg, p.errf(n, "%s needs a topic, like {topic: t0, rate: 100}", what)
	}
	// The produce model checks the rest (partitioner name and version,
	// key distribution); its message gets this producer's line.
	trial := produce.NewSim(0)
	if err := trial.AddTopic(cfg.Topic, int(sc.Topics[cfg.Topic])); err != nil {
		return cfg, p.errf(n, "%s: %v", what, err)
	}
	if _, err := trial.AddProducer(cfg); err != nil {
		return cfg, p.errf(n, "%s: %v", what, err)
	}
	return cfg, nil
}

// keys reads a key distribution: null (or absent), a list of fixed keys, or
// {uniform: N}, {fixed: [..]}, {hot: K, share: 0.6, count: N}.
func (p *parser) keys(n *yaml.Node, what string) (produce.Keys, error) {
	switch {
	case isNull(n) || (n.Kind == yaml.ScalarNode && n.Value == "null"):
		return produce.Keys{Kind: produce.KeysNull}, nil
	case n.Kind == yaml.SequenceNode:
		fixed, err := p.strList(n, what)
		if err == nil && len(fixed) == 0 {
			err = p.errf(n, "%s: give at least one key (or keys: null)", what)
		}
		return produce.Keys{Kind: produce.KeysFixed, Fixed: fixed}, err
	case n.Kind != yaml.MappingNode:
		return produce.Keys{}, p.errf(n, "%s must be null, a list of keys, {uniform: N} or {hot: K, share: 0.5, count: N}", what)
	}
	var k produce.Keys
	err := p.fields(n, what, []string{"uniform", "fixed", "hot", "share", "count"}, func(key string, _, v *yaml.Node) error {
		var err error
		var c int64
		switch key {
		case "uniform":
			c, err = p.int64(v, what+".uniform", 1, 1_000_000)
			k.Kind, k.Count = produce.KeysUniform, int(c)
		case "count":
			c, err = p.int64(v, what+".count", 1, 1_000_000)
			k.Count = int(c)
		case "fixed":
			k.Kind = produce.KeysFixed
			k.Fixed, err = p.strList(v, what+".fixed")
		case "hot":
			k.Kind = produce.KeysHot
			k.Hot, err = p.str(v, what+".hot")
		case "share":
			k.HotShare, err = p.float(v, what+".share", 0, 1)
		}
		return err
	})
	if err != nil {
		return k, err
	}
	if k.Kind == produce.KeysHot && k.HotShare == 0 {
		return k, p.errf(n, "%s: a hot key needs its share, like {hot: user-42, share: 0.6, count: 100}", what)
	}
	if k.Kind == "" {
		return k, p.errf(n, "%s needs uniform, fixed or hot", what)
	}
	return k, nil
}

// produceEvent reads a timeline entry's produce: {topic, key, count}; a
// missing key is a null key.
func (p *parser) produceEvent(v *yaml.Node, sc *Scenario, line int) (ProduceEvent, error) {
	pe := ProduceEvent{Count: 1, line: line}
	err := p.fields(v, "produce", []string{"topic", "key", "count"}, func(key string, _, x *yaml.Node) error {
		var err error
		switch key {
		case "topic":
			pe.Topic, err = p.str(x, "produce.topic")
			if _, ok := sc.Topics[pe.Topic]; err == nil && !ok {
				err = p.errf(x, "produce: unknown topic %q%s", pe.Topic, Suggest(pe.Topic, strategies.SortedTopics(sc.Topics)))
			}
		case "key":
			if !isNull(x) {
				var s string
				s, err = p.str(x, "produce.key")
				pe.Key = []byte(s)
			}
		case "count":
			var c int64
			c, err = p.int64(x, "produce.count", 1, 10_000_000)
			pe.Count = int(c)
		}
		return err
	})
	if err == nil && pe.Topic == "" {
		err = p.errf(v, "produce needs a topic, like {topic: t0, key: k1, count: 10}")
	}
	return pe, err
}

// finishFlow builds Scenario.Flow when the scenario has producers, produce
// entries or readers; without them consumer settings change nothing.
func (p *parser) finishFlow(sc *Scenario) error {
	f := &p.flow
	if len(f.producers) == 0 && len(f.produces) == 0 && len(f.readers) == 0 {
		return nil
	}
	group, err := p.config(f.group, consumerSettings{}, "group")
	if err != nil {
		return err
	}
	spec := &FlowSpec{Producers: f.producers, Consumer: group, Produces: f.produces, Readers: f.readers}
	for _, id := range f.memberOrder {
		c, err := p.config(f.group, f.members[id], "member "+id)
		if err != nil {
			return err
		}
		if spec.Members == nil {
			spec.Members = map[string]produce.ConsumerConfig{}
		}
		spec.Members[id] = c
	}
	sc.Flow = spec
	return nil
}

package live

import (
	"context"
	"fmt"
	"strconv"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// GroupConfig is one group setting the cluster told (DescribeConfigs): a
// broker's group defaults on the coordinator, or the group's own override
// (KIP-848 group configs, Kafka 3.8+).
type GroupConfig struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Source is where the cluster says the value comes from: "group
	// config", "broker config" (set on the broker, statically or
	// dynamically) or "broker default".
	Source string `json:"source"`
	// Broker is the broker the value was read from (broker configs).
	Broker *int32 `json:"broker,omitempty"`
}

// Config sources.
const (
	SourceGroupConfig   = "group config"
	SourceBrokerConfig  = "broker config"
	SourceBrokerDefault = "broker default"
)

// brokerGroupConfigs are the coordinator's group defaults kviz reads.
var brokerGroupConfigs = []string{
	"group.consumer.session.timeout.ms", "group.consumer.heartbeat.interval.ms", "group.consumer.assignment.interval.ms",
	"group.initial.rebalance.delay.ms", "group.min.session.timeout.ms", "group.max.session.timeout.ms",
}

// groupConfigs are a group's own overrides (GroupConfig).
var groupConfigs = []string{"consumer.session.timeout.ms", "consumer.heartbeat.interval.ms", "consumer.assignment.interval.ms"}

// A share group's (KIP-932): the coordinator's group.share.* defaults
// (GroupCoordinatorConfig, ShareGroupConfig) and the group's share.*
// overrides (GroupConfig, KIP-1240 adds some in 4.3).
var (
	brokerShareConfigs = []string{
		"group.share.session.timeout.ms", "group.share.heartbeat.interval.ms", "group.share.assignment.interval.ms",
		"group.share.max.size", "group.share.record.lock.duration.ms", "group.share.delivery.count.limit",
		"group.share.partition.max.record.locks",
	}
	groupShareConfigs = []string{
		"share.session.timeout.ms", "share.heartbeat.interval.ms", "share.assignment.interval.ms", "share.record.lock.duration.ms",
		"share.delivery.count.limit", "share.partition.max.record.locks", "share.auto.offset.reset", "share.isolation.level",
	}
)

// configs reads the coordinator's group defaults and the group's own
// configs. A cluster that has no such configs (a broker before KIP-848
// answers the group resource with an error, or has no
// group.consumer.* keys) simply tells less: only a failure to reach it is
// an error.
func (r *Reader) configs(ctx context.Context, group string, coordinator *int32) ([]GroupConfig, error) {
	return r.configsOf(ctx, group, coordinator, brokerGroupConfigs, groupConfigs)
}

// shareConfigs are configs for a share group.
func (r *Reader) shareConfigs(ctx context.Context, group string, coordinator *int32) ([]GroupConfig, error) {
	return r.configsOf(ctx, group, coordinator, brokerShareConfigs, groupShareConfigs)
}

func (r *Reader) configsOf(ctx context.Context, group string, coordinator *int32, brokerKeys, groupKeys []string) ([]GroupConfig, error) {
	req := kmsg.NewPtrDescribeConfigsRequest()
	if coordinator != nil {
		res := kmsg.NewDescribeConfigsRequestResource()
		res.ResourceType, res.ResourceName, res.ConfigNames = kmsg.ConfigResourceTypeBroker, strconv.Itoa(int(*coordinator)), brokerKeys
		req.Resources = append(req.Resources, res)
	}
	res := kmsg.NewDescribeConfigsRequestResource()
	res.ResourceType, res.ResourceName, res.ConfigNames = kmsg.ConfigResourceTypeGroupConfig, group, groupKeys
	req.Resources = append(req.Resources, res)
	var out []GroupConfig
	for _, sh := range r.cl.RequestSharded(ctx, req) {
		if sh.Err != nil {
			if isTooOld(sh.Err) || errorsIsKerr(sh.Err) {
				continue
			}
			return nil, r.clusterError(sh.Err)
		}
		for _, rr := range sh.Resp.(*kmsg.DescribeConfigsResponse).Resources {
			if rr.ErrorCode != 0 {
				continue // not known here (an older broker, no group resource)
			}
			for _, rc := range rr.Configs {
				if rc.Value == nil {
					continue
				}
				c := GroupConfig{Name: rc.Name, Value: *rc.Value, Source: configSource(rr.ResourceType, rc)}
				if rr.ResourceType == kmsg.ConfigResourceTypeBroker && coordinator != nil {
					c.Broker = ptr(*coordinator)
				}
				if rr.ResourceType == kmsg.ConfigResourceTypeGroupConfig && c.Source != SourceGroupConfig {
					continue // the group inherits the broker's: said by the broker's entry
				}
				out = append(out, c)
			}
		}
	}
	return out, nil
}

func errorsIsKerr(err error) bool {
	_, ok := err.(*kerr.Error)
	return ok
}

func configSource(t kmsg.ConfigResourceType, rc kmsg.DescribeConfigsResponseResourceConfig) string {
	switch {
	case rc.Source == kmsg.ConfigSourceGroupConfig:
		return SourceGroupConfig
	case t == kmsg.ConfigResourceTypeGroupConfig:
		return SourceBrokerDefault
	case rc.Source == kmsg.ConfigSourceDefaultConfig || rc.IsDefault && rc.Source != kmsg.ConfigSourceStaticBrokerConfig:
		return SourceBrokerDefault
	}
	return SourceBrokerConfig
}

// configMs is a read config's value in ms, and where it came from.
func (g *Group) configMs(name string) (int64, string, bool) {
	for _, c := range g.Configs {
		if c.Name != name {
			continue
		}
		v, err := strconv.ParseInt(c.Value, 10, 64)
		if err != nil || v < 0 {
			return 0, "", false
		}
		where := "read: " + c.Source + " " + name
		if c.Broker != nil {
			where = fmt.Sprintf("read: %s %s on broker %d", c.Source, name, *c.Broker)
		}
		return v, where, true
	}
	return 0, "", false
}

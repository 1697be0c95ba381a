package live

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"strings"
	"sync"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ReadOnlyKeys are the only requests kviz sends (besides SASL's handshake
// and authenticate, which prove who it is): issue 12 item 6.
var ReadOnlyKeys = []int16{
	kmsg.ApiVersions.Int16(), kmsg.Metadata.Int16(), kmsg.FindCoordinator.Int16(), kmsg.ListGroups.Int16(),
	kmsg.DescribeGroups.Int16(), kmsg.ConsumerGroupDescribe.Int16(), kmsg.OffsetFetch.Int16(), kmsg.ListOffsets.Int16(),
	kmsg.DescribeConfigs.Int16(), kmsg.ShareGroupDescribe.Int16(), kmsg.DescribeShareGroupOffsets.Int16(),
}

// Reader reads groups from one cluster. It never joins, commits or
// changes anything.
type Reader struct {
	cl      *kgo.Client
	adm     *kadm.Client
	brokers string
	seeds   int  // how many bootstrap servers were given
	sasl    bool // a SASL mechanism is configured
}

// Check validates a config without connecting (files, mechanism): an
// error here is bad input.
func (c Config) Check() error {
	_, err := c.options()
	return err
}

// Dial makes a client; it connects lazily, at the first read.
func Dial(c Config) (*Reader, error) {
	opts, err := c.options()
	if err != nil {
		return nil, err
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, err
	}
	return &Reader{cl: cl, adm: kadm.NewClient(cl), brokers: strings.Join(c.Brokers, ","), seeds: len(c.Brokers), sasl: c.SASLMechanism != ""}, nil
}

// Close closes the connections.
func (r *Reader) Close() { r.cl.Close() }

// List lists the cluster's groups (kafka-consumer-groups.sh --list --type
// --state), sorted by name.
func (r *Reader) List(ctx context.Context) ([]Listed, error) {
	return retrySeeds(ctx, r, r.list)
}

func (r *Reader) list(ctx context.Context) ([]Listed, error) {
	ls, err := r.adm.ListGroups(ctx)
	if err != nil {
		return nil, r.clusterError(err)
	}
	out := []Listed{}
	for _, g := range ls.Sorted() {
		typ := g.GroupType
		if typ == "" { // brokers before 3.8 know only classic groups
			typ = string(Classic)
		}
		out = append(out, Listed{Group: g.Group, Type: typ, ProtocolType: g.ProtocolType, State: g.State, Coordinator: g.Coordinator})
	}
	return out, nil
}

// Group reads one group: its description (ConsumerGroupDescribe first, as
// Kafka's Admin client does, then DescribeGroups for a classic group), the
// partition counts of its topics, its committed offsets and the log end
// offsets.
func (r *Reader) Group(ctx context.Context, name string) (*Group, error) {
	return retrySeeds(ctx, r, func(ctx context.Context) (*Group, error) { return r.group(ctx, name, true) })
}

// GroupShape reads a group as Group does but for the log end offsets of a
// consumer or classic group, so its Offsets hold no log end and no lag:
// what a scenario (Import) and the assignor's input carry, neither of which
// names an offset. At 500,000 partitions the ListOffsets was a third of
// `kviz live --scenario` (issue 21). A share group's import starts from
// its offsets, so a share group is read whole.
func (r *Reader) GroupShape(ctx context.Context, name string) (*Group, error) {
	return retrySeeds(ctx, r, func(ctx context.Context) (*Group, error) { return r.group(ctx, name, false) })
}

// group reads a consumer or classic group. The committed offsets need only
// the group's name and the configs only its coordinator, so they are asked
// for beside the describe and the reads around it: at 500,000 partitions
// each answer takes the cluster a while to build and the reader a while to
// decode, and two cores do both at once. Errors are reported in the order
// the reads were once made in, so a failing cluster reads the same.
func (r *Reader) group(ctx context.Context, name string, logEnds bool) (*Group, error) {
	var committed map[string]map[int32]int64
	var cerr error
	fetched := make(chan struct{})
	go func() {
		defer close(fetched)
		committed, cerr = r.committed(ctx, name)
	}()
	g, md, err := r.describe(ctx, name)
	if err != nil {
		<-fetched
	}
	if errors.Is(err, errNoGroup) {
		typ, terr := r.otherType(ctx, name, err)
		if typ == string(Share) {
			return r.share(ctx, name)
		}
		return nil, terr
	}
	if err != nil {
		return nil, err
	}
	var configs []GroupConfig
	var ferr error
	configured := make(chan struct{})
	go func() {
		defer close(configured)
		configs, ferr = r.configs(ctx, name, g.Coordinator)
	}()
	<-fetched
	var counts map[string]int32
	var ends map[string]map[int32]int64
	if cerr == nil {
		counts, ends, _, err = r.around(ctx, g, committed, md, logEnds)
	}
	<-configured
	switch {
	case ferr != nil:
		return nil, ferr
	case cerr != nil:
		return nil, cerr
	case err != nil:
		return nil, err
	}
	g.Configs = configs
	g.AddCluster(counts, committed, ends)
	return g, nil
}

// around reads the cluster around g: Metadata of the topics it touches and
// of those offsets name (committed, or a share group's start offsets),
// which sizes the cluster (brokers, racks, replicas, the partitions of
// __consumer_offsets), and the log end offsets. It returns the partition
// counts and log ends for AddCluster, and the topics' ids. read is the
// Metadata the read already has (a KIP-848 describe's topics), or nil:
// only the topics it lacks are asked for, since at 500,000 partitions
// each answer is most of a read.
func (r *Reader) around(ctx context.Context, g *Group, offsets map[string]map[int32]int64, read *metadata, logEnds bool) (map[string]int32, map[string]map[int32]int64, map[[16]byte]string, error) {
	topics := g.TopicsTouched()
	for t := range offsets {
		topics = append(topics, t)
	}
	topics = sortedUnique(append(topics, offsetsTopic))
	var md metadata
	if read != nil {
		md = *read
		topics = slices.DeleteFunc(topics, func(t string) bool { _, ok := md.asked[t]; return ok })
	}
	if len(topics) > 0 { // always without read: __consumer_offsets
		more, err := r.metadata(ctx, topics)
		if err != nil {
			return nil, nil, nil, err
		}
		md = md.merge(more)
	}
	counts := md.counts
	g.Brokers, g.OffsetsPartitions, g.BrokerRacks = md.brokers, counts[offsetsTopic], md.racks
	delete(counts, offsetsTopic)
	delete(md.replicas, offsetsTopic)
	g.Replicas = md.replicas
	if !logEnds {
		return counts, nil, md.ids, nil
	}
	ends, err := r.endOffsets(ctx, counts, md.leaders)
	return counts, ends, md.ids, err
}

// endOffsets are the log end offsets of the topics that exist, asked of
// each partition's leader (from the read's Metadata) in one ListOffsets
// per broker, sent side by side. kadm's ListEndOffsets would read Metadata
// again into maps of every partition, and the client's own split reads its
// metadata cache, whose filling was most of a read of 500,000 partitions
// (BenchmarkLiveScenarioAtScale). A partition without a leader has no end
// to read and is left out, as its error would be.
func (r *Reader) endOffsets(ctx context.Context, counts map[string]int32, leaders map[string][]int32) (map[string]map[int32]int64, error) {
	ends := make(map[string]map[int32]int64, len(counts))
	byLeader := map[int32]*kmsg.ListOffsetsRequest{}
	var brokers []int32
	for _, t := range slices.Sorted(maps.Keys(counts)) {
		for p, leader := range leaders[t] {
			if leader < 0 {
				continue
			}
			req := byLeader[leader]
			if req == nil {
				req = kmsg.NewPtrListOffsetsRequest()
				byLeader[leader] = req
				brokers = append(brokers, leader)
			}
			if n := len(req.Topics); n == 0 || req.Topics[n-1].Topic != t {
				rt := kmsg.NewListOffsetsRequestTopic()
				rt.Topic = t
				req.Topics = append(req.Topics, rt)
			}
			rp := kmsg.NewListOffsetsRequestTopicPartition()
			rp.Partition, rp.Timestamp = int32(p), -1 // the log end
			rt := &req.Topics[len(req.Topics)-1]
			rt.Partitions = append(rt.Partitions, rp)
		}
	}
	resps := make([]*kmsg.ListOffsetsResponse, len(brokers))
	errs := make([]error, len(brokers))
	var wg sync.WaitGroup
	for i, id := range brokers {
		wg.Go(func() {
			resp, err := r.cl.Broker(int(id)).RetriableRequest(ctx, byLeader[id])
			if err == nil {
				resps[i] = resp.(*kmsg.ListOffsetsResponse)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, resp := range resps {
		if errs[i] != nil {
			return nil, r.clusterError(errs[i])
		}
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				if p.ErrorCode != 0 || p.Partition < 0 || p.Partition >= counts[t.Topic] {
					continue
				}
				if ends[t.Topic] == nil {
					ends[t.Topic] = make(map[int32]int64, counts[t.Topic])
				}
				ends[t.Topic][p.Partition] = p.Offset
			}
		}
	}
	return ends, nil
}

func (r *Reader) describe(ctx context.Context, name string) (*Group, *metadata, error) {
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{name}
	for _, sh := range r.cl.RequestSharded(ctx, req) {
		if sh.Err != nil {
			if isTooOld(sh.Err) {
				break // a broker before KIP-848: every group is classic
			}
			return nil, nil, r.clusterError(sh.Err)
		}
		for _, rg := range sh.Resp.(*kmsg.ConsumerGroupDescribeResponse).Groups {
			if rg.Group != name {
				continue
			}
			code := kerr.ErrorForCode(rg.ErrorCode)
			if code == kerr.GroupIDNotFound || code == kerr.UnsupportedVersion {
				break // not a consumer group: Kafka 4 answers so for classic ones
			}
			md, err := r.describedMetadata(ctx, rg)
			if err != nil {
				return nil, nil, err
			}
			g, err := FromConsumer(rg, sh.Meta.NodeID, md.ids)
			return g, &md, err
		}
	}
	dreq := kmsg.NewPtrDescribeGroupsRequest()
	dreq.Groups = []string{name}
	for _, sh := range r.cl.RequestSharded(ctx, dreq) {
		if sh.Err != nil {
			return nil, nil, r.clusterError(sh.Err)
		}
		for _, rg := range sh.Resp.(*kmsg.DescribeGroupsResponse).Groups {
			if rg.Group == name {
				g, err := FromClassic(rg, sh.Meta.NodeID)
				return g, nil, err
			}
		}
	}
	return nil, nil, groupError(name, kerr.GroupIDNotFound)
}

// otherType says what a group the consumer-group describes do not know is,
// when ListGroups lists it as another type: a share group (KIP-932), which
// the caller reads, or one kviz does not read (a streams group, KIP-1071),
// said in the error; else err.
func (r *Reader) otherType(ctx context.Context, name string, err error) (string, error) {
	ls, lerr := r.list(ctx)
	if lerr != nil {
		return "", err
	}
	for _, l := range ls {
		if l.Group == name && l.Type != string(Classic) && l.Type != string(Consumer) {
			return l.Type, fmt.Errorf("group %q is a %s group (%s): kviz reads consumer groups, classic and KIP-848, and share groups; --list shows it", name, l.Type, l.State)
		}
	}
	return "", err
}

// describedMetadata is Metadata of the topics a KIP-848 description names
// and of __consumer_offsets: it maps the description's topic ids to names,
// and the rest of the read (around) reuses it.
func (r *Reader) describedMetadata(ctx context.Context, rg kmsg.ConsumerGroupDescribeResponseGroup) (metadata, error) {
	ts := topicSet{}
	for _, m := range rg.Members {
		ts.add(m.SubscribedTopics...)
		for _, a := range []kmsg.Assignment{m.Assignment, m.TargetAssignment} {
			for _, tp := range a.TopicPartitions {
				if tp.Topic != "" {
					ts.add(tp.Topic)
				}
			}
		}
	}
	ts.add(offsetsTopic)
	return r.metadata(ctx, ts.sorted())
}

// offsetsTopic is where groups keep their offsets; its partition count
// places the coordinator.
const offsetsTopic = "__consumer_offsets"

type metadata struct {
	brokers  int
	racks    []BrokerRack         // in broker id order
	replicas map[string][][]int32 // each partition's replicas (broker ids), by topic
	counts   map[string]int32     // partition counts of the topics that exist
	ids      map[[16]byte]string  // their ids
	asked    map[string]struct{}  // the topics asked for
	leaders  map[string][]int32   // each partition's leader (-1 none), by topic
}

// merge is md with what more read of other topics.
func (md metadata) merge(more metadata) metadata {
	if md.asked == nil {
		return more
	}
	md.brokers, md.racks = more.brokers, more.racks // the later answer
	for t, n := range more.counts {
		md.counts[t], md.replicas[t], md.leaders[t] = n, more.replicas[t], more.leaders[t]
	}
	maps.Copy(md.ids, more.ids)
	maps.Copy(md.asked, more.asked)
	return md
}

// metadata reads the topics (never creating one: the request says so). It
// is asked of a broker directly and read here: kadm's Metadata would build
// a map of every topic's partitions, and the client's own answer fills its
// metadata cache, a map per topic grown one partition at a time, before
// copying it out; at 500,000 partitions either was most of a read's time.
func (r *Reader) metadata(ctx context.Context, topics []string) (metadata, error) {
	out := metadata{counts: map[string]int32{}, ids: map[[16]byte]string{}, replicas: map[string][][]int32{},
		asked: map[string]struct{}{}, leaders: map[string][]int32{}}
	for _, t := range topics {
		out.asked[t] = struct{}{}
	}
	if len(topics) == 0 {
		return out, nil
	}
	req := kmsg.NewPtrMetadataRequest()
	req.AllowAutoTopicCreation = false
	req.Topics = make([]kmsg.MetadataRequestTopic, len(topics))
	for i, t := range topics {
		req.Topics[i] = kmsg.NewMetadataRequestTopic()
		req.Topics[i].Topic = kmsg.StringPtr(t)
	}
	md, err := r.anyBroker(ctx, req)
	if err != nil {
		return out, r.clusterError(err)
	}
	out.brokers = len(md.Brokers)
	for _, b := range md.Brokers {
		out.racks = append(out.racks, BrokerRack{ID: b.NodeID, Rack: b.Rack})
	}
	slices.SortFunc(out.racks, func(a, b BrokerRack) int { return cmp.Compare(a.ID, b.ID) })
	for _, td := range md.Topics {
		name := ""
		if td.Topic != nil {
			name = *td.Topic
		}
		if err := kerr.ErrorForCode(td.ErrorCode); err != nil {
			if err == kerr.UnknownTopicOrPartition {
				continue
			}
			return out, r.clusterError(fmt.Errorf("topic %s: %w", name, err))
		}
		out.counts[name] = int32(len(td.Partitions))
		out.ids[td.TopicID] = name
		reps, leaders := make([][]int32, len(td.Partitions)), make([]int32, len(td.Partitions))
		for p := range leaders {
			leaders[p] = -1
		}
		for _, pd := range td.Partitions {
			if pd.Partition >= 0 && int(pd.Partition) < len(reps) {
				reps[pd.Partition] = pd.Replicas
				if pd.ErrorCode == 0 {
					leaders[pd.Partition] = pd.Leader
				}
			}
		}
		out.replicas[name], out.leaders[name] = reps, leaders
	}
	return out, nil
}

// anyBroker sends a Metadata request to the brokers the client knows, then
// to the bootstrap servers, in turn until one answers: a server that cannot
// be dialled costs a try, not the read (as retrySeeds does for the rest).
func (r *Reader) anyBroker(ctx context.Context, req *kmsg.MetadataRequest) (*kmsg.MetadataResponse, error) {
	var err error
	for _, b := range append(r.cl.DiscoveredBrokers(), r.cl.SeedBrokers()...) {
		var resp kmsg.Response
		if resp, err = b.Request(ctx, req); err == nil {
			return resp.(*kmsg.MetadataResponse), nil
		}
		if ctx.Err() != nil || !isDialError(err) {
			return nil, err
		}
	}
	if err == nil {
		err = errors.New("no broker to ask")
	}
	return nil, err
}

func (r *Reader) committed(ctx context.Context, group string) (map[string]map[int32]int64, error) {
	os, err := r.adm.FetchOffsets(ctx, group)
	if err != nil {
		if errors.Is(err, kerr.GroupIDNotFound) {
			return map[string]map[int32]int64{}, nil
		}
		return nil, r.clusterError(err)
	}
	out := map[string]map[int32]int64{}
	os.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.At >= 0 {
			if out[o.Topic] == nil {
				out[o.Topic] = map[int32]int64{}
			}
			out[o.Topic][o.Partition] = o.At
		}
	})
	return out, nil
}

func isTooOld(err error) bool {
	return errors.Is(err, kerr.UnsupportedVersion) || strings.Contains(err.Error(), "too old")
}

// retrySeeds runs one read again while it failed only because a server
// could not be dialled and another may answer. franz-go sends the requests
// that go to "any broker" (FindCoordinator among them, which it issues
// without retries) to the next seed or discovered broker in turn, so a dead
// address among the bootstrap servers costs a retry, not the read: the read
// fails only once every server was tried, or ctx ends.
func retrySeeds[T any](ctx context.Context, r *Reader, read func(context.Context) (T, error)) (T, error) {
	tries := r.seeds + len(r.cl.DiscoveredBrokers()) + 1
	for i := 1; ; i++ {
		v, err := read(ctx)
		if err == nil || i >= tries || ctx.Err() != nil || !isDialError(err) {
			return v, err
		}
	}
}

// isDialError: the connection to a server could not be opened (refused,
// unreachable, no such host), as opposed to an answer or a broken session.
func isDialError(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial" && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled)
}

// readError is one clear line about a failed read, keeping its cause.
type readError struct {
	text  string
	cause error
}

func (e *readError) Error() string { return e.text }
func (e *readError) Unwrap() error { return e.cause }

// clusterError makes one clear line of a franz-go error: which cluster,
// and whether it is unreachable, refused the credentials or said no.
func (r *Reader) clusterError(err error) error {
	return &readError{text: r.clusterText(err).Error(), cause: err}
}

func (r *Reader) clusterText(err error) error {
	var ne net.Error
	var oe *net.OpError
	var ke *kerr.Error
	var eof *kgo.ErrFirstReadEOF
	var cv *tls.CertificateVerificationError
	var se *kadm.ShardErrors
	if errors.As(err, &se) && len(se.Errs) > 0 {
		err = se.Errs[0].Err // one broker's cause reads better than the count
	}
	closed := errors.Is(err, io.EOF) || errors.As(err, &eof)
	switch {
	case errors.As(err, &cv):
		return fmt.Errorf("TLS: the broker at %s has a certificate kviz does not trust (%v): give its CA with --ca-file, or --insecure-skip-verify", r.brokers, cv.Err)
	case closed && r.sasl:
		return fmt.Errorf("authentication failed at %s: the broker closed the connection during SASL (check --sasl-mechanism, --sasl-user and the password)", r.brokers)
	case closed:
		return fmt.Errorf("the broker at %s closed the connection at once: does it need TLS (--tls) or SASL (--sasl-mechanism)?", r.brokers)
	case errors.As(err, &ke) && (ke == kerr.SaslAuthenticationFailed || ke == kerr.IllegalSaslState || ke == kerr.UnsupportedSaslMechanism):
		return fmt.Errorf("authentication failed at %s: %v", r.brokers, ke.Message)
	case strings.Contains(err.Error(), "SASL") || strings.Contains(err.Error(), "sasl"):
		return fmt.Errorf("authentication failed at %s: %v", r.brokers, err)
	case errors.As(err, &ke) && (ke == kerr.GroupAuthorizationFailed || ke == kerr.TopicAuthorizationFailed || ke == kerr.ClusterAuthorizationFailed):
		return fmt.Errorf("not authorized at %s: %v", r.brokers, ke.Message)
	case errors.As(err, &oe), errors.As(err, &ne), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("cannot reach the cluster at %s: %v", r.brokers, err)
	}
	return fmt.Errorf("cluster %s: %v", r.brokers, err)
}

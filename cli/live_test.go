package cli

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live"
	"github.com/kvizlab/kviz/live/livetest"
)

func rangeGroup(t *testing.T, members ...string) (*livetest.Cluster, map[string]*livetest.Consumer) {
	t.Helper()
	c := livetest.Start(t, 6, "orders")
	cs := map[string]*livetest.Consumer{}
	for _, id := range members {
		cs[id] = c.Consumer(t, "g", id, kgo.ConsumeTopics("orders"), kgo.Balancers(kgo.RangeBalancer()))
	}
	c.WaitStable(t, "g", len(members))
	return c, cs
}

func TestLiveJSONIsTheContractAndTheRealAssignment(t *testing.T) {
	c, _ := rangeGroup(t, "c1", "c2", "c3")
	code, out, errOut := run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--group", "g", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	for _, k := range []string{"group", "type", "protocol_type", "protocol", "state", "generation", "group_epoch",
		"assignment_epoch", "coordinator", "topics", "members", "offsets"} {
		assert.Contains(t, raw, k)
	}
	member := raw["members"].([]any)[0].(map[string]any)
	for _, k := range []string{"member_id", "instance_id", "client_id", "host", "rack", "topics", "assignment", "target", "member_epoch"} {
		assert.Contains(t, member, k)
	}
	offset := raw["offsets"].([]any)[0].(map[string]any)
	for _, k := range []string{"topic", "partition", "committed", "log_end", "lag"} {
		assert.Contains(t, offset, k)
	}
	var g live.Group
	require.NoError(t, json.Unmarshal([]byte(out), &g))
	assert.Equal(t, live.Classic, g.Type)
	assert.Equal(t, "range", g.Protocol)
	assert.Nil(t, g.GroupEpoch)
	real := c.GroupInfo("g")
	require.Len(t, g.Members, len(real.Members))
	for _, rm := range real.Members {
		i := slices.IndexFunc(g.Members, func(m live.Member) bool { return m.MemberID == rm.MemberID })
		require.GreaterOrEqual(t, i, 0, rm.MemberID)
		assert.Equal(t, live.AssignmentString(rm.Assignment), live.AssignmentString(g.Members[i].Assignment))
	}
	c.AssertSentOnly(t, "kviz", live.ReadOnlyKeys)
}

func TestLiveTableFollowsKafkaConsumerGroups(t *testing.T) {
	c, _ := rangeGroup(t, "c1", "c2")
	code, out, errOut := run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--group", "g", "--format", "table")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "GROUP           CONSUMER-ID")
	assert.Contains(t, out, "CURRENT-ASSIGNMENT")
	assert.Contains(t, out, "GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG")
	// What the table says, --from-describe reads back.
	code, back, errOut := run(t, out, "live", "--from-describe", "-", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var g live.Group
	require.NoError(t, json.Unmarshal([]byte(back), &g))
	assert.Len(t, g.Members, 2)
	assert.Equal(t, int32(6), g.Topics["orders"])
}

func TestLiveListsGroups(t *testing.T) {
	c, _ := rangeGroup(t, "c1")
	code, out, errOut := run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--list")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^GROUP +TYPE +STATE\ng +classic +Stable$`, out)
	code, out, _ = run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--list", "--format", "json")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"group":"g","type":"classic"`)
}

func TestLiveErrorsAreOneLine(t *testing.T) {
	c, _ := rangeGroup(t, "c1")
	addr := c.ListenAddrs()[0]
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--group", "g"}, 2, "--bootstrap-server is required"},
		{[]string{"--bootstrap-server", "nohost", "--group", "g"}, 2, `"nohost" is not HOST:PORT`},
		{[]string{"--bootstrap-server", addr}, 2, "give --group G, or --list"},
		{[]string{"--bootstrap-server", addr, "--group", "g", "--format", "yaml"}, 2, "--format must be json or table"},
		{[]string{"--bootstrap-server", addr, "--group", "g", "--sasl-user", "u"}, 2, "--sasl-user needs --sasl-mechanism"},
		{[]string{"--bootstrap-server", addr, "--group", "g", "--sasl-mechanism", "GSSAPI", "--sasl-user", "u"}, 2, "is not one of PLAIN"},
		{[]string{"--bootstrap-server", addr, "--group", "g", "--ca-file", "/no/such.pem"}, 2, "--ca-file"},
		{[]string{"--bootstrap-server", addr, "--group", "nosuch", "--format", "json"}, 1, `group "nosuch" does not exist`},
		{[]string{"--bootstrap-server", "127.0.0.1:1", "--group", "g", "--format", "json", "--timeout", "1s"}, 1, "cannot reach the cluster at 127.0.0.1:1"},
	} {
		code, _, errOut := run(t, "", append([]string{"live"}, tc.args...)...)
		assert.Equal(t, tc.code, code, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, tc.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
	}
}

func TestLiveSASLAndFailedAuth(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, "orders"), kfake.EnableSASL(),
		kfake.Superuser("SCRAM-SHA-256", "admin", "s3cret"))
	require.NoError(t, err)
	t.Cleanup(c.Close)
	args := []string{"live", "--bootstrap-server", c.ListenAddrs()[0], "--list", "--sasl-mechanism", "SCRAM-SHA-256", "--sasl-user", "admin", "--timeout", "3s"}
	t.Setenv(passwordEnv, "wrong")
	code, _, errOut := run(t, "", args...)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "authentication failed")
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	t.Setenv(passwordEnv, "s3cret")
	code, out, errOut := run(t, "", args...)
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "GROUP")
	os.Unsetenv(passwordEnv)
	code, _, errOut = run(t, "", args...)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "$"+passwordEnv)
}

// syncBuffer lets the test read what --watch writes meanwhile.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Split(strings.TrimSpace(s.b.String()), "\n")
}

func TestLiveWatchFollowsAJoinAndALeave(t *testing.T) {
	c, cs := rangeGroup(t, "c1", "c2")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := NewRoot()
	var out syncBuffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs([]string{"live", "--bootstrap-server", c.ListenAddrs()[0], "--group", "g", "--format", "json", "--watch", "--interval", "500ms"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()

	// clients waits until the newest line shows a Stable group of exactly these client ids.
	clients := func(want ...string) live.Group {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for time.Now().Before(deadline) {
			ls := out.lines()
			var g live.Group
			if json.Unmarshal([]byte(ls[len(ls)-1]), &g) == nil && g.State == "Stable" {
				var got []string
				for _, m := range g.Members {
					got = append(got, m.ClientID)
				}
				slices.Sort(got)
				if slices.Equal(got, want) {
					return g
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("--watch never showed %v; last: %s", want, out.lines()[len(out.lines())-1])
		return live.Group{}
	}
	clients("c1", "c2")
	c.Consumer(t, "g", "c3", kgo.ConsumeTopics("orders"), kgo.Balancers(kgo.RangeBalancer()))
	three := clients("c1", "c2", "c3")
	for _, m := range three.Members {
		assert.Len(t, m.Assignment["orders"], 2, "range gives each of three members two of six")
	}
	cs["c1"].Stop()
	two := clients("c2", "c3")
	for _, m := range two.Members {
		assert.Len(t, m.Assignment["orders"], 3)
	}
	cancel()
	require.NoError(t, <-done)
	c.AssertSentOnly(t, "kviz", live.ReadOnlyKeys)
}

// --watch reads through a broker outage: it says so on stderr, waits longer
// each time, says when the cluster answers again, and ends on its signal.
func TestLiveWatchReadsThroughAnOutage(t *testing.T) {
	c, _ := rangeGroup(t, "c1")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := NewRoot()
	var out, errOut syncBuffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs([]string{"live", "--bootstrap-server", c.ListenAddrs()[0], "--group", "g", "--format", "json", "--watch",
		"--interval", "500ms", "--timeout", "1s"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	waitFor := func(buf *syncBuffer, what string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(strings.Join(buf.lines(), "\n"), what) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("never saw %q; stdout %q, stderr %q", what, out.lines(), errOut.lines())
	}
	waitFor(&out, `"state":"Stable"`)
	c.Outage(true)
	waitFor(&errOut, "read 3 failed")
	select {
	case err := <-done:
		t.Fatalf("--watch ended during the outage: %v", err)
	default:
	}
	c.Outage(false)
	waitFor(&errOut, "the cluster answers again after")
	before := len(out.lines())
	waitFor(&out, `"group":"g"`)
	deadline := time.Now().Add(10 * time.Second)
	for len(out.lines()) == before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	assert.Greater(t, len(out.lines()), before, "it prints the group again")
	ls := errOut.lines()
	assert.Contains(t, ls[0], "read 1 failed")
	assert.Contains(t, ls[0], "reading again in 500ms")
	assert.Contains(t, ls[1], "reading again in 1s", "the wait doubles")
	assert.Contains(t, ls[2], "reading again in 2s")
	cancel()
	require.NoError(t, <-done)
}

func TestLiveIntervalHasAFloor(t *testing.T) {
	code, _, errOut := run(t, "", "live", "--bootstrap-server", "127.0.0.1:1", "--group", "g", "--watch", "--format", "json", "--interval", "1ms")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--interval 1ms is below 500ms")
}

// The imported YAML is a normal scenario: whatif answers from its state.
func TestLiveScenarioFeedsWhatIf(t *testing.T) {
	c, _ := rangeGroup(t, "c1", "c2", "c3")
	code, yml, errOut := run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--group", "g", "--scenario")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, yml, "member_id: c1-")
	assert.Contains(t, yml, "generation:")
	assert.Contains(t, errOut, "note: generation: DescribeGroups does not return", "the import's notes go to stderr")
	path := filepath.Join(t.TempDir(), "live.yaml")
	require.NoError(t, os.WriteFile(path, []byte(yml), 0o644))
	code, out, errOut := run(t, "", "whatif", path, "--at-ms", "0", "--leave", "c2")
	require.Equal(t, 0, code, errOut)
	var w struct {
		Before map[string]map[string][]int32 `json:"before"`
		After  map[string]map[string][]int32 `json:"after"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &w), out)
	real := c.GroupInfo("g")
	for _, m := range real.Members {
		assert.Equal(t, live.AssignmentString(m.Assignment), live.AssignmentString(w.Before[m.ClientID]), "before = the live group, %s", m.ClientID)
	}
	assert.Empty(t, w.After["c2"])
	assert.Len(t, w.After["c1"]["orders"], 3)
}

// selfSigned writes a CA-less self-signed certificate for 127.0.0.1 and
// returns the server config and the PEM path a client trusts.
func selfSigned(t *testing.T) (*tls.Config, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kfake"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, MinVersion: tls.VersionTLS12}, path
}

func TestLiveTLS(t *testing.T) {
	srv, ca := selfSigned(t)
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, "orders"), kfake.TLS(srv))
	require.NoError(t, err)
	t.Cleanup(c.Close)
	addr := c.ListenAddrs()[0]
	code, out, errOut := run(t, "", "live", "--bootstrap-server", addr, "--list", "--ca-file", ca)
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "GROUP")
	code, _, errOut = run(t, "", "live", "--bootstrap-server", addr, "--list", "--tls", "--timeout", "2s")
	assert.Equal(t, 1, code, "an unknown CA is refused")
	assert.Contains(t, errOut, "TLS: the broker at "+addr+" has a certificate kviz does not trust")
	code, _, errOut = run(t, "", "live", "--bootstrap-server", addr, "--list", "--insecure-skip-verify")
	assert.Equal(t, 0, code, errOut)
	code, _, errOut = run(t, "", "live", "--bootstrap-server", addr, "--list", "--timeout", "2s")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "does it need TLS (--tls)")
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
}

// A --members paste without --verbose keeps each member's #PARTITIONS and
// says the assignment is missing; as a scenario it says what to paste.
func TestLiveFromDescribeOfMembersWithoutVerbose(t *testing.T) {
	paste := "GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS\nshop c1-aaa /10.0.0.7 c1 3\nshop c2-bbb /10.0.0.8 c2 2\n"
	code, out, errOut := run(t, paste, "live", "--from-describe", "-", "--format", "json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"partition_count":3`)
	assert.Contains(t, out, `"partition_count":2`)
	assert.Contains(t, out, "no ASSIGNMENT column (add --verbose")
	code, _, errOut = run(t, paste, "live", "--from-describe", "-", "--scenario")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "paste --members --verbose or --offsets as well")
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
}

// Issue 20 item 10: kviz connects as Kafka's tools do, from a
// --command-config client.properties (SASL through sasl.jaas.config, TLS
// through a PEM truststore) and $KVIZ_BOOTSTRAP_SERVER.
func TestLiveCommandConfigAndBootstrapEnv(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, "orders"), kfake.EnableSASL(),
		kfake.Superuser("SCRAM-SHA-256", "admin", "s3cret"))
	require.NoError(t, err)
	t.Cleanup(c.Close)
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
		return p
	}
	good := write("good.properties", "bootstrap.servers="+c.ListenAddrs()[0]+"\nsecurity.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\n"+
		`sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="s3cret";`+"\n")
	code, out, errOut := run(t, "", "live", "--command-config", good, "--list")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "GROUP")
	bad := write("bad.properties", "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\n"+
		`sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="nope";`+"\n")
	t.Setenv(bootstrapEnv, c.ListenAddrs()[0])
	code, _, errOut = run(t, "", "live", "--command-config", bad, "--list", "--timeout", "3s")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "authentication failed", "the bootstrap servers came from $"+bootstrapEnv)
	jks := write("jks.properties", "security.protocol=SSL\nssl.truststore.location=/etc/kafka/truststore.jks\n")
	code, _, errOut = run(t, "", "live", "--command-config", jks, "--list")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "JKS stores are not read: kviz reads PEM")
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
}

func TestLiveCommandConfigTLS(t *testing.T) {
	srv, ca := selfSigned(t)
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, "orders"), kfake.TLS(srv))
	require.NoError(t, err)
	t.Cleanup(c.Close)
	p := filepath.Join(t.TempDir(), "tls.properties")
	require.NoError(t, os.WriteFile(p, []byte("security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location="+ca+"\n"), 0o600))
	code, out, errOut := run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--command-config", p, "--list")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "GROUP")
}

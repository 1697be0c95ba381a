package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/live"
	"github.com/kvizlab/kviz/model/scenario"
)

// passwordEnv holds the SASL password: never a flag, so it stays out of
// shell history and ps.
const passwordEnv = "KVIZ_SASL_PASSWORD"

// bootstrapEnv gives the bootstrap servers when neither --bootstrap-server
// nor a --command-config's bootstrap.servers does.
const bootstrapEnv = "KVIZ_BOOTSTRAP_SERVER"

type liveFlags struct {
	bootstrap, group, format, fromDescribe string
	commandConfig                          string
	list, watch, scenario, assignInput     bool
	interval, timeout                      time.Duration
	tls, insecure                          bool
	caFile, certFile, keyFile              string
	saslMechanism, saslUser                string
	// what no API shows about the members (live.ImportOptions)
	sessionTimeout, heartbeatInterval, maxPollInterval time.Duration
	client                                             string
}

// importOptions are the flags the import takes for the members.
func (f *liveFlags) importOptions() live.ImportOptions {
	return live.ImportOptions{SessionTimeout: f.sessionTimeout, HeartbeatInterval: f.heartbeatInterval,
		MaxPollInterval: f.maxPollInterval, Client: f.client}
}

func newLiveCmd() *cobra.Command {
	var f liveFlags
	cmd := &cobra.Command{
		Use:   "live --bootstrap-server HOST:PORT --group G",
		Short: "Read a real consumer group from a cluster (read-only) and show or import it",
		Long: `live reads a consumer group from a running Kafka cluster with franz-go and shows
it: type and protocol, assignor, state, generation or epochs, every member with
its subscription and assignment (under KIP-848 also its target and epoch), and
per partition the committed offset, log end offset and lag. Each member says
the protocol it speaks (member_type; a consumer group with classic members is
KIP-848's online migration, and the table adds Kafka 4's UPGRADED column). A
share group (KIP-932) is shown as kafka-share-groups.sh describes it: members
sharing partitions, group and assignment epochs, share-partition start offsets
and lag; --assign-input gives kviz assign --strategy simple its next
assignment's input, and --scenario writes its given start (no admin API shows
in-flight records' states: records past each start offset are AVAILABLE). It only ever sends ApiVersions, Metadata, FindCoordinator,
ListGroups, DescribeGroups, ConsumerGroupDescribe, ShareGroupDescribe,
OffsetFetch, DescribeShareGroupOffsets, ListOffsets and DescribeConfigs: it
never joins, commits or changes anything.

Predictions take what the cluster tells (DescribeConfigs: the coordinator's
group.consumer.* and group.initial.rebalance.delay.ms, a KIP-848 group's own
configs) and, for what no API shows, --session-timeout, --heartbeat-interval,
--max-poll-interval and --client; each lists the timings it used and where
they came from.

On a terminal it opens the lab on the group, refreshed every --interval; "i"
imports the group into the simulator. --format json|table prints instead
(--watch: again every --interval, until interrupted; a read that fails is said on
stderr and tried again, waiting twice as long each time up to 30s). --scenario prints the group as a scenario
file that kviz simulate, whatif and compare accept. --list lists the groups.

--from-describe FILE (or - for stdin) reads what kafka-consumer-groups.sh
--describe --group G --members --verbose (and --offsets) printed, for clusters a
laptop cannot reach, and says what that text could not tell.

--command-config FILE reads a client .properties file as kafka-consumer-groups.sh
does (bootstrap.servers, security.protocol, sasl.mechanism, sasl.jaas.config,
ssl.* with PEM stores; flags win over it). The bootstrap servers may also come
from $` + bootstrapEnv + `.

The SASL password comes from $` + passwordEnv + `, or a prompt on a terminal;
an OAUTHBEARER token from $` + live.OAuthTokenEnv + `, or the token endpoint a
--command-config names.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runLive(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.bootstrap, "bootstrap-server", "", "HOST:PORT[,HOST:PORT] of the cluster (or $"+bootstrapEnv+")")
	fl.StringVar(&f.commandConfig, "command-config", "", "a client .properties file, as Kafka's tools take it: bootstrap.servers, security.protocol, sasl.*, ssl.* (PEM)")
	fl.StringVar(&f.group, "group", "", "the consumer group to read")
	addFormatFlag(cmd, &f.format, "", "print instead of opening the lab: json or table", "json", "table")
	fl.BoolVar(&f.list, "list", false, "list the cluster's groups with their type and state")
	fl.BoolVar(&f.watch, "watch", false, "print again every --interval (until interrupted)")
	fl.DurationVar(&f.interval, "interval", 2*time.Second, "how often --watch and the lab read the group again (at least 500ms; while the cluster does not answer, --watch waits twice as long each time, up to 30s)")
	fl.BoolVar(&f.scenario, "scenario", false, "print the group as a scenario file (YAML) starting from its state")
	fl.BoolVar(&f.assignInput, "assign-input", false, "print the group as kviz assign input (JSON: real member ids, owned partitions, topic ids); a share group's next assignment is kviz assign --strategy simple on it")
	fl.StringVar(&f.fromDescribe, "from-describe", "", "read kafka-consumer-groups.sh --describe output from FILE (- = stdin) instead of a cluster")
	fl.DurationVar(&f.timeout, "timeout", 10*time.Second, "how long to wait for the cluster")
	fl.BoolVar(&f.tls, "tls", false, "connect with TLS")
	fl.StringVar(&f.caFile, "ca-file", "", "PEM file of the CA that signed the brokers' certificates (implies --tls)")
	fl.StringVar(&f.certFile, "cert-file", "", "PEM client certificate for mutual TLS (implies --tls)")
	fl.StringVar(&f.keyFile, "key-file", "", "PEM key of --cert-file")
	fl.BoolVar(&f.insecure, "insecure-skip-verify", false, "do not verify the brokers' certificates (implies --tls)")
	fl.StringVar(&f.saslMechanism, "sasl-mechanism", "", "SASL mechanism: "+strings.Join(live.SASLMechanisms, ", "))
	fl.StringVar(&f.saslUser, "sasl-user", "", "SASL user (the password: $"+passwordEnv+" or a prompt)")
	fl.DurationVar(&f.sessionTimeout, "session-timeout", 0, "the members' session.timeout.ms, for predictions (classic: no API shows it; default Kafka's 45s)")
	fl.DurationVar(&f.heartbeatInterval, "heartbeat-interval", 0, "the members' heartbeat.interval.ms, for predictions (classic; default Kafka's 3s)")
	fl.DurationVar(&f.maxPollInterval, "max-poll-interval", 0, "the members' max.poll.interval.ms, the rebalance timeout, for predictions (default Kafka's 5m)")
	fl.StringVar(&f.client, "client", "", "the client library the members run, for predictions: "+strings.Join(scenario.Clients, ", ")+" (default java; the describe does not say)")
	_ = cmd.RegisterFlagCompletionFunc("sasl-mechanism", cobra.FixedCompletions(live.SASLMechanisms, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("client", cobra.FixedCompletions(scenario.Clients, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runLive(cmd *cobra.Command, f *liveFlags) error {
	if err := f.check(); err != nil {
		return usageErr(err)
	}
	if f.fromDescribe != "" {
		return liveFromDescribe(cmd, f)
	}
	cfg, err := f.config(cmd)
	if err != nil {
		return usageErr(err)
	}
	r, err := live.Dial(cfg)
	if err != nil {
		return usageErr(err)
	}
	defer r.Close()
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	out := cmd.OutOrStdout()
	if f.list {
		ls, err := withTimeout(ctx, f.timeout, r.List)
		if err != nil {
			return failure(err)
		}
		if f.format == "json" {
			return writeJSON(out, ls)
		}
		if err := live.WriteList(out, ls); err != nil {
			return failure(err)
		}
		return nil
	}
	readGroup := r.Group
	if f.scenario || f.assignInput {
		readGroup = r.GroupShape // neither names an offset
	}
	read := func(ctx context.Context) (*live.Group, error) {
		g, err := readGroup(ctx, f.group)
		if err != nil {
			return nil, err
		}
		return g.WithOptions(f.importOptions()), nil
	}
	if f.format == "" && !f.scenario && !f.assignInput && isTerminal(out) {
		return openLiveLab(cmd, liveSource{Group: f.group, Brokers: f.bootstrap, Interval: f.interval, Read: read, Timeout: f.timeout})
	}
	if !f.watch {
		g, err := withTimeout(ctx, f.timeout, read)
		if err != nil {
			return failure(err)
		}
		return printGroup(out, cmd.ErrOrStderr(), g, f)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return watchGroup(ctx, out, cmd.ErrOrStderr(), f, read)
}

// minInterval is --interval's floor: each read is several requests to the
// cluster (describe, metadata, offsets), so faster reads only load it.
const minInterval = 500 * time.Millisecond

// maxBackoff caps the wait between reads while the cluster does not answer.
const maxBackoff = 30 * time.Second

// watchGroup prints the group every --interval until ctx ends (a signal):
// the first read must succeed (a wrong address, group or password is said
// at once), later failures are an outage, printed once on errOut and read
// through with a backoff that doubles from --interval up to maxBackoff (or
// --interval, if longer), and its end is printed too.
func watchGroup(ctx context.Context, out, errOut io.Writer, f *liveFlags, read func(context.Context) (*live.Group, error)) error {
	g, err := withTimeout(ctx, f.timeout, read)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return failure(err)
	}
	var down time.Time // when the outage began; zero while the cluster answers
	failed := 0
	wait, prev := f.interval, f.interval
	for {
		if g != nil {
			if err := printGroup(out, errOut, g, f); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		g, err = withTimeout(ctx, f.timeout, read)
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			failed++
			if failed == 1 {
				down = time.Now()
			}
			if wait = f.interval; failed > 1 {
				wait = min(2*prev, max(maxBackoff, f.interval))
			}
			prev = wait
			fmt.Fprintf(errOut, "kviz: %s read %d failed: %s; reading again in %s\n", time.Now().Format("15:04:05"), failed, oneLine(err.Error()), wait)
		case failed > 0:
			fmt.Fprintf(errOut, "kviz: %s the cluster answers again after %s (%d failed reads)\n", time.Now().Format("15:04:05"), time.Since(down).Round(time.Second), failed)
			failed, wait = 0, f.interval
		}
	}
}

// liveSource is what the live lab needs: how to read the group again
// (Read), or the group it shows when it was read from a saved output
// (Fixed).
type liveSource struct {
	Group    string
	Brokers  string
	Interval time.Duration
	Timeout  time.Duration
	Read     func(context.Context) (*live.Group, error)
	Fixed    *live.Group
	Source   string // the saved output's file (Fixed)
}

func (f *liveFlags) check() error {
	switch f.format {
	case "", "json", "table":
	default:
		return fmt.Errorf("--format must be json or table, got %q", f.format)
	}
	if f.timeout <= 0 {
		return fmt.Errorf("--timeout must be positive")
	}
	if f.sessionTimeout < 0 || f.heartbeatInterval < 0 || f.maxPollInterval < 0 {
		return fmt.Errorf("--session-timeout, --heartbeat-interval and --max-poll-interval must be positive")
	}
	if f.client != "" && !slices.Contains(scenario.Clients, f.client) {
		return fmt.Errorf("--client must be one of %s, got %q", strings.Join(scenario.Clients, ", "), f.client)
	}
	if f.interval < minInterval {
		return fmt.Errorf("--interval %s is below %s: each read is several requests to the cluster", f.interval, minInterval)
	}
	if f.fromDescribe != "" {
		if f.bootstrap != "" || f.list || f.watch || f.commandConfig != "" {
			return fmt.Errorf("--from-describe reads a saved output: it takes no --bootstrap-server, --command-config, --list or --watch")
		}
		return nil
	}
	if f.bootstrap == "" && f.commandConfig == "" && os.Getenv(bootstrapEnv) == "" {
		return fmt.Errorf("--bootstrap-server is required (or $%s, a --command-config with bootstrap.servers, or --from-describe FILE)", bootstrapEnv)
	}
	if f.list == (f.group != "") {
		return fmt.Errorf("give --group G, or --list")
	}
	if f.scenario && (f.watch || f.format != "") {
		return fmt.Errorf("--scenario prints YAML once: it takes no --watch or --format")
	}
	if f.assignInput && (f.scenario || f.watch || f.format != "") {
		return fmt.Errorf("--assign-input prints kviz assign's JSON once: it takes no --scenario, --watch or --format")
	}
	return nil
}

// config is the connection: --command-config first, then the flags over
// it, the bootstrap servers from the flag, the file or $KVIZ_BOOTSTRAP_SERVER.
func (f *liveFlags) config(cmd *cobra.Command) (live.Config, error) {
	cfg := live.Config{Timeout: f.timeout}
	if f.bootstrap != "" {
		brokers, err := live.ParseBrokers(f.bootstrap)
		if err != nil {
			return cfg, err
		}
		cfg.Brokers = brokers
	}
	if f.commandConfig != "" {
		props, err := live.ReadPropertiesFile(f.commandConfig)
		if err != nil {
			return cfg, err
		}
		if err := cfg.ApplyProperties(f.commandConfig, props); err != nil {
			return cfg, err
		}
	}
	if len(cfg.Brokers) == 0 {
		env := os.Getenv(bootstrapEnv)
		brokers, err := live.ParseBrokers(env)
		if err != nil {
			return cfg, fmt.Errorf("$%s: %v", bootstrapEnv, strings.TrimPrefix(err.Error(), "--bootstrap-server: "))
		}
		cfg.Brokers = brokers
	}
	cfg.TLS = cfg.TLS || f.tls || f.caFile != "" || f.certFile != "" || f.insecure
	cfg.InsecureSkipVerify = cfg.InsecureSkipVerify || f.insecure
	for flag, into := range map[string]*string{f.caFile: &cfg.CAFile, f.certFile: &cfg.CertFile, f.keyFile: &cfg.KeyFile} {
		if flag != "" {
			*into = flag
		}
	}
	fromFile := cfg.SASLPassword != "" || cfg.OAuth != nil
	if f.saslMechanism != "" {
		cfg.SASLMechanism, fromFile = strings.ToUpper(f.saslMechanism), false
		cfg.SASLUser, cfg.SASLPassword, cfg.OAuth = f.saslUser, "", nil
	} else if f.saslUser != "" {
		cfg.SASLUser = f.saslUser
	}
	if cfg.SASLMechanism == "OAUTHBEARER" && cfg.OAuth == nil {
		if tok := os.Getenv(live.OAuthTokenEnv); tok != "" {
			cfg.OAuth = &live.OAuthConfig{Token: tok}
		}
	}
	if err := cfg.Check(); err != nil {
		return cfg, err
	}
	if cfg.SASLMechanism != "" && cfg.SASLMechanism != "OAUTHBEARER" && !fromFile {
		var err error
		if cfg.SASLPassword, err = saslPassword(cmd); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// saslPassword reads $KVIZ_SASL_PASSWORD, or prompts on a terminal.
func saslPassword(cmd *cobra.Command) (string, error) {
	if p, ok := os.LookupEnv(passwordEnv); ok {
		return p, nil
	}
	in, ok := cmd.InOrStdin().(*os.File)
	if !ok || !term.IsTerminal(in.Fd()) {
		return "", fmt.Errorf("--sasl-user needs a password: set $%s (no terminal to prompt on)", passwordEnv)
	}
	fmt.Fprint(cmd.ErrOrStderr(), "SASL password: ")
	b, err := term.ReadPassword(in.Fd())
	fmt.Fprintln(cmd.ErrOrStderr())
	if err != nil {
		return "", fmt.Errorf("reading the password: %v", err)
	}
	return string(b), nil
}

func printGroup(out, errOut io.Writer, g *live.Group, f *liveFlags) error {
	switch {
	case f.scenario:
		return printLiveScenario(out, errOut, g, failure)
	case f.assignInput:
		return writeJSON(out, g.AssignInput())
	case f.format == "table":
		if err := live.WriteTable(out, g); err != nil {
			return failure(err)
		}
		if f.watch {
			_, _ = fmt.Fprintln(out)
		}
		return nil
	}
	return writeJSON(out, g)
}

func withTimeout[T any](ctx context.Context, d time.Duration, fn func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	v, err := fn(ctx)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) && !strings.Contains(err.Error(), "cannot reach") {
		err = fmt.Errorf("no answer from the cluster within --timeout %s: %v", d, err)
	}
	return v, err
}

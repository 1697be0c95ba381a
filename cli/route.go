package cli

import (
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/kvizlab/kviz/strategies"
	"github.com/spf13/cobra"
)

// newRouteCmd is `kviz route`: which partition Kafka's producer picks for a
// key. Flags and json output are a contract.
func newRouteCmd() *cobra.Command {
	var (
		partitions     int
		key, keyHex    string
		format         string
		keySet, hexSet bool
	)
	cmd := &cobra.Command{
		Use:   "route --partitions N (--key K | --key-hex HEX) [--format json|text]",
		Short: "Show the partition Kafka's producer picks for a key",
		Long: `Follows the Java producer's key path: key bytes → murmur2 → toPositive → mod N.

The key is --key (its UTF-8 bytes; --key "" is an empty, non-null key, which
is hashed like any other) or --key-hex (raw bytes, e.g. 6b657931). N counts
all partitions of the topic, available or not, as Kafka does.

Output with --format json (one line): {"partition": 2, "murmur2": 28543940}
where murmur2 is signed, as Kafka's Utils.murmur2 returns it.
--format text (the default on a terminal; json otherwise) shows each step.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			keySet, hexSet = cmd.Flags().Changed("key"), cmd.Flags().Changed("key-hex")
			return runRoute(cmd, partitions, key, keyHex, keySet, hexSet, format)
		},
	}
	f := cmd.Flags()
	f.IntVar(&partitions, "partitions", 0, "number of partitions of the topic (required)")
	f.StringVar(&key, "key", "", "the key, as UTF-8 text")
	f.StringVar(&keyHex, "key-hex", "", "the key as hex bytes")
	addFormatFlag(cmd, &format, "", "output format: json or text (default: text on a terminal, json otherwise)", "json", "text")
	_ = cmd.MarkFlagRequired("partitions")
	cmd.MarkFlagsMutuallyExclusive("key", "key-hex")
	cmd.MarkFlagsOneRequired("key", "key-hex")
	return cmd
}

func runRoute(cmd *cobra.Command, partitions int, key, keyHex string, keySet, hexSet bool, format string) error {
	text, err := textOrJSON(cmd, format)
	if err != nil {
		return err
	}
	if partitions < 1 || partitions > strategies.MaxPartitions {
		return usageErrf("--partitions must be between 1 and %d, got %d", strategies.MaxPartitions, partitions)
	}
	keyBytes := []byte(key)
	if hexSet && !keySet {
		keyBytes, err = hex.DecodeString(strings.TrimPrefix(strings.TrimPrefix(keyHex, "0x"), "0X"))
		if err != nil {
			return usageErrf("--key-hex %q is not hex bytes: %v", keyHex, err)
		}
	}
	r := strategies.RouteKey(keyBytes, partitions)
	out := cmd.OutOrStdout()
	if !text {
		_, err = fmt.Fprintf(out, "{\"partition\": %d, \"murmur2\": %d}\n", r.Partition, r.Murmur2)
		return err
	}
	return writeLines(out, r.Steps())
}

// textOrJSON resolves --format for the producer-side commands: "text" or
// "json"; empty means text on a terminal and json otherwise, so pipes get
// the contract and people get the explanation.
func textOrJSON(cmd *cobra.Command, format string) (text bool, err error) {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "":
		return isTerminal(cmd.OutOrStdout()), nil
	case "text":
		return true, nil
	case "json":
		return false, nil
	}
	return false, usageErrf("--format %q: want json or text", format)
}

func writeLines(w io.Writer, lines []string) error {
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

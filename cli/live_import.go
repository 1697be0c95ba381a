package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/live"
)

// printLiveScenario prints the group as a scenario file (YAML), and on
// errOut a "note:" line for each thing the import could not carry exactly
// (the file's notes: say the same). bad wraps a group that cannot be a
// scenario: a cluster's is a runtime failure, a pasted output's bad input.
func printLiveScenario(out, errOut io.Writer, g *live.Group, bad func(error) error) error {
	yml, _, notes, err := g.Import()
	if err != nil {
		return bad(err)
	}
	if _, err := out.Write(yml); err != nil {
		return failure(err)
	}
	for _, n := range notes {
		fmt.Fprintln(errOut, "note: "+n)
	}
	return nil
}

// liveFromDescribe reads saved kafka-consumer-groups.sh output and prints
// or opens it as `kviz live` would the cluster's group.
func liveFromDescribe(cmd *cobra.Command, f *liveFlags) error {
	g, err := readDescribe(cmd.InOrStdin(), f.fromDescribe)
	if err != nil {
		return err
	}
	g.WithOptions(f.importOptions())
	if f.group != "" && f.group != g.Group {
		return usageErrf("%s: the output is of group %q, not --group %q", f.fromDescribe, g.Group, f.group)
	}
	out := cmd.OutOrStdout()
	if f.format == "" && !f.scenario && !f.assignInput && isTerminal(out) {
		return openLiveLab(cmd, liveSource{Group: g.Group, Fixed: g, Source: f.fromDescribe})
	}
	if f.scenario {
		return printLiveScenario(out, cmd.ErrOrStderr(), g, usageErr)
	}
	return printGroup(out, cmd.ErrOrStderr(), g, f)
}

func readDescribe(stdin io.Reader, name string) (*live.Group, error) {
	r := stdin
	if name != "-" {
		fh, err := os.Open(name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, usageErrf("%s: no such file", name)
			}
			return nil, usageErrf("%s: %v", name, err)
		}
		defer fh.Close()
		r = fh
	} else {
		name = "stdin"
	}
	g, err := live.ParseDescribe(name, r)
	if err != nil {
		return nil, usageErr(fmt.Errorf("%v", err))
	}
	return g, nil
}

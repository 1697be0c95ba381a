package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/demo"
)

// newDemosCmd is `kviz demos`: every shipped demo scenario. The json
// shape is a contract.
func newDemosCmd() *cobra.Command {
	var format, yamlOf string
	cmd := &cobra.Command{
		Use:   "demos [--format json|text] [--yaml NAME]",
		Short: "List the shipped demo scenarios (kviz play demo:NAME opens one)",
		Long: `Lists every demo scenario kviz ships, in name order: its name (open it with
kviz play demo:NAME or kviz simulate demo:NAME), its title, the worked
examples of the course it shows, and its strategy and protocol.

Output with --format json (one line): [{"name": "example-07-sticky-leave",
"title": "...", "examples": [7], "strategy": "sticky", "protocol": "eager",
"open": "compare"}, ...] ("open", the mode the lab opens the demo in, only
when the demo asks for one).
--format text (the default on a terminal; json otherwise) is a table.

--yaml NAME prints one demo's scenario file, to start a scenario of your
own from (NAME as demo:NAME takes it: a name, a prefix, an example number).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("yaml") {
				return printDemoYAML(cmd, yamlOf)
			}
			return runDemos(cmd, format)
		},
	}
	cmd.Flags().StringVar(&yamlOf, "yaml", "", "print this demo's scenario file instead of the list")
	addFormatFlag(cmd, &format, "", "output format: json or text (default: text on a terminal, json otherwise)", "json", "text")
	return cmd
}

// printDemoYAML writes a shipped demo's file as it is embedded.
func printDemoYAML(cmd *cobra.Command, ref string) error {
	name, err := demo.Resolve(strings.TrimPrefix(ref, "demo:"))
	if err != nil {
		return usageErr(err)
	}
	data, _ := demo.Get(name)
	_, err = cmd.OutOrStdout().Write(data)
	return err
}

// demoJSON is one demo in `kviz demos --format json`.
type demoJSON struct {
	Name     string `json:"name"`
	Title    string `json:"title"`
	Examples []int  `json:"examples"`
	Strategy string `json:"strategy"`
	Protocol string `json:"protocol"`
	Open     string `json:"open,omitempty"`
}

func runDemos(cmd *cobra.Command, format string) error {
	text, err := textOrJSON(cmd, format)
	if err != nil {
		return err
	}
	demos, err := demo.Demos()
	if err != nil {
		return failure(err)
	}
	w := bufio.NewWriter(cmd.OutOrStdout())
	if text {
		writeDemosText(w, demos)
		return w.Flush()
	}
	out := make([]demoJSON, len(demos))
	for i, d := range demos {
		out[i] = demoJSON{Name: d.Name, Title: d.Title, Examples: d.Examples, Strategy: d.Strategy, Protocol: d.Protocol, Open: string(d.Open)}
		if out[i].Examples == nil {
			out[i].Examples = []int{}
		}
	}
	data, err := json.Marshal(out)
	if err != nil {
		return failure(err)
	}
	w.Write(data)
	w.WriteString("\n")
	return w.Flush()
}

func writeDemosText(w *bufio.Writer, demos []demo.DemoInfo) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tEXAMPLES\tSTRATEGY\tPROTOCOL\tTITLE")
	for _, d := range demos {
		ex := make([]string, len(d.Examples))
		for i, e := range d.Examples {
			ex[i] = fmt.Sprint(e)
		}
		examples := strings.Join(ex, ",")
		if examples == "" {
			examples = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", d.Name, examples, d.Strategy, d.Protocol, d.Title)
	}
	tw.Flush()
}

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/frame"
	"github.com/kvizlab/kviz/tui"
)

var exportFormats = []string{"svg", "txt", "ansi", "cast"}

type exportOpts struct {
	step          int
	atMs          int64
	width, height int
	format, out   string
}

func newExportCmd() *cobra.Command {
	var o exportOpts
	cmd := &cobra.Command{
		Use:   "export FILE|demo:NAME",
		Short: "Write the lab's screen at a step as SVG, text, ANSI or an asciicast",
		Long: `export draws the lab exactly as it looks at one step on a terminal of the
given size (the same screen, not a second renderer), for slides and docs:

  svg   the terminal's grid of cells with their colours and bold
  txt   the same frame without escape codes
  ansi  the frame with its escape codes (cat it in a terminal)
  cast  an asciicast v2 recording from that step to the end, one frame per
        step at the lab's autoplay speed (asciinema play FILE)

--step is the step index as kviz simulate prints it (the lab's header counts
from 1); --at-ms picks the last step at or before that virtual time. Without
--format, the extension of -o chooses it (else svg).`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrf("export needs exactly one scenario file (or demo:NAME), got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(cmd, args[0], o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.step, "step", -1, "the step to draw (0 = the first)")
	f.Int64Var(&o.atMs, "at-ms", -1, "draw the last step at or before this virtual time (ms)")
	f.IntVar(&o.width, "width", 120, "terminal columns")
	f.IntVar(&o.height, "height", 40, "terminal rows")
	addFormatFlag(cmd, &o.format, "", "svg, txt, ansi or cast (default: from -o's extension, else svg)", exportFormats...)
	f.StringVarP(&o.out, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

func runExport(cmd *cobra.Command, file string, o exportOpts) error {
	format, err := exportFormat(o)
	if err != nil {
		return err
	}
	if minW, minH := tui.MinSize(); o.width < minW || o.width > 1000 || o.height < minH || o.height > 500 {
		return usageErrf("--width and --height must be %d..1000 and %d..500 (the lab needs %d×%d), got %d×%d",
			minW, minH, minW, minH, o.width, o.height)
	}
	if o.step >= 0 && o.atMs >= 0 {
		return usageErrf("--step and --at-ms both pick the step: give one")
	}
	if cmd.Flags().Changed("at-ms") && o.atMs < 0 {
		return usageErrf("--at-ms must not be negative, got %d", o.atMs)
	}
	if cmd.Flags().Changed("step") && o.step < 0 {
		return usageErrf("--step must not be negative, got %d", o.step)
	}
	app, err := labApp(file)
	if err != nil {
		return err
	}
	if o.step >= app.Steps() {
		return usageErrf("--step %d: %s has steps 0..%d", o.step, file, app.Steps()-1)
	}
	app = app.Sized(o.width, o.height)
	switch {
	case o.step >= 0:
		app = app.AtStep(o.step)
	case o.atMs >= 0:
		app = app.AtMs(o.atMs)
	}
	data, err := exportData(app, format, o, file)
	if err != nil {
		return failure(err)
	}
	if o.out == "" {
		_, err = cmd.OutOrStdout().Write(data)
		return err
	}
	if err := os.WriteFile(o.out, data, 0o644); err != nil {
		return failure(err)
	}
	return nil
}

// exportFormat is --format, or what -o's extension says, or svg. An
// extension kviz does not write (x.png), or one that contradicts --format,
// is refused rather than given a file its name lies about.
func exportFormat(o exportOpts) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(o.out), "."))
	if ext != "" && !slices.Contains(exportFormats, ext) {
		return "", usageErrf("-o %s: kviz export writes .%s files, not .%s", o.out, strings.Join(exportFormats, ", ."), ext)
	}
	if o.format == "" {
		if ext != "" {
			return ext, nil
		}
		return "svg", nil
	}
	if !slices.Contains(exportFormats, o.format) {
		return "", usageErrf("--format %q: choose %s", o.format, strings.Join(exportFormats, ", "))
	}
	if ext != "" && ext != o.format {
		return "", usageErrf("-o %s is a .%s file but --format is %s: name it .%s", o.out, ext, o.format, o.format)
	}
	return o.format, nil
}

func exportData(app tui.App, format string, o exportOpts, title string) ([]byte, error) {
	switch format {
	case "svg":
		return frame.Parse(app.Frame(), o.width, o.height).SVG(), nil
	case "txt":
		return []byte(frame.Parse(app.Frame(), o.width, o.height).Text()), nil
	case "ansi":
		return []byte(app.Frame() + "\x1b[0m\n"), nil
	}
	steps, every := app.PlaySteps()
	shots := make([]frame.Shot, len(steps))
	for i, s := range steps {
		shots[i] = frame.Shot{At: time.Duration(i) * every, Content: app.AtStep(s).Frame()}
	}
	var b bytes.Buffer
	err := frame.WriteCast(&b, o.width, o.height, "kviz "+title, shots)
	return b.Bytes(), err
}

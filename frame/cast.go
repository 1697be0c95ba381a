package frame

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"time"
)

// Shot is one screen of a recording and when it appears.
type Shot struct {
	At      time.Duration
	Content string // the View's content: lines with escape codes
}

// castHeader is asciicast v2's first line
// (https://docs.asciinema.org/manual/asciicast/v2/).
type castHeader struct {
	Version int               `json:"version"`
	Width   int               `json:"width"`
	Height  int               `json:"height"`
	Title   string            `json:"title,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// WriteCast writes an asciicast v2 recording of the shots on a
// width × height terminal: the header line, then one output event
// [seconds, "o", data] per shot, each repainting the whole screen.
func WriteCast(w io.Writer, width, height int, title string, shots []Shot) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw) // one JSON value a line, as the format wants
	if err := enc.Encode(castHeader{Version: 2, Width: width, Height: height, Title: title,
		Env: map[string]string{"TERM": "xterm-256color"}}); err != nil {
		return err
	}
	for _, s := range shots {
		if err := enc.Encode([]any{s.At.Seconds(), "o", repaint(s.Content)}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// repaint is what a terminal needs to show content from a blank screen:
// cursor home, erase, then the lines, each returned to column 0 (the
// recording replays raw output, where "\n" alone only moves down).
func repaint(content string) string {
	return "\x1b[H\x1b[2J\x1b[0m" + strings.ReplaceAll(content, "\n", "\r\n") + "\x1b[0m"
}

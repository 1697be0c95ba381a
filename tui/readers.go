package tui

import (
	"fmt"

	"github.com/kvizlab/kviz/model"
)

// readerLine is another group reading the topics (a scenario's readers:):
// what it has read of the log and committed.
func (fp producerPane) readerLine(r model.FlowReader) string {
	st := fp.st
	head := st.Bold.Render("group "+r.Group) + st.brushes.faint.paint(fmt.Sprintf(" · auto.offset.reset %s", r.Reset))
	if !r.Started {
		return head + st.brushes.faint.paint(" · not started yet")
	}
	return head + st.brushes.faint.paint(fmt.Sprintf(" · read %s of %s · committed %s", count(r.Read), count(r.LogEnd), count(r.Committed)))
}

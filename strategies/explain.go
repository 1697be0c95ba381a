package strategies

import "fmt"

// DefaultExplainLimit is how many steps an Explainer keeps before it only
// counts. Explanations are for people; a million lines help nobody.
const DefaultExplainLimit = 400

// Explainer collects the steps an assignor takes, in words. A nil *Explainer
// records nothing, so assignors call it unconditionally; in hot loops they
// check Enabled first to skip formatting.
type Explainer struct {
	lines   []string
	limit   int
	dropped int
}

// NewExplainer returns an explainer that keeps up to limit lines (0 = default).
func NewExplainer(limit int) *Explainer {
	if limit <= 0 {
		limit = DefaultExplainLimit
	}
	return &Explainer{limit: limit}
}

// Enabled reports whether another line would be kept.
func (e *Explainer) Enabled() bool { return e != nil && len(e.lines) < e.limit }

// Addf records one step.
func (e *Explainer) Addf(format string, args ...any) {
	if e == nil {
		return
	}
	if len(e.lines) >= e.limit {
		e.dropped++
		return
	}
	e.lines = append(e.lines, fmt.Sprintf(format, args...))
}

// Skip counts a step that was not formatted because Enabled was false.
func (e *Explainer) Skip() {
	if e != nil {
		e.dropped++
	}
}

// Lines returns the steps, with a closing line when some were left out.
func (e *Explainer) Lines() []string {
	if e == nil {
		return nil
	}
	if e.dropped == 0 {
		return e.lines
	}
	return append(append([]string(nil), e.lines...), fmt.Sprintf("… and %d more steps", e.dropped))
}

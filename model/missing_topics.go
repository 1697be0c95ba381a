package model

import (
	"fmt"
	"strings"

	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// missingTopicsNote says which subscribed topics do not exist, for the
// narration of a start or a subscription change ("" when all exist). Kafka
// takes such a subscription: the assignors get no metadata for the topic
// and assign nothing of it (DESIGN.md, "Topics that do not exist"). The hint
// names a close existing topic, since a typo is the likeliest cause.
func (w *world) missingTopicsNote(topics []string) string {
	var missing []string
	hint := ""
	for _, t := range topics {
		if _, ok := w.sc.Topics[t]; ok {
			continue
		}
		missing = append(missing, fmt.Sprintf("%q", t))
		if hint == "" {
			hint = scenario.Suggest(t, strategies.SortedTopics(w.sc.Topics))
		}
	}
	switch len(missing) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" Topic %s does not exist%s: Kafka assigns nothing of it.", missing[0], hint)
	}
	return fmt.Sprintf(" Topics %s do not exist%s: Kafka assigns nothing of them.", strings.Join(missing, ", "), hint)
}

package model

import "strings"

// PartitionQuery reads a search as Find does: the topic and partition it
// names ("orders-3", "orders:3", "orders 3"), or ok false when it names
// none of the view's partitions. The lab uses it to show the topic found.
func (v *GroupView) PartitionQuery(q string) (topic string, partition int32, ok bool) {
	return v.partitionQuery(strings.TrimSpace(q))
}

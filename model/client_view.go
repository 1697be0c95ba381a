package model

// view builds the member's picture for a snapshot. Slices are shared: the
// client never changes a published slice in place.
func (c *client) view() *MemberView {
	v := &MemberView{ID: c.id, InstanceID: c.instance, MemberID: c.memberID, Status: c.status,
		Topics: c.topics, Owned: c.owned, Revoking: c.revoking, Pending: c.pending,
		NewlyAssigned: c.newlyAssigned, Generation: c.generation, LastCallback: c.lastCallback}
	switch {
	case c.w.share != nil:
		c.w.share.shareView(c, v) // share_client.go
	case c.w.consumer:
		// The coordinator's record of the member: its epoch and state (a
		// classic member of a consumer group has them too).
		if m := c.w.consumerGroup.members[c.memberID]; m != nil && !m.unwritten && c.memberID != "" {
			v.InGroup, v.MemberEpoch, v.MemberState = true, m.epoch, m.state
		}
		if c.consumer != nil {
			v.Pending = c.consumer.pendingView()
		}
		if m := c.w.consumerGroup.members[c.memberID]; m != nil && c.regex() != "" {
			v.Topics = m.topics // what the coordinator resolved its regex to (pattern_regex.go)
		}
	case c.memberID != "":
		v.InGroup = c.w.classic.members[c.memberID] != nil
	}
	return v
}

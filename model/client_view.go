package model

// view builds the member's picture for a snapshot. Slices are shared: the
// client never changes a published slice in place.
func (c *client) view() *MemberView {
	v := &MemberView{ID: c.id, InstanceID: c.instance, MemberID: c.memberID, Status: c.status,
		Topics: c.topics, Owned: c.owned, Revoking: c.revoking, Pending: c.pending,
		NewlyAssigned: c.newlyAssigned, Generation: c.generation, LastCallback: c.lastCallback}
	if c.kip != nil {
		v.MemberEpoch = c.kip.epoch
		v.MemberState = c.kip.state
		v.Pending = c.kip.pendingView()
	}
	return v
}

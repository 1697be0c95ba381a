package scenario

// ProtocolAt is the group.protocol member id runs at ms, as the scenario's
// members, joins and rolling restarts set it.
func (sc *Scenario) ProtocolAt(id string, ms int64) string {
	s, _ := settingsBy(sc, id, ms)
	return sc.MemberProtocol(s)
}

// OtherProtocol is the protocol a rolling restart of the member at ms
// moves it to (KIP-848's online migration: classic ↔ consumer).
func (sc *Scenario) OtherProtocol(id string, ms int64) string {
	if sc.ProtocolAt(id, ms) == ProtocolConsumer {
		return ProtocolClassic
	}
	return ProtocolConsumer
}

package serve

import (
	"bytes"
	"fmt"
	"os"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// ReadTrainerKeys reads an authorized_keys file: the keys whose sessions
// drive the room.
func ReadTrainerKeys(path string) ([]ssh.PublicKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--trainer-key %s: %w", path, err)
	}
	var keys []ssh.PublicKey
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, _, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: not an authorized_keys line: %v", path, n+1, err)
		}
		keys = append(keys, key)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("--trainer-key %s: no key in the file", path)
	}
	return keys, nil
}

// publicKeyAuth lets a trainer in by key. Any other key is declined, so
// the client goes on to keyboard-interactive, which lets everyone in: an
// attendee's key never decides anything, and a trainer whose agent offers
// another key first still gets to offer the trainer's.
func (s *Server) publicKeyAuth(_ ssh.Context, key ssh.PublicKey) bool {
	return s.isTrainer(key)
}

func (s *Server) isTrainer(key ssh.PublicKey) bool {
	if key == nil {
		return false
	}
	for _, k := range s.cfg.TrainerKeys {
		if ssh.KeysEqual(key, k) {
			return true
		}
	}
	return false
}

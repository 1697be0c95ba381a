package strategies

import (
	"fmt"
	"strconv"
	"strings"
)

// ClientVersion is a Kafka release, "major.minor[.patch]": kviz's one notion
// of a version, for the producer's partitioners and the consumer's and the
// coordinator's assignors alike (versions.go lists what changed when).
// Producer partitioning changed in 2.4 (KIP-480), 3.3 (KIP-794) and 4.0, and
// a bug fix landed in a patch release, so kviz compares all three parts.
type ClientVersion struct{ Major, Minor, Patch int }

// LatestClientVersion is what an empty version string means: the newest
// release whose changes kviz models.
var LatestClientVersion = ClientVersion{4, 1, 0}

// ParseClientVersion reads "2.3", "3.9.1" or "4.0.0" ("" = latest).
func ParseClientVersion(s string) (ClientVersion, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return LatestClientVersion, nil
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return ClientVersion{}, fmt.Errorf("kafka version %q: want major.minor or major.minor.patch, e.g. 3.9 or 3.9.1", s)
	}
	var nums [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return ClientVersion{}, fmt.Errorf("kafka version %q: %q is not a non-negative number", s, p)
		}
		nums[i] = n
	}
	v := ClientVersion{nums[0], nums[1], nums[2]}
	if newest := NewestKnownRelease(); v.Major > newest.Major || v.Major == newest.Major && v.Minor > newest.Minor {
		return ClientVersion{}, fmt.Errorf("kafka version %s: kviz knows Kafka releases up to %d.%d (kviz assign --help lists them)", v, newest.Major, newest.Minor)
	}
	return v, nil
}

// AtLeast reports whether v is the release major.minor.patch or later.
func (v ClientVersion) AtLeast(major, minor, patch int) bool {
	if v.Major != major {
		return v.Major > major
	}
	if v.Minor != minor {
		return v.Minor > minor
	}
	return v.Patch >= patch
}

func (v ClientVersion) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// DefaultLingerMs is linger.ms's default: 0 up to 3.9, 5 since 4.0 (KIP-1030).
func (v ClientVersion) DefaultLingerMs() int {
	if v.AtLeast(4, 0, 0) {
		return 5
	}
	return 0
}

// DefaultBatchSize is batch.size's default, 16384 bytes in every release.
const DefaultBatchSize = 16384

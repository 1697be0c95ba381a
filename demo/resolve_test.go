package demo_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
)

func TestResolveFindsWhatATrainerTypes(t *testing.T) {
	for ref, want := range map[string]string{
		"example-10-static-restart": "example-10-static-restart",
		"10":                        "example-10-static-restart",
		"example-10":                "example-10-static-restart",
		"example 10":                "example-10-static-restart",
		"Example10":                 "example-10-static-restart",
		"2":                         "example-02-range-five-topics",
		"example-02":                "example-02-range-five-topics",
		"kip848-join":               "kip848-join",
		"kip848-j":                  "kip848-join",
		"lab.yaml":                  "lab",
		"upgrade":                   "upgrade-cooperative",
		"share-p":                   "share-poison-record",
		"share-simple-42":           "share-simple-42",
	} {
		got, err := demo.Resolve(ref)
		if assert.NoError(t, err, ref) {
			assert.Equal(t, want, got, ref)
		}
	}
}

func TestResolveSaysWhyNot(t *testing.T) {
	_, err := demo.Resolve("7")
	require.Error(t, err)
	assert.Equal(t, `demo "7" is ambiguous: example-07-roundrobin-leave, example-07-sticky-leave`, err.Error())
	_, err = demo.Resolve("kip848")
	assert.ErrorContains(t, err, "is ambiguous: kip848-batching, kip848-downgrade, kip848-join, kip848-static-crash, kip848-upgrade")
	_, err = demo.Resolve("share")
	assert.ErrorContains(t, err, "is ambiguous: share-crash-locks, share-failover, share-poison-record, share-simple-41, share-simple-42, share-three-members")
	_, err = demo.Resolve("exampel-10")
	assert.EqualError(t, err, `no demo "exampel-10" (did you mean "example-10"?) (kviz demos lists them)`)
	_, err = demo.Resolve("lap")
	assert.EqualError(t, err, `no demo "lap" (did you mean "lab"?) (kviz demos lists them)`)
	_, err = demo.Resolve("99")
	assert.EqualError(t, err, `no demo shows example 99 (kviz demos lists them)`)
	_, err = demo.Resolve("")
	assert.Error(t, err)
}

// The example number of a demo is in its name (byExample's rule) and in its
// examples: list, and the two agree for every shipped demo.
func TestExampleDemosAgreeWithTheCatalogue(t *testing.T) {
	demos, err := demo.Demos()
	require.NoError(t, err)
	for _, d := range demos {
		for _, n := range d.Examples {
			assert.Contains(t, demo.ExampleDemos(n), d.Name, "example %d", n)
		}
		if strings.HasPrefix(d.Name, "example-") {
			var n int
			_, err := fmt.Sscanf(d.Name, "example-%02d-", &n)
			require.NoError(t, err, d.Name)
			assert.Contains(t, d.Examples, n, "%s names example %d", d.Name, n)
		}
	}
}

package demo

import (
	"slices"
	"strconv"
	"strings"
)

// Rank orders the demos a picker's filter keeps for what was typed: a
// number (or "example N") first matches the worked example it names, then
// names, then titles; words match names, then tags, then titles; an exact
// match ranks above a partial one, and ties keep catalogue order. Every
// typed word must match somewhere. It returns indexes into demos.
func Rank(query string, demos []DemoInfo) []int {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return nil
	}
	if n, ok := exampleNumber(strings.Join(words, " ")); ok {
		words = []string{strconv.Itoa(n)}
	}
	type ranked struct{ i, tier int }
	var out []ranked
	for i, d := range demos {
		worst := 0
		for _, w := range words {
			t := wordTier(w, d)
			if t < 0 {
				worst = -1
				break
			}
			worst = max(worst, t)
		}
		if worst >= 0 {
			out = append(out, ranked{i, worst})
		}
	}
	slices.SortStableFunc(out, func(a, b ranked) int { return a.tier - b.tier })
	idx := make([]int, len(out))
	for k, r := range out {
		idx[k] = r.i
	}
	return idx
}

// Tiers, best first.
const (
	tierExample   = iota // the number of a worked example the demo shows
	tierName             // the whole name
	tierNameWord         // a whole word of the name (between dashes)
	tierTag              // a whole tag, or a word of one
	tierTitleWord        // a whole word of the title
	tierNamePart         // part of the name
	tierTitlePart        // part of the title, or of a tag
)

// wordTier is how well one typed word matches d, or -1.
func wordTier(w string, d DemoInfo) int {
	name, title := strings.ToLower(d.Name), strings.ToLower(d.Title)
	if n, err := strconv.Atoi(w); err == nil {
		if slices.Contains(d.Examples, n) {
			return tierExample
		}
		w = strconv.Itoa(n) // "05" and "5" are one number: names pad it
		if slices.ContainsFunc(strings.Split(name, "-"), func(p string) bool { q, err := strconv.Atoi(p); return err == nil && q == n }) {
			return tierNameWord
		}
	}
	tags := strings.ToLower(strings.Join(d.Tags, " · "))
	switch {
	case name == w:
		return tierName
	case slices.Contains(strings.Split(name, "-"), w):
		return tierNameWord
	case slices.Contains(strings.Fields(strings.ReplaceAll(tags, "·", " ")), w) || slices.Contains(strings.Split(tags, " · "), w):
		return tierTag
	case slices.Contains(titleWords(title), w):
		return tierTitleWord
	case strings.Contains(name, w):
		return tierNamePart
	case strings.Contains(title, w) || strings.Contains(tags, w):
		return tierTitlePart
	}
	return -1
}

// titleWords splits a title at anything that is not a letter or a digit.
func titleWords(title string) []string {
	return strings.FieldsFunc(title, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
}

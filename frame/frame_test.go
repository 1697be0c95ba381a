package frame_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	. "github.com/kvizlab/kviz/frame"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/tui"
)

// A screen as lipgloss draws it: colours, bold, a box.
func sample() string {
	red := lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000")).Bold(true)
	onBlue := lipgloss.NewStyle().Background(lipgloss.Color("#0000ff"))
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Width(12).Render("in a box")
	return red.Render("hot") + " " + onBlue.Render("cold") + " <&>\n" + box
}

func TestParseReadsCellsAndStyles(t *testing.T) {
	g := Parse(sample(), 20, 6)
	assert.Equal(t, "h", g.Cell(0, 0).Content)
	assert.True(t, colorIs(g.Cell(0, 0).Style.Fg, 0xff, 0, 0), "fg %v", g.Cell(0, 0).Style.Fg)
	assert.NotZero(t, g.Cell(0, 0).Style.Attrs&uv.AttrBold)
	assert.True(t, colorIs(g.Cell(4, 0).Style.Bg, 0, 0, 0xff))
	assert.Nil(t, g.Cell(3, 0).Style.Bg, "the space between has no background")
	assert.Equal(t, "╭", g.Cell(0, 1).Content)
	assert.Nil(t, g.Cell(20, 0), "outside the grid")
	assert.Equal(t, "hot cold <&>\n╭──────────╮\n│in a box  │\n╰──────────╯\n\n\n", g.Text())
}

func TestParseCutsToTheScreen(t *testing.T) {
	g := Parse("abcdef\n1\n2\n3", 3, 2)
	assert.Equal(t, "abc\n1\n", g.Text())
}

func colorIs(c color.Color, r, g, b uint32) bool {
	if c == nil {
		return false
	}
	cr, cg, cb, _ := c.RGBA()
	return cr>>8 == r && cg>>8 == g && cb>>8 == b
}

// svgCells reads an SVG written by Grid.SVG back into rows of text, each
// text element's runes laid from its column, one cell each; and the
// elements' attributes by the cell they start at.
func svgCells(t *testing.T, svg []byte, w, h int) (rows []string, at map[[2]int]map[string]string) {
	t.Helper()
	grid := make([][]rune, h)
	for y := range grid {
		grid[y] = []rune(strings.Repeat(" ", w))
	}
	at = map[[2]int]map[string]string{}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	sawRoot := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Local == "svg" {
			sawRoot = true
		}
		if se.Name.Local != "text" {
			continue
		}
		attrs := map[string]string{}
		for _, a := range se.Attr {
			attrs[a.Name.Local] = a.Value
		}
		var text string
		require.NoError(t, dec.DecodeElement(&text, &se))
		x, _ := strconv.ParseFloat(attrs["x"], 64)
		y, _ := strconv.ParseFloat(attrs["y"], 64)
		col := ColumnAt(x)
		row := int(math.Round((y - Padding - CellHeight*0.78) / CellHeight))
		require.True(t, row >= 0 && row < h && col >= 0 && col < w, "text at %v,%v", x, y)
		n, _ := strconv.ParseFloat(attrs["textLength"], 64)
		assert.InDelta(t, float64(len([]rune(text)))*CellWidth, n, 0.01, "a run is stretched to its cells: %q", text)
		at[[2]int{col, row}] = attrs
		for i, r := range []rune(text) {
			grid[row][col+i] = r
		}
	}
	require.True(t, sawRoot)
	for _, r := range grid {
		rows = append(rows, strings.TrimRight(string(r), " "))
	}
	return rows, at
}

func TestSVGIsXMLWithTheTextCellForCell(t *testing.T) {
	g := Parse(sample(), 20, 6)
	rows, at := svgCells(t, g.SVG(), 20, 6)
	assert.Equal(t, g.Text(), strings.Join(rows, "\n")+"\n")
	assert.Equal(t, "#ff0000", at[[2]int{0, 0}]["fill"])
	assert.Equal(t, "bold", at[[2]int{0, 0}]["font-weight"])
	assert.Contains(t, string(g.SVG()), `fill="#0000ff"`, "the background run is a rectangle")
	assert.Contains(t, string(g.SVG()), "&lt;&amp;&gt;", "text is escaped")
}

func TestCastFollowsAsciicastV2(t *testing.T) {
	var b bytes.Buffer
	shots := []Shot{{0, "one\ntwo"}, {900 * time.Millisecond, "three"}, {1800 * time.Millisecond, "four"}}
	require.NoError(t, WriteCast(&b, 30, 5, "demo", shots))
	sc := bufio.NewScanner(&b)
	require.True(t, sc.Scan())
	var head map[string]any
	require.NoError(t, json.Unmarshal(sc.Bytes(), &head))
	assert.Equal(t, 2.0, head["version"])
	assert.Equal(t, 30.0, head["width"])
	assert.Equal(t, 5.0, head["height"])
	var times []float64
	for sc.Scan() {
		var ev []any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ev))
		require.Len(t, ev, 3)
		assert.Equal(t, "o", ev[1])
		data := ev[2].(string)
		assert.True(t, strings.HasPrefix(data, "\x1b[H\x1b[2J"), "each frame repaints the screen")
		assert.NotContains(t, strings.ReplaceAll(data, "\r\n", ""), "\n", "raw output: lines end in CR LF")
		times = append(times, ev[0].(float64))
	}
	assert.Equal(t, []float64{0, 0.9, 1.8}, times)
}

// The lab's own screen, with every style it uses, reads back from the SVG
// exactly as the text export, at two sizes and on a few steps of the
// default demo.
func TestLabSVGEqualsItsTextCellForCell(t *testing.T) {
	data, _ := demo.Get(demo.DefaultName)
	sc, err := scenario.Parse("lab.yaml", data)
	require.NoError(t, err)
	app, err := tui.New(sc)
	require.NoError(t, err)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, step := range []int{0, 40, app.Steps() - 1} {
			a := app.Sized(size[0], size[1]).AtStep(step)
			g := Parse(a.Frame(), size[0], size[1])
			rows, _ := svgCells(t, g.SVG(), size[0], size[1])
			require.Equal(t, g.Text(), strings.Join(rows, "\n")+"\n", "%dx%d step %d", size[0], size[1], step)
			assert.Contains(t, g.Text(), "kviz")
		}
	}
}

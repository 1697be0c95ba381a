package strategies

// A HashMap bucket that grows to TREEIFY_THRESHOLD entries in a table of 64
// or more buckets becomes a red-black tree of TreeNodes (HashMap.TreeNode).
// Iteration still follows the entries' next links, but the tree reorders
// them: treeify and every insertion move the tree's root to the front, and
// a new entry is linked right after its parent in the tree. Groups whose
// member ids share a String.hashCode (Aa and BB blocks) reach it from nine
// such members on. This file is that code, for keys that compare (String
// and Integer are Comparable, so Java orders them by hash, then compareTo);
// keys that do not compare (a record such as TopicIdPartition) are ordered
// by System.identityHashCode in Java, which no one can reproduce.

const javaUntreeifyLength = 6 // UNTREEIFY_THRESHOLD: a split half this short is a list again

// javaTreeBins holds the tree links of a map's entries.
type javaTreeBins struct {
	tree                []bool // per bucket: it is a tree
	left, right, parent []int32
	red                 []bool
}

func (b *javaTreeBins) grow(n int) {
	for len(b.left) < n {
		b.left = append(b.left, -1)
		b.right = append(b.right, -1)
		b.parent = append(b.parent, -1)
		b.red = append(b.red, false)
	}
}

func (t *JavaHashMap[K]) isTreeBin(b int) bool { return t.bins != nil && t.bins.tree[b] }

// nodeHash is TreeNode.hash: the spread hash, compared as a signed int.
func (t *JavaHashMap[K]) nodeHash(e int32) int32 { return int32(javaSpread(t.hashes[e])) }

// direction is where x goes below p: by hash, then compareTo (putTreeVal,
// treeify; equal keys never meet here).
func (t *JavaHashMap[K]) direction(x, p int32) int {
	hx, hp := t.nodeHash(x), t.nodeHash(p)
	switch {
	case hp > hx:
		return -1
	case hp < hx:
		return 1
	}
	return t.compare(t.keys[x], t.keys[p])
}

// treeify is TreeNode.treeify over bucket b's list: insert each entry in
// list order, then move the root to the front.
func (t *JavaHashMap[K]) treeify(b int) {
	if t.bins == nil {
		t.bins = &javaTreeBins{tree: make([]bool, len(t.head))}
		t.bins.grow(len(t.keys))
	}
	tb := t.bins
	tb.tree[b] = true
	root := int32(-1)
	for x := t.head[b]; x >= 0; x = t.next[x] {
		tb.left[x], tb.right[x] = -1, -1
		if root < 0 {
			tb.parent[x], tb.red[x] = -1, false
			root = x
			continue
		}
		for p := root; ; {
			dir := t.direction(x, p)
			child := &tb.right[p]
			if dir <= 0 {
				child = &tb.left[p]
			}
			if *child < 0 {
				tb.parent[x] = p
				*child = x
				root = t.balanceInsertion(root, x)
				break
			}
			p = *child
		}
	}
	t.moveRootToFront(b, root)
}

// rootOf is the root of bucket b's tree.
func (t *JavaHashMap[K]) rootOf(b int) int32 {
	r := t.head[b]
	for t.bins.parent[r] >= 0 {
		r = t.bins.parent[r]
	}
	return r
}

// putTreeVal inserts entry x into tree bucket b: below its place in the
// tree, linked right after its tree parent, then the root to the front.
func (t *JavaHashMap[K]) putTreeVal(b int, x int32) {
	tb := t.bins
	root := t.rootOf(b)
	for p := root; ; {
		dir := t.direction(x, p)
		child := &tb.right[p]
		if dir <= 0 {
			child = &tb.left[p]
		}
		if *child < 0 {
			*child = x
			tb.parent[x], tb.left[x], tb.right[x] = p, -1, -1
			t.next[x] = t.next[p]
			t.next[p] = x
			t.moveRootToFront(b, t.balanceInsertion(root, x))
			return
		}
		p = *child
	}
}

// moveRootToFront makes root the first entry of bucket b's list.
func (t *JavaHashMap[K]) moveRootToFront(b int, root int32) {
	first := t.head[b]
	if root < 0 || root == first {
		return
	}
	for e := first; e >= 0; e = t.next[e] {
		if t.next[e] == root {
			t.next[e] = t.next[root]
			break
		}
	}
	t.next[root] = first
	t.head[b] = root
}

func (t *JavaHashMap[K]) rotateLeft(root, p int32) int32 {
	tb := t.bins
	if p < 0 || tb.right[p] < 0 {
		return root
	}
	r := tb.right[p]
	rl := tb.left[r]
	tb.right[p] = rl
	if rl >= 0 {
		tb.parent[rl] = p
	}
	pp := tb.parent[p]
	tb.parent[r] = pp
	switch {
	case pp < 0:
		root = r
		tb.red[r] = false
	case tb.left[pp] == p:
		tb.left[pp] = r
	default:
		tb.right[pp] = r
	}
	tb.left[r] = p
	tb.parent[p] = r
	return root
}

func (t *JavaHashMap[K]) rotateRight(root, p int32) int32 {
	tb := t.bins
	if p < 0 || tb.left[p] < 0 {
		return root
	}
	l := tb.left[p]
	lr := tb.right[l]
	tb.left[p] = lr
	if lr >= 0 {
		tb.parent[lr] = p
	}
	pp := tb.parent[p]
	tb.parent[l] = pp
	switch {
	case pp < 0:
		root = l
		tb.red[l] = false
	case tb.right[pp] == p:
		tb.right[pp] = l
	default:
		tb.left[pp] = l
	}
	tb.right[l] = p
	tb.parent[p] = l
	return root
}

// parentOf is x's parent, -1 for none (or no x).
func (t *JavaHashMap[K]) parentOf(x int32) int32 {
	if x < 0 {
		return -1
	}
	return t.bins.parent[x]
}

func (t *JavaHashMap[K]) isRed(x int32) bool { return x >= 0 && t.bins.red[x] }

// balanceInsertion is TreeNode.balanceInsertion.
func (t *JavaHashMap[K]) balanceInsertion(root, x int32) int32 {
	tb := t.bins
	tb.red[x] = true
	for {
		xp := tb.parent[x]
		if xp < 0 {
			tb.red[x] = false
			return x
		}
		xpp := tb.parent[xp]
		if !tb.red[xp] || xpp < 0 {
			return root
		}
		if xppl := tb.left[xpp]; xp == xppl {
			if xppr := tb.right[xpp]; t.isRed(xppr) {
				tb.red[xppr], tb.red[xp], tb.red[xpp] = false, false, true
				x = xpp
				continue
			}
			if x == tb.right[xp] {
				x = xp
				root = t.rotateLeft(root, x)
				xp = tb.parent[x]
				xpp = t.parentOf(xp)
			}
			if xp >= 0 {
				tb.red[xp] = false
				if xpp >= 0 {
					tb.red[xpp] = true
					root = t.rotateRight(root, xpp)
				}
			}
		} else {
			if t.isRed(xppl) {
				tb.red[xppl], tb.red[xp], tb.red[xpp] = false, false, true
				x = xpp
				continue
			}
			if x == tb.left[xp] {
				x = xp
				root = t.rotateRight(root, x)
				xp = tb.parent[x]
				xpp = t.parentOf(xp)
			}
			if xp >= 0 {
				tb.red[xp] = false
				if xpp >= 0 {
					tb.red[xpp] = true
					root = t.rotateLeft(root, xpp)
				}
			}
		}
	}
}

// splitTree finishes TreeNode.split for old tree bucket j after resize
// split its list into j (lc entries) and j+bit (hc entries): a short half
// becomes a list; a long one is treeified anew unless it kept every entry
// (then its tree stands as it was).
func (t *JavaHashMap[K]) splitTree(j, bit, lc, hc int) {
	for _, half := range [2]struct{ b, n, other int }{{j, lc, hc}, {j + bit, hc, lc}} {
		switch {
		case half.n == 0 || half.n <= javaUntreeifyLength:
		case half.other > 0:
			t.treeify(half.b)
		default:
			t.bins.tree[half.b] = true
		}
	}
}

// removeTreeNode is TreeNode.removeTreeNode (movable) for entry p of tree
// bucket b, whose list predecessor is pred (-1 for none).
func (t *JavaHashMap[K]) removeTreeNode(b int, p, pred int32) {
	tb := t.bins
	root := t.rootOf(b)
	succ := t.next[p]
	if pred < 0 {
		t.head[b] = succ
	} else {
		t.next[pred] = succ
	}
	first := t.head[b]
	if first < 0 {
		tb.tree[b] = false
		return
	}
	if root < 0 || tb.right[root] < 0 || tb.left[root] < 0 || tb.left[tb.left[root]] < 0 {
		tb.tree[b] = false // too small: untreeify
		return
	}
	pl, pr := tb.left[p], tb.right[p]
	var replacement int32
	switch {
	case pl >= 0 && pr >= 0:
		s := pr
		for tb.left[s] >= 0 {
			s = tb.left[s]
		}
		tb.red[s], tb.red[p] = tb.red[p], tb.red[s]
		sr := tb.right[s]
		pp := tb.parent[p]
		if s == pr {
			tb.parent[p] = s
			tb.right[s] = p
		} else {
			sp := tb.parent[s]
			tb.parent[p] = sp
			if sp >= 0 {
				if s == tb.left[sp] {
					tb.left[sp] = p
				} else {
					tb.right[sp] = p
				}
			}
			tb.right[s] = pr
			if pr >= 0 {
				tb.parent[pr] = s
			}
		}
		tb.left[p] = -1
		tb.right[p] = sr
		if sr >= 0 {
			tb.parent[sr] = p
		}
		tb.left[s] = pl
		if pl >= 0 {
			tb.parent[pl] = s
		}
		tb.parent[s] = pp
		switch {
		case pp < 0:
			root = s
		case p == tb.left[pp]:
			tb.left[pp] = s
		default:
			tb.right[pp] = s
		}
		replacement = p
		if sr >= 0 {
			replacement = sr
		}
	case pl >= 0:
		replacement = pl
	case pr >= 0:
		replacement = pr
	default:
		replacement = p
	}
	if replacement != p {
		pp := tb.parent[p]
		tb.parent[replacement] = pp
		switch {
		case pp < 0:
			root = replacement
			tb.red[replacement] = false
		case p == tb.left[pp]:
			tb.left[pp] = replacement
		default:
			tb.right[pp] = replacement
		}
		tb.left[p], tb.right[p], tb.parent[p] = -1, -1, -1
	}
	r := root
	if !tb.red[p] {
		r = t.balanceDeletion(root, replacement)
	}
	if replacement == p {
		pp := tb.parent[p]
		tb.parent[p] = -1
		if pp >= 0 {
			if p == tb.left[pp] {
				tb.left[pp] = -1
			} else if p == tb.right[pp] {
				tb.right[pp] = -1
			}
		}
	}
	t.moveRootToFront(b, r)
}

// balanceDeletion is TreeNode.balanceDeletion.
func (t *JavaHashMap[K]) balanceDeletion(root, x int32) int32 {
	tb := t.bins
	for {
		if x < 0 || x == root {
			return root
		}
		xp := tb.parent[x]
		if xp < 0 {
			tb.red[x] = false
			return x
		}
		if tb.red[x] {
			tb.red[x] = false
			return root
		}
		if xpl := tb.left[xp]; xpl == x {
			xpr := tb.right[xp]
			if t.isRed(xpr) {
				tb.red[xpr], tb.red[xp] = false, true
				root = t.rotateLeft(root, xp)
				xp = tb.parent[x]
				xpr = -1
				if xp >= 0 {
					xpr = tb.right[xp]
				}
			}
			if xpr < 0 {
				x = xp
				continue
			}
			sl, sr := tb.left[xpr], tb.right[xpr]
			if !t.isRed(sr) && !t.isRed(sl) {
				tb.red[xpr] = true
				x = xp
				continue
			}
			if !t.isRed(sr) {
				if sl >= 0 {
					tb.red[sl] = false
				}
				tb.red[xpr] = true
				root = t.rotateRight(root, xpr)
				xp = tb.parent[x]
				xpr = -1
				if xp >= 0 {
					xpr = tb.right[xp]
				}
			}
			if xpr >= 0 {
				tb.red[xpr] = xp >= 0 && tb.red[xp]
				if sr = tb.right[xpr]; sr >= 0 {
					tb.red[sr] = false
				}
			}
			if xp >= 0 {
				tb.red[xp] = false
				root = t.rotateLeft(root, xp)
			}
			x = root
		} else {
			if t.isRed(xpl) {
				tb.red[xpl], tb.red[xp] = false, true
				root = t.rotateRight(root, xp)
				xp = tb.parent[x]
				xpl = -1
				if xp >= 0 {
					xpl = tb.left[xp]
				}
			}
			if xpl < 0 {
				x = xp
				continue
			}
			sl, sr := tb.left[xpl], tb.right[xpl]
			if !t.isRed(sl) && !t.isRed(sr) {
				tb.red[xpl] = true
				x = xp
				continue
			}
			if !t.isRed(sl) {
				if sr >= 0 {
					tb.red[sr] = false
				}
				tb.red[xpl] = true
				root = t.rotateLeft(root, xpl)
				xp = tb.parent[x]
				xpl = -1
				if xp >= 0 {
					xpl = tb.left[xp]
				}
			}
			if xpl >= 0 {
				tb.red[xpl] = xp >= 0 && tb.red[xp]
				if sl = tb.left[xpl]; sl >= 0 {
					tb.red[sl] = false
				}
			}
			if xp >= 0 {
				tb.red[xp] = false
				root = t.rotateRight(root, xp)
			}
			x = root
		}
	}
}

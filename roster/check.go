package roster

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
)

// MaxCreatures is how many different creatures an army may have, its legend aside (2.1).
const MaxCreatures = 6

// banned are the cards no army may use (2.2.1, 2.2.3.1.4), by cards.Key.
var banned = map[string]struct{ rule, why string }{
	cards.Key("Greater Morphling"): {"2.2.1", "is banned (2.2.1)"},
	cards.Key("Summoner's Egg"):    {"2.2.3.1.4", "is banned (2.2.3.1.4)"},
}

// line is one entry of a list as the check resolves it.
type line struct {
	e     Entry
	card  cards.Card
	found bool
	key   string
	size  domain.Size
	sized bool
	slot  int
	// skip keeps the line out of the slot checks: its count or creature is already wrong.
	skip bool
}

type checker struct {
	cat Cards
	a   Army
	r   *Report
}

// Check checks a troop list for a new army (2.5.2.2): the slot sizes and counts of its rank
// (2.1.1–2.1.6), at most six creatures and one legend (2.1), the army's colours (2.2.1,
// 2.2.1.1), banned cards and old Legends (2.2.1, 2.2.3.1.4), and the size given to each
// creature (2.2.2–2.2.6). A Mercenary army follows the same rules without colours.
func Check(cat Cards, list List, a Army) Report {
	r := newReport()
	c := &checker{cat: cat, a: a, r: &r}
	c.army()
	lines := c.resolve(list)
	c.slots(lines)
	for i := range lines {
		l := &lines[i]
		if l.found && l.sized && l.slot != 0 {
			r.Troops = append(r.Troops, domain.Troop{Creature: l.card.Name, Size: l.size, Colors: l.card.TroopColors(),
				Slot: l.slot, Alive: l.e.Count - l.e.Dead, Full: l.e.Count})
		}
	}
	return r
}

func (c *checker) name() string { return c.a.name() }

// name is the army's name in a message, "the army" for a list checked by side and rank.
func (a Army) name() string {
	if strings.TrimSpace(a.Name) != "" {
		return a.Name
	}
	return "the army"
}

// rankRule is the rule of the army's rank in 2.1.
func (c *checker) rankRule() string {
	if c.a.Rank >= domain.General && c.a.Rank <= domain.Lieutenant {
		return "2.1." + strconv.Itoa(int(c.a.Rank))
	}
	return "2.1"
}

func (c *checker) rankName() string {
	return c.a.Rank.Name(c.a.Side)
}

func (c *checker) army() {
	if c.a.Rank < domain.General || c.a.Rank > domain.Lieutenant {
		c.r.problem("2.1", CodeNoArmy, "", fmt.Sprintf("%s has rank %s, which holds no army: armies are of ranks General/Chief Praetor to Lieutenant/Centurion (1.1, 2.1)", c.name(), c.rankName()))
	}
	if c.a.Side != domain.Coalition {
		return
	}
	var seen []domain.Color
	for _, col := range c.a.Colors {
		switch {
		case col == domain.Artifact:
			col = domain.Colorless
		case col.IsMagic() || col == domain.FiveColor || col == domain.Colorless:
		default:
			c.r.problem("2.2.1.1", CodeBadColor, "", fmt.Sprintf("%q is not a colour of the Coalition's factions: use white, blue, black, red, green, five-color or colorless (1.1.2)", col))
			continue
		}
		if !slices.Contains(seen, col) {
			seen = append(seen, col)
		}
	}
	switch {
	case len(c.a.Colors) == 0:
		c.r.problem("2.5.2.2", CodeNoColors, "", fmt.Sprintf("%s has no colours: a Coalition army is a member of the factions chosen for it when it is made (2.2.1.1, 2.5.2.2)", c.name()))
	case len(seen) > 3:
		c.r.problem("2.2.1.1", CodeTooManyColors, "", fmt.Sprintf("%s has %d colours (%s); an army has at most 3 (1.1.2, 2.2.1.1)", c.name(), len(seen), domain.ColorList(seen)))
	}
}

// resolve looks every entry up and checks it on its own: name, count, size, bans, colours,
// and the legend.
func (c *checker) resolve(list List) []line {
	lines := make([]line, len(list))
	var legends []int
	first := make(map[string]int, len(list))
	for i, e := range list {
		l := &lines[i]
		l.e = e
		name := strings.TrimSpace(e.Creature)
		if name == "" {
			c.r.problem("2.1", CodeBadEntry, "", fmt.Sprintf("line %d of the troop list names no creature", i+1))
			l.skip = true
			continue
		}
		l.card, l.found = c.cat.Lookup(name)
		if !l.found {
			c.unknown(name)
			l.key = cards.Key(name)
			l.skip = true
			if e.Legend {
				legends = append(legends, i)
			}
			continue
		}
		l.key = cards.Key(l.card.Name)
		if e.Legend {
			legends = append(legends, i)
			continue
		}
		if j, ok := first[l.key]; ok {
			c.repeated(l, &lines[j])
			continue
		}
		first[l.key] = i
		c.troop(l)
	}
	c.legend(lines, legends)
	c.distinct(lines)
	return lines
}

// repeated reports a creature listed a second time, at one size or two (2.1, 2.2.2); its
// other checks were made on its first line.
func (c *checker) repeated(l, prev *line) {
	l.skip = true
	name := l.card.Name
	quiet := &checker{cat: c.cat, a: c.a, r: &Report{}}
	l.size, l.sized = quiet.sizeOf(&l.e, &l.card)
	if prev.sized && l.sized && prev.size != l.size {
		c.r.problem("2.2.2", CodeTwoSizes, name, fmt.Sprintf("%s is listed as %s and as %s: a creature has one size in an army (2.2.2)", name, prev.size, l.size))
		return
	}
	c.r.problem("2.1", CodeDuplicate, name, fmt.Sprintf("%s is listed twice: list each creature once, with its whole count in one slot", name))
}

func (c *checker) unknown(name string) {
	msg := fmt.Sprintf("there is no creature card named %q", name)
	if s := c.cat.Suggest(name, 3); len(s) > 0 {
		msg += "; did you mean " + orList(s) + "?"
	}
	c.r.problem("2.2.1", CodeUnknownCreature, name, msg)
}

// troop checks one creature of the list (not the legend).
func (c *checker) troop(l *line) {
	card := &l.card
	if b, ok := banned[l.key]; ok {
		c.r.problem(b.rule, CodeBanned, card.Name, card.Name+" "+b.why)
	}
	if card.OldLegend {
		msg := fmt.Sprintf("%s was printed with the creature type Legend", card.Name)
		if p, ok := cards.OldLegend(card.Name); ok {
			msg += fmt.Sprintf(" (%s, %s %s)", p.TypeLine, p.Set, p.Released[:min(4, len(p.Released))])
		}
		c.r.problem("2.2.1", CodeOldLegend, card.Name, msg+": it may only be the army's one legend (2.1, 2.2.1)")
	}
	if card.DigitalOnly {
		c.r.warn("2.2.1", CodeDigitalOnly, card.Name, fmt.Sprintf("the card data knows %s only from digital products; 2.2.1 allows creatures printed in any Magic set: the judge confirms it was printed", card.Name))
	}
	if l.key == cards.Key("Duplicant") {
		c.r.warn("2.2.3.1.4", CodeImprint, card.Name, "Duplicant imprints one other creature of the army, named when the army is created (2.2.3.1.4): tell the judge which")
	}
	switch {
	case l.e.Count < 1:
		c.r.problem(c.rankRule(), CodeBadCount, card.Name, fmt.Sprintf("%s: give how many troops, at least 1, not %d", card.Name, l.e.Count))
		l.skip = true
	case l.e.Dead < 0 || l.e.Dead > l.e.Count:
		c.r.problem("2.6", CodeBadCount, card.Name, fmt.Sprintf("%s: %d dead out of %d is not possible", card.Name, l.e.Dead, l.e.Count))
		l.skip = true
	}
	l.size, l.sized = c.sizeOf(&l.e, card)
	c.colors(card)
	if l.e.Slot != 0 && (l.e.Slot < 1 || l.e.Slot > domain.Slots) {
		c.r.problem(c.rankRule(), CodeBadSlot, card.Name, fmt.Sprintf("%s: slot %d does not exist; slots are 1 (5,000 of the smallest creatures) to 4 (1,000 of the largest)", card.Name, l.e.Slot))
		l.skip = true
	}
}

// colors checks that the army may use the creature (2.2.1).
func (c *checker) colors(card *cards.Card) {
	t := domain.Troop{Colors: card.TroopColors()}
	switch c.a.Side {
	case domain.Coalition:
		if len(c.a.Colors) == 0 {
			return
		}
		if !(&domain.Army{Side: domain.Coalition, Colors: c.a.Colors}).MayUse(&t) {
			c.r.problem("2.2.1", CodeColor, card.Name, fmt.Sprintf("%s may not use %s: %s (2.2.1)", c.name(), card.Name, c.colorReason(card, &t)))
		}
	case domain.Phyrexia:
		if t.HasColor(domain.White) || t.HasColor(domain.Green) {
			c.r.problem("2.2.1", CodeColor, card.Name, fmt.Sprintf("%s is %s: Phyrexia uses blue, red, black, multicoloured and artifact creatures, none that is white or green (2.2.1)", card.Name, domain.ColorList(t.Colors)))
		}
	default:
		return
	}
	if t.Colorless() && !card.IsArtifact() {
		c.r.warn("2.2.1", CodeColorlessCreature, card.Name, fmt.Sprintf("%s is colourless but not an artifact: it is read as an artifact creature (2.2.1)", card.Name))
	}
}

func (c *checker) colorReason(card *cards.Card, t *domain.Troop) string {
	switch {
	case t.Multicolor():
		return fmt.Sprintf("it is multicoloured (%s), and multicoloured creatures need the 5-Color faction", domain.ColorList(t.Colors))
	case t.Colorless():
		return "it is an artifact, and artifact creatures need the Colorless faction"
	}
	return fmt.Sprintf("it is %s, and %s is %s", domain.ColorList(t.Colors), c.name(), domain.ColorList(c.a.Colors))
}

// legend checks the army's one legend (2.1).
func (c *checker) legend(lines []line, legends []int) {
	if len(legends) > 1 {
		var names []string
		for _, i := range legends {
			names = append(names, lines[i].e.Creature)
		}
		c.r.problem("2.1", CodeTwoLegends, "", fmt.Sprintf("the list names %d legends (%s); an army has one", len(legends), andList(names)))
	}
	for n, i := range legends {
		l := &lines[i]
		if !l.found {
			continue
		}
		card := &l.card
		if n == 0 {
			c.r.Legend = card.Name
		}
		if b, ok := banned[l.key]; ok {
			c.r.problem(b.rule, CodeBanned, card.Name, card.Name+" "+b.why)
		}
		if !card.IsLegendary() {
			c.r.problem("2.1", CodeNotLegend, card.Name, fmt.Sprintf("%s is not a legend: the army's legend must be a legendary creature (2.1)", card.Name))
		}
		for held, other := range c.a.Legends {
			if cards.Key(held) == l.key && !domain.SameName(other, c.a.Name) {
				c.r.problem("2.1", CodeLegendTaken, card.Name, fmt.Sprintf("%s is already the legend of %s: no legend may be in two armies at once (2.1)", card.Name, other))
			}
		}
	}
}

// distinct checks that the list has at most six different creatures (2.1).
func (c *checker) distinct(lines []line) {
	seen := make(map[string]bool, len(lines))
	var order []string
	for i := range lines {
		l := &lines[i]
		if l.e.Legend || l.key == "" || seen[l.key] {
			continue
		}
		seen[l.key] = true
		if l.found {
			order = append(order, l.card.Name)
		} else {
			order = append(order, strings.TrimSpace(l.e.Creature))
		}
	}
	if len(order) > MaxCreatures {
		c.r.problem("2.1", CodeTooManyCreatures, "", fmt.Sprintf("the list has %d different creatures; an army has at most %d besides its legend (2.1): %s %s over", len(order), MaxCreatures, andList(order[MaxCreatures:]), plural(len(order)-MaxCreatures, "is", "are")))
	}
}

// slots places each creature in its slot, or the first that fits with room, and checks sizes
// and counts against the rank (2.1.1–2.1.6).
func (c *checker) slots(lines []line) {
	rank := c.a.Rank
	if rank < domain.General || rank > domain.Lieutenant {
		return
	}
	var load [domain.Slots + 1]int
	for i := range lines {
		l := &lines[i]
		if l.e.Legend || l.skip || !l.sized || l.e.Slot == 0 {
			continue
		}
		l.slot = l.e.Slot
		if top := rank.SlotSize(l.slot); !l.size.Fits(top) {
			c.r.problem(c.rankRule(), CodeTooBig, l.card.Name, fmt.Sprintf("%s (%s) is too big for slot %d of %s %s army, which holds creatures up to %d/%d (%s)",
				l.card.Name, l.size, l.slot, article(c.rankName()), c.rankName(), top, top, c.rankRule()))
		}
		load[l.slot] += l.e.Count
	}
	for i := range lines {
		l := &lines[i]
		if l.e.Legend || l.skip || !l.sized || l.e.Slot != 0 {
			continue
		}
		for s := 1; s <= domain.Slots; s++ {
			if l.size.Fits(rank.SlotSize(s)) && load[s]+l.e.Count <= domain.SlotCapacity(s) {
				l.slot = s
				load[s] += l.e.Count
				break
			}
		}
		if l.slot == 0 {
			c.r.problem(c.rankRule(), CodeNoSlot, l.card.Name, fmt.Sprintf("no slot of %s %s army has room for %s %s (%s) (%s)",
				article(c.rankName()), c.rankName(), thousands(l.e.Count), l.card.Name, l.size, c.rankRule()))
		}
	}
	for s := 1; s <= domain.Slots; s++ {
		if load[s] <= domain.SlotCapacity(s) {
			continue
		}
		var parts []string
		for i := range lines {
			if lines[i].slot == s && !lines[i].e.Legend {
				parts = append(parts, fmt.Sprintf("%s %s", thousands(lines[i].e.Count), lines[i].card.Name))
			}
		}
		c.r.problem(c.rankRule(), CodeSlotFull, "", fmt.Sprintf("slot %d holds %s troops (%s); it holds at most %s of creatures up to %d/%d in %s %s army (%s)",
			s, thousands(load[s]), andList(parts), thousands(domain.SlotCapacity(s)), rank.SlotSize(s), rank.SlotSize(s), article(c.rankName()), c.rankName(), c.rankRule()))
	}
}

func andList(s []string) string { return joinList(s, "and") }

func orList(s []string) string { return joinList(s, "or") }

func joinList(s []string, word string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + word + " " + s[len(s)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}

// thousands writes n with commas: 5,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

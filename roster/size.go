package roster

import (
	"fmt"
	"strings"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
)

// level is how far the card data supports a chosen power or toughness.
type level int

const (
	fits     level = iota // the data proves it
	halfUp                // an Un-set half point, rounded up
	unproven              // the data cannot tell: the judge confirms
	wrong                 // the data rules it out
)

// judge rates a chosen value n against a printed stat.
func judge(s cards.Stat, n int) level {
	switch s.Kind {
	case cards.Fixed:
		switch {
		case n == s.Min:
			return fits
		case n > s.Min:
			return unproven
		}
		return wrong
	case cards.Variable:
		if s.Allows(n) {
			return fits
		}
		return wrong
	case cards.Half:
		switch {
		case n == s.Min:
			return halfUp
		case n > s.Min:
			return unproven
		}
		return wrong
	case cards.Unknown:
		return unproven
	}
	return wrong
}

// sizeOf works out the size an entry gives its creature (2.2.2–2.2.6), reporting what the
// card data rules out as a problem and what it cannot prove as a warning.
func (c *checker) sizeOf(e *Entry, card *cards.Card) (domain.Size, bool) {
	name := card.Name
	printed := card.Power + "/" + card.Toughness
	given := strings.TrimSpace(e.Size) != ""
	var chosen domain.Size
	if given {
		s, err := domain.ParseSize(e.Size)
		if err != nil {
			c.r.problem("2.1", CodeBadSize, name, fmt.Sprintf("%q is not a size for %s: write power/toughness, like 3/3", e.Size, name))
			return domain.Size{}, false
		}
		chosen = s
	}
	p, t := card.Printed()
	if rc := card.Reach; rc != nil {
		if !given {
			ps, ok := card.PrintedSize()
			switch {
			case ok && ps.Toughness > 0 && rc.Allows(ps):
				return ps, true
			case !rc.Any && rc.From == nil && len(rc.Sizes) == 1:
				return rc.Sizes[0], true
			}
			c.r.problem(rc.Rule, CodeSizeNeeded, name, fmt.Sprintf("say which size %s has: it can be %s (%s: %s)", name, rc, rc.Rule, rc.Note))
			return domain.Size{}, false
		}
		if !rc.Allows(chosen) {
			c.r.problem(rc.Rule, CodeSizeUnreachable, name, fmt.Sprintf("%s can be %s (%s: %s), not %s", name, rc, rc.Rule, rc.Note, chosen))
			return domain.Size{}, false
		}
		if chosen.Toughness == 0 {
			c.r.problem(rc.Rule, CodeSizeUnreachable, name, fmt.Sprintf("%s as %s would die at once: a creature needs toughness 1 or more", name, chosen))
			return domain.Size{}, false
		}
		return chosen, true
	}
	if !given {
		if (p.Kind == cards.Fixed || p.Kind == cards.Half) && (t.Kind == cards.Fixed || t.Kind == cards.Half) && t.Min > 0 {
			s := domain.Size{Power: p.Min, Toughness: t.Min}
			if p.Kind == cards.Half || t.Kind == cards.Half {
				c.r.warn("2.1", CodeHalfPoints, name, fmt.Sprintf("%s is printed %s: half points round up, so it takes a %s place in the slots (2.1)", name, printed, s))
			}
			return s, true
		}
		c.r.problem("2.2.2", CodeSizeNeeded, name, fmt.Sprintf("say which size %s has: it is printed %s (2.2.2, 2.2.6)", name, printed))
		return domain.Size{}, false
	}
	if chosen.Toughness == 0 {
		c.r.problem("2.2.6", CodeSizeNotPrinted, name, fmt.Sprintf("%s as %s would die at once: a creature needs toughness 1 or more", name, chosen))
		return domain.Size{}, false
	}
	lp, lt := judge(p, chosen.Power), judge(t, chosen.Toughness)
	switch max(lp, lt) {
	case fits:
		return chosen, true
	case halfUp:
		c.r.warn("2.1", CodeHalfPoints, name, fmt.Sprintf("%s is printed %s: half points round up, so it takes a %s place in the slots (2.1)", name, printed, chosen))
		return chosen, true
	case unproven:
		if card.HasSubtype("Sliver") {
			c.r.problem("2.2.5", CodeSizeNotPrinted, name, fmt.Sprintf("%s is a sliver printed %s: a sliver has its printed size (2.2.5), not %s", name, printed, chosen))
			return domain.Size{}, false
		}
		if card.Text == nil {
			c.r.warn("2.2.6", CodeSizeUnproven, name, fmt.Sprintf("%s is printed %s; the card data has no rules text to prove it can be %s (kicker, threshold or +1/+1 counters: 2.2.3.3, 2.2.6): the judge confirms it, or records the sizes it can reach in the catalogue", name, printed, chosen))
			return chosen, true
		}
		if how := cards.Growth(*card.Text); how != "" {
			c.r.warn("2.2.6", CodeSizeUnproven, name, fmt.Sprintf("%s is printed %s; its rules text has %s, which may make it %s (2.2.3.3, 2.2.6): the judge confirms it, or records the sizes it can reach in the catalogue", name, printed, how, chosen))
			return chosen, true
		}
		c.r.problem("2.2.6", CodeSizeUnreachable, name, fmt.Sprintf("%s is printed %s, and its rules text has no kicker, threshold or +1/+1 counters to make it %s; other abilities never change its size in an army (2.2.3.2, 2.2.3.4, 2.2.6)", name, printed, chosen))
		return domain.Size{}, false
	}
	c.r.problem(wrongRule(p, t, chosen), wrongCode(p, t, chosen), name, wrongMessage(name, printed, p, t, chosen))
	return domain.Size{}, false
}

func wrongRule(p, t cards.Stat, chosen domain.Size) string {
	if p.Kind == cards.Infinite || t.Kind == cards.Infinite {
		return "2.1"
	}
	if judge(p, chosen.Power) == wrong && p.Kind == cards.Variable || judge(t, chosen.Toughness) == wrong && t.Kind == cards.Variable {
		return "2.2.2"
	}
	return "2.2.6"
}

func wrongCode(p, t cards.Stat, chosen domain.Size) Code {
	switch {
	case p.Kind == cards.Infinite || t.Kind == cards.Infinite:
		return CodeTooBig
	case judge(p, chosen.Power) == wrong && p.Kind == cards.Variable || judge(t, chosen.Toughness) == wrong && t.Kind == cards.Variable:
		return CodeSizeUnreachable
	}
	return CodeSizeNotPrinted
}

func wrongMessage(name, printed string, p, t cards.Stat, chosen domain.Size) string {
	if p.Kind == cards.Infinite || t.Kind == cards.Infinite {
		return fmt.Sprintf("%s is printed %s: infinite power or toughness fits no slot (2.1)", name, printed)
	}
	var why []string
	for _, x := range []struct {
		what string
		s    cards.Stat
		n    int
	}{{"power", p, chosen.Power}, {"toughness", t, chosen.Toughness}} {
		if judge(x.s, x.n) != wrong {
			continue
		}
		switch {
		case x.s.Kind == cards.Variable && x.s.Max != cards.NoLimit:
			why = append(why, fmt.Sprintf("its %s is at most %d", x.what, x.s.Max))
		case x.s.Kind == cards.Variable:
			why = append(why, fmt.Sprintf("its %s is at least %d", x.what, x.s.Min))
		default:
			why = append(why, fmt.Sprintf("its %s cannot be less than the printed %d", x.what, x.s.Min))
		}
	}
	return fmt.Sprintf("%s is printed %s, so not %s: %s (2.2.2, 2.2.6)", name, printed, chosen, andList(why))
}

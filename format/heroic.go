// Heroic's deck rules (heroic-rules-wip.txt, 906.6a–f; the banned list of 2023-12-03): the
// same format as Coalition under its earlier name, without the page's clauses on legendary
// cards, companions and partners, and with Human a type the deck may choose.

package format

// judgeHeroic checks a deck by Heroic's rules: 906.6a sizes, 906.6b–d copies, 906.6f the
// banned list and the hero, 906.6e and 906.4 typal identity.
func judgeHeroic(c *check) {
	c.sizes()
	c.copies()
	c.banned()
	c.heroRules(c.typal)
}

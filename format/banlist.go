// Banned lists as data (BANLISTS.md, F6): names, and categories of cards found by the card
// data: Reserved List, Conspiracy, ante, offensive, stickers and Attractions.

package format

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/cards"
)

// Banlist is one published banned list.
type Banlist struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Published string `json:"published,omitempty"`
	// Categories are the kinds of cards banned as a whole: "reserved", "conspiracy", "ante",
	// "offensive", "sticker" (problems banned.reserved…).
	Categories []string `json:"categories"`
	// Names are the cards banned by name (problem banned).
	Names []string `json:"names"`
	// Offensive are the cards Wizards of the Coast banned on 2020-06-10 for racially or
	// culturally offensive content, kept as data (category "offensive").
	Offensive []string `json:"offensive,omitempty"`
}

// Categories are the categories a banned list may name.
var Categories = []string{"reserved", "conspiracy", "ante", "offensive", "sticker"}

var (
	// anteWord is the word "ante" (F6), not "antelope".
	anteWord = regexp.MustCompile(`(?i)\bante\b`)
	// stickerText is text that puts stickers on something or opens an Attraction (F6).
	stickerText = regexp.MustCompile(`(?i)\bstickers?\b|\bopen (?:an|one|two|three|\w+) Attractions?\b`)
)

// categoryOf says why the card falls in a banned category, or "".
func categoryOf(cat string, card *cards.Card, b *bans) string {
	switch cat {
	case "reserved":
		if card.Reserved {
			return "it is on the Reserved List"
		}
	case "conspiracy":
		if hasType(card, "Conspiracy") {
			return "it is a Conspiracy"
		}
	case "ante":
		if anyText(card, anteWord, "ante") {
			return "it refers to playing for ante"
		}
	case "offensive":
		if named(b.offensive, card) {
			return "Wizards of the Coast removed it for racially or culturally offensive content"
		}
	case "sticker":
		if hasSubtype(card, "Attraction") || anyText(card, stickerText, "sticker", "attraction") {
			return "it brings stickers or Attractions into the game"
		}
	}
	return ""
}

// hasType reports whether a face of the card has the card type.
func hasType(card *cards.Card, t string) bool {
	return onFace(card, t, func(c *cards.Card) []string { return c.Types }, func(f *cards.Face) []string { return f.Types })
}

// hasSubtype reports whether a face of the card has the subtype.
func hasSubtype(card *cards.Card, t string) bool {
	return onFace(card, t, func(c *cards.Card) []string { return c.Subtypes }, func(f *cards.Face) []string { return f.Subtypes })
}

// onFace reports whether the card's own list, or a face's, holds t.
func onFace(card *cards.Card, t string, own func(*cards.Card) []string, face func(*cards.Face) []string) bool {
	if slices.Contains(own(card), t) {
		return true
	}
	for i := range card.Faces {
		if slices.Contains(face(&card.Faces[i]), t) {
			return true
		}
	}
	return false
}

// anyText reports whether the rules text of a face of the card matches; the regular
// expression is tried only on a text holding one of the words (case aside), which every
// match holds: most cards are ruled out without it.
func anyText(card *cards.Card, re *regexp.Regexp, words ...string) bool {
	for _, text := range card.Texts() {
		if slices.ContainsFunc(words, func(w string) bool { return containsFold(text, w) }) && re.MatchString(text) {
			return true
		}
	}
	return false
}

// containsFold reports whether s holds the ASCII word w, whatever the case of either.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if (s[i]|0x20) == w[0]|0x20 && strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}

// lineStarts reports whether a line of the card's rules text, reminder text aside, starts
// with one of the words (case aside): a keyword the card itself has.
func lineStarts(card *cards.Card, words ...string) string {
	for _, text := range card.Texts() {
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(line)
			for _, w := range words {
				if len(line) >= len(w) && strings.EqualFold(line[:len(w)], w) {
					next, _ := utf8.DecodeRuneInString(line[len(w):])
					if next == utf8.RuneError || strings.ContainsRune(" —(,", next) {
						return w
					}
				}
			}
		}
	}
	return ""
}

package main

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// openPage loads one of the card formats' pages (/decks, /matches) and waits until it is
// ready, then runs axe on it.
func (p *tab) openPage(base, path string) {
	p.t.Helper()
	p.do("opening "+path, chromedp.Navigate(base+path))
	p.until(path+" ready", `document.body.dataset.ready === 'true'`)
	p.axe(path)
}

// TestBrowserDeckPage is a player checking a deck (issue 19): he pastes a list, sees every
// problem by line and rule, the bad lines marked in the list, the hero's types; a league's
// revision takes over the format; the legal deck says which type it may choose.
func TestBrowserDeckPage(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	admin := d.login("admin", e2eAdminPassword)
	d.call("POST", "/api/leagues", admin, map[string]string{"name": "Heroic Nights", "format": "heroic"}, http.StatusCreated, nil)
	legal, err := os.ReadFile("../../format/testdata/coalition-legal.txt")
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(legal), "1 Lightning Bolt", "1 Swan Song\n1 Lightening Bolt", 1)

	p := newTab(t, b, "player")
	p.openPage(d.base, "/decks")
	p.until("the formats offered", `document.querySelectorAll('#deck-format option').length === 3 && document.querySelector('#deck-revision').value === 'page'`)
	p.do("pasting a list with two problems", chromedp.SetValue(chromedp.ID("deck-list"), broken), chromedp.Click(chromedp.ID("deck-check")))
	p.until("the problems by line and rule", `document.querySelectorAll('#problem-table tbody tr').length === 3`)
	rows := eval[[]string](p, `[...document.querySelectorAll('#problem-table tbody tr')].map((r) => [...r.cells].slice(0, 3).map((c) => c.textContent).join(' | '))`)
	if strings.Join(rows, "\n") != "the deck | size.main | —\n9 | typal | Swan Song\n10 | unknown-card | Lightening Bolt" {
		t.Errorf("the problems:\n%s", strings.Join(rows, "\n"))
	}
	if msg := eval[string](p, `document.querySelector('#problem-table tbody tr:last-child td:last-child').textContent`); !strings.Contains(msg, "Lightning Bolt") {
		t.Errorf("no suggestion for the misspelt card: %q", msg)
	}
	p.until("the bad lines marked in the list", `[...document.querySelectorAll('#deck-lines li.bad')].map((li) => li.id).join() === 'line-9,line-10'`)
	p.until("the hero's types, none fitting every card", `document.querySelector('#deck-summary').textContent === 'Not legal: 3 problems.' &&
		[...document.querySelectorAll('#deck-hero .types li')].map((li) => li.textContent).join() === 'Angel,Cleric,Demon,Dragon' && /No type of the hero fits/.test(document.querySelector('#deck-types').textContent)`)
	p.axe("the deck page with problems")
	p.named("the deck page")
	p.shot("deck-page-problems")

	p.do("checking the legal deck", chromedp.SetValue(chromedp.ID("deck-list"), string(legal)), chromedp.Click(chromedp.ID("deck-check")))
	p.until("legal, and its type", `document.querySelector('#deck-summary').textContent === 'Legal.' && document.querySelector('#deck-types').textContent === 'The deck may choose: Demon.' &&
		document.querySelector('#deck-hero .types li.fits').textContent === 'Demon ✓' && !document.querySelector('#problem-table')`)
	// The league's revision: Heroic's sideboard of 8, and Human allowed (its hero types grow).
	p.do("choosing the league", chromedp.SetValue(chromedp.ID("deck-league"), "1"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#deck-league').dispatchEvent(new Event('change'))`))
	p.until("the league's format and revision", `document.querySelector('#deck-format').disabled && document.querySelector('#deck-format').value === 'heroic' && document.querySelector('#deck-revision').value === '2023-12-03'`)
	p.do("checking in the league", chromedp.Click(chromedp.ID("deck-check")))
	p.until("Heroic's sideboard", `document.querySelectorAll('#problem-table tbody tr').length === 1 && document.querySelector('#problem-table tbody tr').dataset.rule === 'size.sideboard'`)
	p.axe("the deck page in a league")
	p.shot("deck-page-league")
}

// TestBrowserMatchPage is a table keeping a Heroic match's score (issue 19): Hanna starts the
// match with Barrin from the page, both enter events from their own tabs and see each other's,
// a typo is undone and stays in the log struck through, and 17 hero damage ends the game.
func TestBrowserMatchPage(t *testing.T) {
	b := browser(t)
	d := startDemo(t)
	hanna := newTab(t, b, "Hanna")
	hanna.openPage(d.base, "/matches")
	hanna.until("no match yet, and a word on logging in", `/No match yet/.test(document.body.textContent) && /Log in to start a match/.test(document.body.textContent)`)
	hanna.login("Hanna", d.passwords["Hanna"])
	hanna.until("the start form", `document.querySelector('#start-form')`)
	hanna.axe("the start form")
	hanna.do("starting a Heroic match with Barrin",
		chromedp.SetValue(chromedp.ID("start-format"), "heroic"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#start-format').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(chromedp.ID("start-players"), "Hanna, Barrin"),
		chromedp.Click(chromedp.CSS(`#start-form button[type="submit"]`)))
	hanna.until("the match page", `location.search === '?m=1' && document.querySelector('#standings') && document.querySelector('#event-form')`)

	barrin := newTab(t, b, "Barrin")
	barrin.openPage(d.base, "/matches?m=1&poll=300")
	barrin.until("no event form before logging in", `!document.querySelector('#event-form') && /Log in as one of its players/.test(document.body.textContent)`)
	barrin.login("Barrin", d.passwords["Barrin"])
	barrin.until("his event form", `document.querySelector('#event-form')`)

	enter := func(p *tab, kind string, fields map[string]string) {
		t.Helper()
		steps := []chromedp.Action[chromedp.Void]{chromedp.SetValue(chromedp.ID("event-kind"), kind),
			chromedp.Evaluate[chromedp.Void](`document.querySelector('#event-kind').dispatchEvent(new Event('change'))`)}
		for id, v := range fields {
			steps = append(steps, chromedp.SetValue(chromedp.ID(id), v))
		}
		before := eval[int](p, `document.querySelectorAll('#log li').length`)
		p.do("entering "+kind, append(steps, chromedp.Click(chromedp.ID("event-enter")))...)
		p.until(kind+" logged", fmt.Sprintf(`document.querySelectorAll('#log li').length === %d`, before+1))
	}
	enter(hanna, "turn", map[string]string{"event-player": "Hanna"})
	enter(hanna, "damage", map[string]string{"event-player": "Hanna", "event-target": "Barrin", "event-amount": "9", "event-source": "hero"})
	hanna.until("her hero at level 1 with 9 hero damage", `[...document.querySelectorAll('#standings tbody tr')][0].textContent.includes('9 of 17') && [...document.querySelectorAll('#standings tbody tr')][0].cells[3].textContent === '1'`)
	barrin.until("Barrin's tab follows", `document.querySelectorAll('#log li').length === 2 && /Barrin/.test(document.querySelector('#standings').textContent) && document.querySelector('#standings tbody tr:nth-child(2) td:nth-child(3)').textContent === '16'`)
	// A typo: 90 damage instead of 9; Barrin undoes it.
	enter(barrin, "turn", map[string]string{"event-player": "Barrin"})
	enter(barrin, "damage", map[string]string{"event-player": "Barrin", "event-target": "Hanna", "event-amount": "90", "event-source": "creature"})
	barrin.until("the game lost by the typo", `document.querySelector('#games') && /Barrin won/.test(document.querySelector('#games').textContent)`)
	barrin.do("undoing it", chromedp.Click(chromedp.ID("undo")))
	barrin.until("undone, and struck through", `document.querySelectorAll('#log li.undone').length === 1 && !document.querySelector('#games') && /undone: /.test(document.querySelector('#undo-out').textContent)`)
	barrin.axe("the match page after an undo")
	barrin.named("the match page")
	hanna.until("Hanna's tab follows the undo", `document.querySelectorAll('#log li.undone').length === 1`)
	// Refused by the rules: damage from Barrin to himself; the server's words shown.
	barrin.do("entering damage to himself", chromedp.SetValue(chromedp.ID("event-kind"), "damage"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#event-kind').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(chromedp.ID("event-player"), "Barrin"), chromedp.SetValue(chromedp.ID("event-target"), "Barrin"), chromedp.Click(chromedp.ID("event-enter")))
	barrin.until("the refusal", `/refused: self/.test(document.querySelector('#event-out').textContent)`)
	enter(hanna, "turn", map[string]string{"event-player": "Hanna"})
	enter(hanna, "damage", map[string]string{"event-player": "Hanna", "event-target": "Barrin", "event-amount": "8", "event-source": "hero"})
	hanna.until("game 1 won by 17 hero damage", `/Hanna won \(17 hero damage\)/.test(document.querySelector('#games').textContent) && /Over: Hanna won/.test(document.querySelector('#match-result').textContent)`)
	hanna.axe("the finished match")
	hanna.shot("match-page")
	hanna.do("back to the list", chromedp.Click(chromedp.CSS(`a[href="/matches"]:not([aria-current])`)))
	hanna.until("the match listed as won", `/Hanna won/.test(document.querySelector('table.matches').textContent)`)
	hanna.axe("the list of matches")
}

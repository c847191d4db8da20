// The formats and their banned lists as the server keeps them (issue 19, BANLISTS.md, F6): the
// shipped formats document with each banned list replaced by its latest version, and the
// admins' edits of a list, version by version, as the battle formulas are kept.

package campaign

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/format"
	"github.com/coalition-wargame/coalition/match"
)

// formats is the formats document the server holds to: Options.Formats, or the shipped one.
func (s *Service) formats() *format.Formats {
	if s.opt.Formats != nil {
		return s.opt.Formats
	}
	return format.Shipped()
}

// formatsDocument is the server's formats document with every banned list an admin edited
// replaced by its latest version.
func (s *Service) formatsDocument(r Reader) (*format.Formats, error) {
	vs, err := r.BanlistVersions()
	if err != nil {
		return nil, err
	}
	doc := *s.formats()
	doc.Banlists = slices.Clone(doc.Banlists)
	for i := range doc.Banlists {
		if v := latestBanlist(vs, doc.Banlists[i].ID); v != nil {
			doc.Banlists[i] = v.Banlist
		}
	}
	return &doc, nil
}

// latestBanlist is the stored version of the list with the highest number, or nil.
func latestBanlist(vs []BanlistVersion, list string) *BanlistVersion {
	var out *BanlistVersion
	for i := range vs {
		if vs[i].List == list && (out == nil || vs[i].Version > out.Version) {
			out = &vs[i]
		}
	}
	return out
}

// BanlistView is a banned list as it stands: its names and categories, its version and who
// made that version (no one for the shipped one, version 1).
type BanlistView struct {
	format.Banlist
	Version int        `json:"version"`
	By      string     `json:"by,omitempty"`
	At      *time.Time `json:"at,omitempty"`
	Reason  string     `json:"reason,omitempty"`
}

func banlistView(b format.Banlist, vs []BanlistVersion) BanlistView {
	v := BanlistView{Banlist: b, Version: 1}
	if l := latestBanlist(vs, b.ID); l != nil {
		at := l.At
		v.Banlist, v.Version, v.By, v.At, v.Reason = l.Banlist, l.Version, l.By, &at, l.Reason
	}
	v.Categories, v.Names, v.Offensive = nonNil(v.Categories), nonNil(v.Names), nonNil(v.Offensive)
	return v
}

// FormatsView is what the server knows of the card formats: each format's revisions (sizes,
// copy limits, clauses), the banned lists as they stand, the categories a list may name and the
// formats a match can be kept in.
type FormatsView struct {
	Formats      []format.Format `json:"formats"`
	Banlists     []BanlistView   `json:"banlists"`
	Categories   []string        `json:"categories"`
	MatchFormats []string        `json:"match_formats"`
}

// CardFormats shows the formats and their banned lists (anyone).
func (s *Service) CardFormats(ctx context.Context) (*FormatsView, error) {
	out := &FormatsView{Formats: s.formats().Formats, Categories: format.Categories, MatchFormats: match.Formats()}
	err := s.store.Read(ctx, func(r Reader) error {
		vs, err := r.BanlistVersions()
		for _, b := range s.formats().Banlists {
			out.Banlists = append(out.Banlists, banlistView(b, vs))
		}
		return err
	})
	return out, err
}

// BanlistHistory is a banned list as it stands and every version an admin saved.
type BanlistHistory struct {
	Banlist BanlistView      `json:"banlist"`
	History []BanlistVersion `json:"history"`
	// Unknown are the list's names the every-card data has no card of (F6, L7: Nadu, Winged
	// Wisdom is banned although the data lacks it), given after an edit so that a misspelt
	// name shows.
	Unknown []string `json:"unknown_names,omitempty"`
}

// documentBanlist finds a banned list of the server's formats document by id, or says which
// there are.
func (s *Service) documentBanlist(id string) (format.Banlist, error) {
	b, ok := s.formats().Banlist(id)
	if !ok {
		var ids []string
		for _, l := range s.formats().Banlists {
			ids = append(ids, l.ID)
		}
		return format.Banlist{}, domain.Errorf(domain.ErrNotFound, "there is no banned list %q; the lists are %s", id, strings.Join(ids, ", "))
	}
	return *b, nil
}

// Banlist shows one banned list and its versions (anyone: the lists are published).
func (s *Service) Banlist(ctx context.Context, id string) (*BanlistHistory, error) {
	b, err := s.documentBanlist(id)
	if err != nil {
		return nil, err
	}
	var out *BanlistHistory
	err = s.store.Read(ctx, func(r Reader) error {
		vs, err := r.BanlistVersions()
		out = banlistHistory(b, vs)
		return err
	})
	return out, err
}

func banlistHistory(b format.Banlist, vs []BanlistVersion) *BanlistHistory {
	out := &BanlistHistory{Banlist: banlistView(b, vs), History: []BanlistVersion{}}
	for _, v := range vs {
		if v.List == b.ID {
			out.History = append(out.History, v)
		}
	}
	return out
}

// BanlistInput is a new version of a banned list: the whole list, names and categories.
type BanlistInput struct {
	// Title and Published are kept as they were when left out.
	Title     string `json:"title,omitempty"`
	Published string `json:"published,omitempty"`
	// Categories are the kinds of cards banned as a whole (format.Categories).
	Categories []string `json:"categories"`
	// Names are the cards banned by name.
	Names []string `json:"names"`
	// Offensive are the cards of the category "offensive" (F6).
	Offensive []string `json:"offensive"`
	Reason    string   `json:"reason,omitempty"`
}

// MaxBanned is the most names a banned list holds.
const MaxBanned = 2000

// cleanNames trims the names and drops empty ones and repeats (as cards.Key compares them).
func cleanNames(names []string, what string) ([]string, error) {
	if len(names) > MaxBanned {
		return nil, domain.Errorf(domain.ErrInvalid, "%d %s: a banned list holds at most %d", len(names), what, MaxBanned)
	}
	out := []string{}
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.Join(strings.Fields(n), " ")
		k := cards.Key(n)
		if k == "" {
			return nil, domain.Errorf(domain.ErrInvalid, "%q is not a card's name: the %s need letters or digits", n, what)
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// SetBanlist saves a new version of one of the formats document's banned lists (admins only):
// the whole list, its categories and names. The versions before it stay, and the checks use
// the newest.
func (s *Service) SetBanlist(ctx context.Context, a Actor, id string, in BanlistInput) (*BanlistHistory, error) {
	shipped, err := s.documentBanlist(id)
	if err != nil {
		return nil, err
	}
	b := format.Banlist{ID: id}
	for _, c := range in.Categories {
		if !slices.Contains(format.Categories, c) {
			return nil, domain.Errorf(domain.ErrInvalid, "%q is not a category of banned cards; the categories are %s (F6)", c, strings.Join(format.Categories, ", "))
		}
		if !slices.Contains(b.Categories, c) {
			b.Categories = append(b.Categories, c)
		}
	}
	b.Categories = nonNil(b.Categories)
	if b.Names, err = cleanNames(in.Names, "names"); err != nil {
		return nil, err
	}
	if b.Offensive, err = cleanNames(in.Offensive, "offensive names"); err != nil {
		return nil, err
	}
	var out *BanlistHistory
	err = s.store.Write(ctx, func(tx Tx) error {
		x := access{actor: a}
		if err := x.need("edit the banned lists (admins only)", mayEditBanlists(x)); err != nil {
			return err
		}
		vs, err := tx.BanlistVersions()
		if err != nil {
			return err
		}
		cur := banlistView(shipped, vs)
		b.Title, b.Published = cmp.Or(strings.TrimSpace(in.Title), cur.Title), cmp.Or(strings.TrimSpace(in.Published), cur.Published)
		v := &BanlistVersion{List: id, Version: cur.Version + 1, Banlist: b, By: a.Name(), At: s.now(), Reason: strings.TrimSpace(in.Reason)}
		if err := tx.AddBanlistVersion(v); err != nil {
			return err
		}
		out = banlistHistory(shipped, append(vs, *v))
		return s.audit(tx, 0, a, "banlist.set", "saved version %d of the banned list %s: %d names, categories %s", v.Version, id, len(b.Names), strings.Join(b.Categories, ", "))
	})
	if err != nil {
		return nil, err
	}
	if cat, err := s.DeckCatalogue(ctx); err == nil {
		for _, n := range append(slices.Clone(b.Names), b.Offensive...) {
			if !cat.Cards.Has(n) {
				out.Unknown = append(out.Unknown, n)
			}
		}
	}
	return out, nil
}

package store

// This file holds the store's part for the card formats (issue 19): campaign.FormatsReader and
// campaign.FormatsWriter — banned lists' versions, corrections of the every-card data, leagues,
// matches and their events.

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

type banlistVersionRow struct {
	ID      int64 `gorm:"primaryKey"`
	List    string
	Version int
	Banlist string
	Reason  string
	ByName  string
	At      time.Time
}

func (banlistVersionRow) TableName() string { return "banlist_versions" }

type leagueRow struct {
	ID       int64 `gorm:"primaryKey"`
	Name     string
	NameKey  string
	Format   string
	Revision string
	ByName   string
	At       time.Time
}

func (leagueRow) TableName() string { return "leagues" }

func (r *leagueRow) model() campaign.League {
	return campaign.League{ID: r.ID, Name: r.Name, Format: r.Format, Revision: r.Revision, By: r.ByName, At: r.At.UTC()}
}

type matchRow struct {
	ID        int64 `gorm:"primaryKey"`
	LeagueID  *int64
	Format    string
	Revision  string
	Players   string
	Options   string
	Version   int64
	Finished  bool
	Result    string
	ByName    string
	CreatedAt time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt time.Time `gorm:"autoUpdateTime:false"`
}

func (matchRow) TableName() string { return "matches" }

func (r *matchRow) model() (campaign.MatchRecord, error) {
	m := campaign.MatchRecord{ID: r.ID, Format: r.Format, Revision: r.Revision, Version: r.Version, Over: r.Finished, Result: r.Result,
		By: r.ByName, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
	if r.LeagueID != nil {
		m.LeagueID = *r.LeagueID
	}
	if err := json.Unmarshal([]byte(r.Players), &m.Players); err != nil {
		return m, fmt.Errorf("match %d's players: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(r.Options), &m.Options); err != nil {
		return m, fmt.Errorf("match %d's options: %w", r.ID, err)
	}
	return m, nil
}

type matchEventRow struct {
	MatchID  int64 `gorm:"primaryKey;autoIncrement:false"`
	Seq      int   `gorm:"primaryKey;autoIncrement:false"`
	Game     int
	Event    string
	Says     string
	ByName   string
	At       time.Time
	UndoneBy string
	UndoneAt *time.Time
}

func (matchEventRow) TableName() string { return "match_events" }

func (t *txn) BanlistVersions() ([]campaign.BanlistVersion, error) {
	var rows []banlistVersionRow
	if err := t.db.Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.BanlistVersion, len(rows))
	for i, r := range rows {
		v := campaign.BanlistVersion{ID: r.ID, List: r.List, Version: r.Version, Reason: r.Reason, By: r.ByName, At: r.At.UTC()}
		if err := json.Unmarshal([]byte(r.Banlist), &v.Banlist); err != nil {
			return nil, fmt.Errorf("version %d of the banned list %s: %w", r.Version, r.List, err)
		}
		out[i] = v
	}
	return out, nil
}

func (t *txn) AddBanlistVersion(v *campaign.BanlistVersion) error {
	body, err := json.Marshal(v.Banlist)
	if err != nil {
		return err
	}
	r := &banlistVersionRow{List: v.List, Version: v.Version, Banlist: string(body), Reason: v.Reason, ByName: v.By, At: v.At}
	if err := t.db.Create(r).Error; err != nil {
		return translate(err, fmt.Sprintf("version %d of the banned list %s", v.Version, v.List))
	}
	v.ID = r.ID
	return nil
}

func (t *txn) DeckCardCorrections() ([]campaign.CardCorrection, error) {
	return t.cardCorrections("deck_cards", "correction of the every-card data")
}

func (t *txn) PutDeckCardCorrection(c *campaign.CardCorrection) error {
	return t.putCardCorrection("deck_cards", c)
}

func (t *txn) Leagues() ([]campaign.League, error) {
	var rows []leagueRow
	if err := t.db.Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.League, len(rows))
	for i := range rows {
		out[i] = rows[i].model()
	}
	return out, nil
}

func (t *txn) League(id int64) (*campaign.League, error) {
	var r leagueRow
	if err := t.db.Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("league %d", id))
	}
	l := r.model()
	return &l, nil
}

func (t *txn) CreateLeague(l *campaign.League) error {
	r := &leagueRow{Name: l.Name, NameKey: domain.NameKey(l.Name), Format: l.Format, Revision: l.Revision, ByName: l.By, At: l.At}
	if err := t.db.Create(r).Error; err != nil {
		return translate(err, fmt.Sprintf("a league named %q", l.Name))
	}
	l.ID = r.ID
	return nil
}

func (t *txn) Matches(league int64, limit int) ([]campaign.MatchRecord, error) {
	q := t.db.Order("id DESC").Limit(limit)
	if league != 0 {
		q = q.Where("league_id = ?", league)
	}
	var rows []matchRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.MatchRecord, len(rows))
	for i := range rows {
		m, err := rows[i].model()
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}

func (t *txn) Match(id int64) (*campaign.MatchRecord, error) {
	var r matchRow
	if err := t.db.Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, translate(err, fmt.Sprintf("match %d", id))
	}
	m, err := r.model()
	return &m, err
}

func (t *txn) CreateMatch(m *campaign.MatchRecord) error {
	players, err := json.Marshal(m.Players)
	if err != nil {
		return err
	}
	opts, err := json.Marshal(m.Options)
	if err != nil {
		return err
	}
	r := &matchRow{Format: m.Format, Revision: m.Revision, Players: string(players), Options: string(opts), Version: m.Version,
		Finished: m.Over, Result: m.Result, ByName: m.By, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
	if m.LeagueID != 0 {
		r.LeagueID = &m.LeagueID
	}
	if err := t.db.Create(r).Error; err != nil {
		return translate(err, "the match")
	}
	m.ID = r.ID
	return nil
}

func (t *txn) UpdateMatch(m *campaign.MatchRecord, prev int64) (bool, error) {
	res := t.db.Model(&matchRow{}).Where("id = ? AND version = ?", m.ID, prev).
		Updates(map[string]any{"version": m.Version, "finished": m.Over, "result": m.Result, "updated_at": m.UpdatedAt})
	return res.RowsAffected == 1, res.Error
}

func (t *txn) MatchEvents(id int64) ([]campaign.MatchEvent, error) {
	var rows []matchEventRow
	if err := t.db.Where("match_id = ?", id).Order("seq").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]campaign.MatchEvent, len(rows))
	for i, r := range rows {
		e := campaign.MatchEvent{MatchID: r.MatchID, Seq: r.Seq, Game: r.Game, Says: r.Says, By: r.ByName, At: r.At.UTC(), UndoneBy: r.UndoneBy}
		if r.UndoneAt != nil {
			at := r.UndoneAt.UTC()
			e.UndoneAt = &at
		}
		if err := json.Unmarshal([]byte(r.Event), &e.Event); err != nil {
			return nil, fmt.Errorf("event %d of match %d: %w", r.Seq, id, err)
		}
		out[i] = e
	}
	return out, nil
}

func (t *txn) AddMatchEvent(e *campaign.MatchEvent) error {
	body, err := json.Marshal(e.Event)
	if err != nil {
		return err
	}
	r := &matchEventRow{MatchID: e.MatchID, Seq: e.Seq, Game: e.Game, Event: string(body), Says: e.Says, ByName: e.By, At: e.At}
	if err := t.db.Create(r).Error; err != nil {
		return translate(err, fmt.Sprintf("event %d of match %d", e.Seq, e.MatchID))
	}
	return nil
}

func (t *txn) UndoMatchEvent(id int64, seq int, by string, at time.Time) error {
	res := t.db.Model(&matchEventRow{}).Where("match_id = ? AND seq = ? AND undone_at IS NULL", id, seq).
		Updates(map[string]any{"undone_by": by, "undone_at": at})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return domain.Errorf(domain.ErrConflict, "event %d of match %d is undone already", seq, id)
	}
	return nil
}

// The store port's part for the mercenary AI (chapter 6) and the after-lock edit (6.3.2), which
// package store implements with the rest of Reader and Tx.

package campaign

// MercenaryReader is what the mercenary AI and the after-lock edit read from a store.
type MercenaryReader interface {
	// MercenarySettings returns a campaign's mercenary settings, or domain.ErrNotFound when
	// none are stored.
	MercenarySettings(campaign int64) (*MercenarySettings, error)
	// MercenaryHistory lists the engagements recorded for the turns before turn n (an imported
	// scenario's own history is recorded as turn 0's), in the order of their turns.
	MercenaryHistory(campaign int64, n int) ([]Engagement, error)
	// PlanLines returns, by post id, the lines of the turn's posts made from the mercenary AI's
	// plan (PostPlan).
	PlanLines(campaign int64, turn int) (map[int64][]PlanLine, error)
	// EditWindows lists the turns whose after-lock edit window is open, LockAt being the time
	// it closes at the latest.
	EditWindows() ([]OpenTurn, error)
}

// MercenaryWriter is what they write.
type MercenaryWriter interface {
	// PutMercenarySettings stores a campaign's mercenary settings, replacing earlier ones.
	PutMercenarySettings(s *MercenarySettings) error
	// AddMercenaryHistory records the engagements of turn n's lock; twice for a turn is a
	// conflict.
	AddMercenaryHistory(campaign int64, n int, e []Engagement) error
	// PutPlanLines records the lines of a post made from the plan.
	PutPlanLines(post int64, lines []PlanLine) error
	// PublishTurn stores the report of a turn whose after-lock edit window closes, with how it
	// closed (Turn.Edit), in one conditional update; it reports false when the turn was not
	// waiting for its edit (a window closes once, ever).
	PublishTurn(t *Turn) (bool, error)
}

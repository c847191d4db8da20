// Votes (1.4): a normal vote, every player with 3, 2 or 1 voting points by rank (1.4.1); a
// leader vote, the CP/General and the Praetors/Admirals with 1 point each (1.4.2); a special vote,
// the voters and points its caller names (1.4.3). One ballot a voter, changed as often as he
// likes until the vote closes; the results give the points of each option; who voted what is
// shown or kept secret as the caller chose.

package campaign

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// The bounds of a vote.
const (
	MaxVoteOptions = 10
	MaxVoteLength  = 60 * 24 * time.Hour
)

// VoterInput is a voter of a special vote as its caller names him, with his points (1 when
// left out, 1.4.3).
type VoterInput struct {
	Name   string `json:"name"`
	Points int    `json:"points"`
}

// VoteInput is a vote as its caller puts it: the system, the side it is put to (none: both),
// the question and its options, when it closes, whether it is secret, and a special vote's
// voters.
type VoteInput struct {
	Kind     VoteKind     `json:"kind"`
	Side     domain.Side  `json:"side"`
	Question string       `json:"question"`
	Options  []string     `json:"options"`
	ClosesAt time.Time    `json:"closes_at"`
	Secret   bool         `json:"secret"`
	Voters   []VoterInput `json:"voters"`
}

// OptionResult is the points and ballots an option got.
type OptionResult struct {
	Option  string `json:"option"`
	Points  int    `json:"points"`
	Ballots int    `json:"ballots"`
}

// BallotView is who voted what, in an open vote.
type BallotView struct {
	Voter  string    `json:"voter"`
	Choice string    `json:"choice"`
	Points int       `json:"points"`
	At     time.Time `json:"at"`
}

// VoteView is a vote as its reader sees it: the results when they may be shown (always in an
// open vote, after the close in a secret one), the ballots in an open vote, his own ballot and
// whether and with how many points he may vote.
type VoteView struct {
	Vote
	Closed     bool           `json:"closed"`
	Cast       int            `json:"cast"`
	Electorate []Voter        `json:"electorate"`
	Results    []OptionResult `json:"results,omitempty"`
	Ballots    []BallotView   `json:"ballots,omitempty"`
	Mine       *Ballot        `json:"mine,omitempty"`
	MayVote    bool           `json:"may_vote"`
	MyPoints   int            `json:"my_points,omitempty"`
}

// points is what m's ballot weighs in vote v, 0 when he may not vote in it (1.4).
func points(v *Vote, m *Member) int {
	if m == nil || !m.Plays() || (v.Side != "" && m.Side != v.Side) {
		if v.Kind != SpecialVote {
			return 0
		}
	}
	switch v.Kind {
	case NormalVote:
		switch m.Rank {
		case domain.General:
			return 3
		case domain.Admiral:
			return 2
		}
		return 1
	case LeaderVote:
		if m.Rank == domain.General || m.Rank == domain.Admiral {
			return 1
		}
		return 0
	}
	for _, w := range v.Voters {
		if m != nil && w.AccountID == m.AccountID {
			return w.Points
		}
	}
	return 0
}

// CallVote puts a question to a vote (1.4): a team leader to his side, a movement or battle
// judge to either side or to both.
func (s *Service) CallVote(ctx context.Context, a Actor, id int64, in VoteInput) (*VoteView, error) {
	var out *VoteView
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if in.Side != "" && !in.Side.IsTeam() {
			return domain.Errorf(domain.ErrInvalid, "%q is not a side: coalition, phyrexia, or none for a vote of both sides", in.Side)
		}
		what := "call a vote of " + pick(in.Side == "", "both sides", in.Side.Title()) + " (a side's team leaders for their side, the judges for any, 1.4)"
		if err := x.need(what, mayCallVote(x, in.Side)); err != nil {
			return err
		}
		now := s.now()
		v := &Vote{CampaignID: id, Kind: in.Kind, Side: in.Side, Question: strings.TrimSpace(in.Question), Secret: in.Secret, ClosesAt: in.ClosesAt.UTC().Truncate(time.Microsecond), By: a.Name(), At: now}
		if err := checkVote(v, in, now); err != nil {
			return err
		}
		tm, err := loadTeam(tx, id, now)
		if err != nil {
			return err
		}
		for _, w := range in.Voters {
			m := tm.member(w.Name)
			switch {
			case in.Kind != SpecialVote:
				return domain.Errorf(domain.ErrInvalid, "only a special vote names its voters (1.4.3): a %s vote's voters are set by the rules", in.Kind)
			case m == nil || !m.Plays() || (in.Side != "" && m.Side != in.Side):
				return domain.Errorf(domain.ErrInvalid, "%q is not a player of %s", w.Name, pick(in.Side == "", "this campaign", in.Side.Title()))
			case slices.ContainsFunc(v.Voters, func(o Voter) bool { return o.AccountID == m.AccountID }):
				return domain.Errorf(domain.ErrInvalid, "%s is named twice", m.Name)
			case w.Points < 0 || w.Points > 10:
				return domain.Errorf(domain.ErrInvalid, "%s's voting points are %d: from 1 to 10 (1 when left out, 1.4.3)", m.Name, w.Points)
			}
			v.Voters = append(v.Voters, Voter{AccountID: m.AccountID, Name: m.Name, Points: max(w.Points, 1)})
		}
		if in.Kind == SpecialVote && len(v.Voters) == 0 {
			return domain.Errorf(domain.ErrInvalid, "a special vote names who votes (1.4.3)")
		}
		if err := tx.AddVote(v); err != nil {
			return err
		}
		out = tm.viewVote(x, v, nil)
		return s.audit(tx, id, a, "vote.call", "called a %s vote of %s until %s: %s", v.Kind, pick(v.Side == "", "both sides", v.Side.Title()), v.ClosesAt.Format(time.RFC3339), v.Question)
	})
	return out, err
}

// checkVote checks a vote's system, question, options and closing time.
func checkVote(v *Vote, in VoteInput, now time.Time) error {
	switch in.Kind {
	case NormalVote, LeaderVote, SpecialVote:
	default:
		return domain.Errorf(domain.ErrInvalid, "%q is not a voting system: normal (1.4.1), leader (1.4.2) or special (1.4.3)", in.Kind)
	}
	if err := checkText("question", v.Question, 500, true); err != nil {
		return err
	}
	if len(in.Options) < 2 || len(in.Options) > MaxVoteOptions {
		return domain.Errorf(domain.ErrInvalid, "a vote has from 2 to %d options, not %d", MaxVoteOptions, len(in.Options))
	}
	for _, o := range in.Options {
		o = strings.TrimSpace(o)
		if err := checkText("option", o, 100, true); err != nil {
			return err
		}
		if slices.ContainsFunc(v.Options, func(p string) bool { return domain.SameName(p, o) }) {
			return domain.Errorf(domain.ErrInvalid, "the option %q is given twice", o)
		}
		v.Options = append(v.Options, o)
	}
	if !v.ClosesAt.After(now) || v.ClosesAt.Sub(now) > MaxVoteLength {
		return domain.Errorf(domain.ErrInvalid, "a vote closes after it is called and within %d days", int(MaxVoteLength.Hours()/24))
	}
	return nil
}

// viewVote is v as x sees it, with its ballots (nil: none cast yet).
func (tm *team) viewVote(x access, v *Vote, ballots []Ballot) *VoteView {
	out := &VoteView{Vote: *v, Closed: !tm.now.Before(v.ClosesAt), Cast: len(ballots), Electorate: []Voter{}}
	out.Voters = nil
	for i := range tm.members {
		m := &tm.members[i]
		if p := points(v, m); p > 0 {
			out.Electorate = append(out.Electorate, Voter{Name: m.Name, Points: p})
		}
	}
	me := (*Member)(nil)
	if x.actor.Account != nil {
		me = tm.memberByID(x.actor.Account.ID)
	}
	out.MyPoints = points(v, me)
	out.MayVote = out.MyPoints > 0 && !out.Closed
	if out.Closed || maySeeBallots(v) {
		out.Results = make([]OptionResult, len(v.Options))
		for i, o := range v.Options {
			out.Results[i].Option = o
		}
	}
	for _, b := range ballots {
		if me != nil && b.AccountID == me.AccountID {
			mine := b
			out.Mine = &mine
		}
		if out.Results != nil {
			if i := slices.Index(v.Options, b.Choice); i >= 0 {
				out.Results[i].Points += b.Points
				out.Results[i].Ballots++
			}
		}
		if maySeeBallots(v) {
			name := "?"
			if m := tm.memberByID(b.AccountID); m != nil {
				name = m.Name
			}
			out.Ballots = append(out.Ballots, BallotView{Voter: name, Choice: b.Choice, Points: b.Points, At: b.At})
		}
	}
	return out
}

// Votes lists the votes the actor may see, newest first.
func (s *Service) Votes(ctx context.Context, a Actor, id int64) ([]VoteView, error) {
	out := []VoteView{}
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		tm, err := loadTeam(r, id, s.now())
		if err != nil {
			return err
		}
		vs, err := r.Votes(id)
		if err != nil {
			return err
		}
		for i := len(vs) - 1; i >= 0; i-- {
			v := &vs[i]
			if !maySeeVote(x, v) {
				continue
			}
			bs, err := r.Ballots(v.ID)
			if err != nil {
				return err
			}
			out = append(out, *tm.viewVote(x, v, bs))
		}
		return nil
	})
	return out, err
}

// findVote is vote vid of the campaign as x may see it.
func findVote(r Reader, x access, id, vid int64) (*Vote, error) {
	vs, err := r.Votes(id)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(vs, func(v Vote) bool { return v.ID == vid })
	if i < 0 || !maySeeVote(x, &vs[i]) {
		return nil, domain.Errorf(domain.ErrNotFound, "there is no vote %d you may see", vid)
	}
	return &vs[i], nil
}

// VoteOf shows one vote.
func (s *Service) VoteOf(ctx context.Context, a Actor, id, vid int64) (*VoteView, error) {
	var out *VoteView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		v, err := findVote(r, x, id, vid)
		if err != nil {
			return err
		}
		tm, err := loadTeam(r, id, s.now())
		if err != nil {
			return err
		}
		bs, err := r.Ballots(vid)
		out = tm.viewVote(x, v, bs)
		return err
	})
	return out, err
}

// CastBallot records the actor's ballot in a vote, replacing his earlier one, until the vote
// closes; it weighs the points his rank gives him now (1.4).
func (s *Service) CastBallot(ctx context.Context, a Actor, id, vid int64, choice string) (*VoteView, error) {
	var out *VoteView
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.needLogin(); err != nil {
			return err
		}
		v, err := findVote(tx, x, id, vid)
		if err != nil {
			return err
		}
		now := s.now()
		tm, err := loadTeam(tx, id, now)
		if err != nil {
			return err
		}
		if !now.Before(v.ClosesAt) {
			return domain.Errorf(domain.ErrConflict, "the vote closed at %s: ballots are no longer taken", v.ClosesAt.Format("Mon 2 Jan 2006 15:04 UTC"))
		}
		me := tm.memberByID(x.actor.Account.ID)
		p := points(v, me)
		if err := x.need("vote in this "+string(v.Kind)+" vote ("+voters(v)+")", p > 0); err != nil {
			return err
		}
		i := slices.IndexFunc(v.Options, func(o string) bool { return domain.SameName(o, choice) })
		if i < 0 {
			return domain.Errorf(domain.ErrInvalid, "%q is not an option of this vote: choose one of %s", choice, strings.Join(v.Options, ", "))
		}
		if err := tx.PutBallot(&Ballot{VoteID: vid, AccountID: me.AccountID, Choice: v.Options[i], Points: p, At: now}); err != nil {
			return err
		}
		bs, err := tx.Ballots(vid)
		if err != nil {
			return err
		}
		out = tm.viewVote(x, v, bs)
		return s.audit(tx, id, a, "vote.ballot", "voted in vote %d", vid)
	})
	return out, err
}

// voters says in words who votes in v.
func voters(v *Vote) string {
	who := pick(v.Side == "", "players", v.Side.Title()+"'s players")
	switch v.Kind {
	case LeaderVote:
		return "only the CP/General and the Praetors/Admirals of " + pick(v.Side == "", "either side", v.Side.Title()) + " vote, 1.4.2"
	case SpecialVote:
		return "only the voters its caller named vote, 1.4.3"
	}
	return "every one of " + who + " votes, 1.4.1"
}

package domain

// BattleResult is the battle judge's result for one battle fought this turn (B1–B10).
type BattleResult struct {
	Square Square `json:"square"`
	// Winner names any army of the winning side; empty when nobody won (B2).
	Winner string `json:"winner,omitempty"`
	// Losses are the troops each army lost: army → creature → count (B7).
	Losses map[string]map[string]int `json:"losses,omitempty"`
	// LoserTo is where the judge pushes the loser; zero means at random (B8).
	LoserTo Square   `json:"loser_to,omitzero"`
	Kill    *Attempt `json:"kill,omitempty"`
	Capture *Attempt `json:"capture,omitempty"`
	// Leaves is which army of a winning pair leaves the square, and where (4.4, B10).
	Leaves *Leave `json:"leaves,omitempty"`
}

// Attempt is a kill (4.3) or capture (4.5) attempt and how it went.
type Attempt struct {
	By      string `json:"by"`
	Target  string `json:"target"`
	Success bool   `json:"success"`
	// RiskedLost is how many of the risked troops died (4.3.3).
	RiskedLost int `json:"risked_lost,omitempty"`
}

// Leave is the army of a winning pair that leaves the square, and its square (B10).
type Leave struct {
	Army string `json:"army"`
	To   Square `json:"to,omitzero"`
}

// Package battle is the battle judge's rule engine: it settles the battles fought in a turn
// from the judge's results (B2, B8–B10, 4.3–4.5), carries out transfers (T3), counts days,
// heals (D1–D5), destroys bases (D7) and decides the round (D8). It also rolls verifiable dice
// (B5, B6) and evaluates the server's secret formulas (B3, B7). It imports only domain and
// the standard library.
package battle

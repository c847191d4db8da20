package domain

import (
	"errors"
	"fmt"
)

// Sentinel errors that the API maps to HTTP statuses in one place.
var (
	// ErrNotFound means the thing asked for does not exist (or the caller may not know it does).
	ErrNotFound = errors.New("not found")
	// ErrInvalid means the request itself is malformed or breaks a rule of the game.
	ErrInvalid = errors.New("invalid")
	// ErrForbidden means the caller is known but may not do this.
	ErrForbidden = errors.New("forbidden")
	// ErrUnauthorized means the caller is not authenticated.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrConflict means the request clashes with the current state (already locked, name taken).
	ErrConflict = errors.New("conflict")
)

// Errorf wraps a sentinel with a message meant for the person who caused it.
func Errorf(sentinel error, format string, args ...any) error {
	return &Error{Kind: sentinel, Message: fmt.Sprintf(format, args...)}
}

// Error is an error with a sentinel kind and a message a player or judge can read.
type Error struct {
	Kind    error
	Message string
}

func (e *Error) Error() string { return e.Message }

// Unwrap lets errors.Is find the sentinel.
func (e *Error) Unwrap() error { return e.Kind }

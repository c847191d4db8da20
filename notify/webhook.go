// Webhooks: the event as signed JSON (X-Coalition-Signature: sha256=HMAC-SHA256 of
// "timestamp.body" with the subscription's secret), or as a Discord webhook message.

package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/campaign"
)

// Payload is the JSON a webhook of format "json" receives.
type Payload struct {
	// Delivery identifies this delivery: a receiver that gets it twice (a retry after a lost
	// answer) may drop the second.
	Delivery int64        `json:"delivery"`
	Account  string       `json:"account"`
	Event    PayloadEvent `json:"event"`
}

// PayloadEvent is the event in a webhook's payload.
type PayloadEvent struct {
	ID       int64              `json:"id"`
	Kind     campaign.EventKind `json:"kind"`
	Campaign PayloadCampaign    `json:"campaign"`
	Turn     int                `json:"turn"`
	At       time.Time          `json:"at"`
	Title    string             `json:"title"`
	Body     string             `json:"body"`
	Link     string             `json:"link"`
}

// PayloadCampaign names the event's campaign.
type PayloadCampaign struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// The headers of a webhook request.
const (
	HeaderEvent     = "X-Coalition-Event"
	HeaderDelivery  = "X-Coalition-Delivery"
	HeaderTimestamp = "X-Coalition-Timestamp"
	HeaderSignature = "X-Coalition-Signature"
)

// Sign is the signature header's value for a body sent at a timestamp (Unix seconds).
func Sign(secret string, timestamp int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "%d.", timestamp)
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// Verify checks a signature header against a body and timestamp, in constant time.
func Verify(secret string, timestamp int64, body []byte, signature string) bool {
	return hmac.Equal([]byte(Sign(secret, timestamp, body)), []byte(signature))
}

func (s *Sender) webhook(ctx context.Context, o campaign.Outgoing) error {
	var body []byte
	var err error
	if o.Delivery.Format == "discord" {
		body, err = json.Marshal(discord(o, s.link(o)))
	} else {
		body, err = json.Marshal(Payload{Delivery: o.Delivery.ID, Account: o.Account, Event: PayloadEvent{ID: o.Event.ID, Kind: o.Event.Kind,
			Campaign: PayloadCampaign{ID: o.Event.CampaignID, Name: o.Campaign}, Turn: o.Event.Turn, At: o.Event.At, Title: o.Event.Title, Body: o.Event.Body, Link: s.link(o)}})
	}
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.Delivery.Target, bytes.NewReader(body))
	if err != nil {
		return err
	}
	ts := s.opt.Clock().Unix()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "coalition-wargame")
	req.Header.Set(HeaderEvent, string(o.Event.Kind))
	req.Header.Set(HeaderDelivery, strconv.FormatInt(o.Delivery.ID, 10))
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(HeaderSignature, Sign(o.Secret, ts, body))
	res, err := s.opt.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("the webhook answered %s", res.Status)
	}
	return nil
}

// discordMessage is a Discord webhook's message: a line of content and one embed.
type discordMessage struct {
	Username        string         `json:"username"`
	Content         string         `json:"content"`
	Embeds          []discordEmbed `json:"embeds"`
	AllowedMentions struct {
		Parse []string `json:"parse"`
	} `json:"allowed_mentions"`
}

type discordEmbed struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	URL         string `json:"url"`
	Timestamp   string `json:"timestamp"`
}

// discord words an event as Discord's webhooks take it: the title as content, the body in an
// embed (cut to Discord's limits: 2,000 characters of content, 256 of title, 4,096 of
// description), no mentions.
func discord(o campaign.Outgoing, link string) discordMessage {
	m := discordMessage{Username: "Coalition Wargame", Content: cut(o.Event.Title, 2000),
		Embeds: []discordEmbed{{Title: cut(o.Campaign, 256), Description: cut("```\n"+o.Event.Body+"\n```", 4096), URL: link, Timestamp: o.Event.At.UTC().Format(time.RFC3339)}}}
	m.AllowedMentions.Parse = []string{}
	return m
}

// cut shortens s to at most n characters, marking the cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

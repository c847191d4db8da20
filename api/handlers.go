package api

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/scenario"
)

func campaignID(c echo.Context) (int64, error) {
	v, _ := param(c, "cid")
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 1 {
		return 0, badRequest("%q is not a campaign id", c.Param("cid"))
	}
	return id, nil
}

func turnParams(c echo.Context) (int64, int, error) {
	id, err := campaignID(c)
	if err != nil {
		return 0, 0, err
	}
	v, _ := param(c, "n")
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, 0, badRequest("%q is not a turn number", c.Param("n"))
	}
	return id, n, nil
}

func postParams(c echo.Context) (int64, int64, error) {
	id, err := campaignID(c)
	if err != nil {
		return 0, 0, err
	}
	v, _ := param(c, "pid")
	pid, err := strconv.ParseInt(v, 10, 64)
	if err != nil || pid < 1 {
		return 0, 0, badRequest("%q is not a post id", c.Param("pid"))
	}
	return id, pid, nil
}

func limit(c echo.Context) int {
	n, _ := strconv.Atoi(c.QueryParam("limit"))
	return n
}

// turnRead serves a GET of one turn of a campaign (/api/campaigns/:cid/turns/:n…): it binds
// the campaign and turn, asks the service as the caller, and replies.
func turnRead[T any](read func(context.Context, campaign.Actor, int64, int) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, n, err := turnParams(c)
		if err != nil {
			return err
		}
		out, err := read(c.Request().Context(), actor(c), id, n)
		return reply(c, http.StatusOK, out, err)
	}
}

// campaignRead serves a GET of one campaign (/api/campaigns/:cid/…): it binds the campaign,
// asks the service as the caller, and replies.
func campaignRead[T any](read func(context.Context, campaign.Actor, int64) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := campaignID(c)
		if err != nil {
			return err
		}
		out, err := read(c.Request().Context(), actor(c), id)
		return reply(c, http.StatusOK, out, err)
	}
}

// campaignWrite serves a change to one campaign with a JSON body: it binds the campaign and
// the body, asks the service as the caller, and replies with the status.
func campaignWrite[Req, T any](status int, write func(context.Context, campaign.Actor, int64, Req) (T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := campaignID(c)
		if err != nil {
			return err
		}
		var req Req
		if err := bind(c, &req); err != nil {
			return err
		}
		out, err := write(c.Request().Context(), actor(c), id, req)
		return reply(c, status, out, err)
	}
}

// public adapts a read open to every caller to campaignRead.
func public[T any](read func(context.Context, int64) (T, error)) func(context.Context, campaign.Actor, int64) (T, error) {
	return func(ctx context.Context, _ campaign.Actor, id int64) (T, error) { return read(ctx, id) }
}

// reasoned adapts a change whose only input is its recorded reason to campaignWrite.
func reasoned[T any](write func(context.Context, campaign.Actor, int64, string) (T, error)) func(context.Context, campaign.Actor, int64, reasonRequest) (T, error) {
	return func(ctx context.Context, a campaign.Actor, id int64, req reasonRequest) (T, error) {
		return write(ctx, a, id, req.Reason)
	}
}

// setControl changes an army's control list (5.2): who may order it from now on.
func (s *Server) setControl(ctx context.Context, a campaign.Actor, id int64, req controlRequest) (*campaign.ControlEntry, error) {
	return s.svc.SetControl(ctx, a, id, req.Army, req.Controllers, req.Reason)
}

// reply writes v as JSON with the status, or returns err.
func reply(c echo.Context, status int, v any, err error) error {
	if err != nil {
		return err
	}
	return c.JSON(status, v)
}

type loginRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

type tokenReply struct {
	Token     string            `json:"token"`
	TokenType string            `json:"token_type"`
	ExpiresAt time.Time         `json:"expires_at"`
	Account   *campaign.Account `json:"account"`
}

func (s *Server) login(c echo.Context) error {
	var req loginRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	ip := c.RealIP()
	try, err := s.reserveLogin(c, ip, nameKey(req.Name))
	if err != nil {
		s.opt.Log.Warn("login throttled", "name", req.Name, "ip", ip)
		return err
	}
	acc, err := s.svc.Login(c.Request().Context(), req.Name, req.Password)
	if err != nil {
		if !errors.Is(err, domain.ErrUnauthorized) {
			try.release()
		}
		s.opt.Log.Info("login refused", "name", req.Name, "ip", ip)
		return err
	}
	try.release()
	tok, exp, err := s.auth.issue(acc)
	return reply(c, http.StatusOK, tokenReply{Token: tok, TokenType: "Bearer", ExpiresAt: exp, Account: acc}, err)
}

func (s *Server) me(c echo.Context) error {
	me, err := s.svc.Memberships(c.Request().Context(), actor(c))
	return reply(c, http.StatusOK, me, err)
}

type passwordChange struct {
	Old string `json:"old"`
	New string `json:"new"`
}

func (s *Server) changePassword(c echo.Context) error {
	var req passwordChange
	if err := bind(c, &req); err != nil {
		return err
	}
	if err := s.svc.ChangePassword(c.Request().Context(), actor(c), req.Old, req.New); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) listAccounts(c echo.Context) error {
	out, err := s.svc.Accounts(c.Request().Context(), actor(c))
	return reply(c, http.StatusOK, out, err)
}

type newAccountRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	Admin    bool   `json:"admin"`
}

func (s *Server) createAccount(c echo.Context) error {
	var req newAccountRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.CreateAccount(c.Request().Context(), actor(c), req.Name, req.Password, req.Admin)
	return reply(c, http.StatusCreated, out, err)
}

func (s *Server) serverAudit(c echo.Context) error {
	out, err := s.svc.Audit(c.Request().Context(), actor(c), 0, limit(c))
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) listCampaigns(c echo.Context) error {
	out, err := s.svc.Campaigns(c.Request().Context())
	return reply(c, http.StatusOK, out, err)
}

// memberInput is a member as a request gives it.
type memberInput struct {
	Name        string          `json:"name"`
	Roles       []campaign.Role `json:"roles"`
	Side        domain.Side     `json:"side"`
	Rank        domain.Rank     `json:"rank"`
	Factions    []domain.Color  `json:"factions"`
	RankFaction domain.Color    `json:"rank_faction"`
	Contingency string          `json:"contingency"`
	Assists     string          `json:"assists"`
}

func (m memberInput) member() campaign.Member {
	return campaign.Member{Name: m.Name, Roles: m.Roles, Side: m.Side, Rank: m.Rank, Factions: m.Factions, RankFaction: m.RankFaction, Contingency: m.Contingency, Assists: m.Assists}
}

// settingsInput is a new campaign's timing in hours; a setting absent or 0 takes its default
// (campaign.DefaultSettings: 24, 168, 72), so 0 cannot switch one off; any other value must lie
// in its bounds (campaign.Settings.Check, R95; openapi.yaml's SettingsInput).
type settingsInput struct {
	LockDelayHours    float64 `json:"lock_delay_hours"`
	TurnLengthHours   float64 `json:"turn_length_hours"`
	ExtensionCapHours float64 `json:"extension_cap_hours"`
}

// hoursOf is h hours, saturated at the longest and shortest durations, so that a huge value
// is refused as out of range rather than wrapping around.
func hoursOf(h float64) time.Duration {
	ns := h * float64(time.Hour)
	switch {
	case ns >= math.MaxInt64:
		return math.MaxInt64
	case ns <= math.MinInt64:
		return math.MinInt64
	}
	return time.Duration(ns)
}

type campaignCreate struct {
	Name          string        `json:"name"`
	Map           *domain.Map   `json:"map"`
	Settings      settingsInput `json:"settings"`
	FirstDeadline time.Time     `json:"first_deadline"`
	Members       []memberInput `json:"members"`
}

func (s *Server) createCampaign(c echo.Context) error {
	var req campaignCreate
	if err := bind(c, &req); err != nil {
		return err
	}
	su := campaign.Setup{Name: req.Name, Map: req.Map, FirstDeadline: req.FirstDeadline,
		Settings: campaign.Settings{LockDelay: hoursOf(req.Settings.LockDelayHours), TurnLength: hoursOf(req.Settings.TurnLengthHours), ExtensionCap: hoursOf(req.Settings.ExtensionCapHours)}}
	for _, m := range req.Members {
		su.Members = append(su.Members, m.member())
	}
	out, err := s.svc.CreateCampaign(c.Request().Context(), actor(c), su)
	return reply(c, http.StatusCreated, out, err)
}

func (s *Server) importScenario(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err
	}
	sc, err := scenario.Parse(body)
	var fe *scenario.FormatError
	if errors.As(err, &fe) {
		// Valid JSON of the wrong shape, as the OpenAPI checks answer a body that does not fit.
		return badRequest("%s", fe)
	}
	if err != nil {
		return err
	}
	out, err := s.svc.CreateCampaign(c.Request().Context(), actor(c), SetupFromScenario(sc, c.QueryParam("name")))
	return reply(c, http.StatusCreated, out, err)
}

func (s *Server) setMember(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	var req memberInput
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Name != "" {
		return badRequest("the member's name goes in the path, not the body")
	}
	name, err := pathName(c, "name", "a name")
	if err != nil {
		return err
	}
	req.Name = name
	out, err := s.svc.SetMember(c.Request().Context(), actor(c), id, req.member())
	return reply(c, http.StatusOK, out, err)
}

type controlRequest struct {
	Army        string   `json:"army"`
	Controllers []string `json:"controllers"`
	Reason      string   `json:"reason"`
}

type reasonRequest struct {
	Reason string `json:"reason"`
}

func (s *Server) campaignAudit(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	out, err := s.svc.Audit(c.Request().Context(), actor(c), id, limit(c))
	return reply(c, http.StatusOK, out, err)
}

// postRequest reads a post; the service's order desk checks its structured orders.
func postRequest(c echo.Context) (campaign.PostRequest, error) {
	var req campaign.PostRequest
	err := bind(c, &req)
	return req, err
}

func (s *Server) createPost(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	req, err := postRequest(c)
	if err != nil {
		return err
	}
	answerPosts(c, http.StatusCreated)
	out, err := s.svc.Post(c.Request().Context(), actor(c), id, req)
	return reply(c, http.StatusCreated, out, err)
}

func (s *Server) checkPost(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	req, err := postRequest(c)
	if err != nil {
		return err
	}
	out, err := s.svc.CheckPost(c.Request().Context(), actor(c), id, req)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) editPost(c echo.Context) error {
	id, pid, err := postParams(c)
	if err != nil {
		return err
	}
	req, err := postRequest(c)
	if err != nil {
		return err
	}
	out, err := s.svc.EditPost(c.Request().Context(), actor(c), id, pid, req)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) withdrawPost(c echo.Context) error {
	id, pid, err := postParams(c)
	if err != nil {
		return err
	}
	out, err := s.svc.WithdrawPost(c.Request().Context(), actor(c), id, pid)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) getReportText(c echo.Context) error {
	id, n, err := turnParams(c)
	if err != nil {
		return err
	}
	out, err := s.svc.Report(c.Request().Context(), actor(c), id, n)
	if err != nil {
		return err
	}
	return c.String(http.StatusOK, out.Text)
}

func (s *Server) enterResult(c echo.Context) error {
	id, n, err := turnParams(c)
	if err != nil {
		return err
	}
	var req domain.BattleResult
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.EnterResult(c.Request().Context(), actor(c), id, n, req)
	return reply(c, http.StatusOK, out, err)
}

func (s *Server) lock(c echo.Context) error {
	id, n, err := turnParams(c)
	if err != nil {
		return err
	}
	var req reasonRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.Lock(c.Request().Context(), actor(c), id, n, req.Reason)
	if err == nil {
		s.opt.Log.Info("turn locked by a judge", "campaign", id, "turn", n, "by", actor(c).Name())
	}
	return reply(c, http.StatusOK, out, err)
}

type extendRequest struct {
	Hours  float64 `json:"hours"`
	Reason string  `json:"reason"`
}

func (s *Server) extend(c echo.Context) error {
	id, n, err := turnParams(c)
	if err != nil {
		return err
	}
	var req extendRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	out, err := s.svc.Extend(c.Request().Context(), actor(c), id, n, hoursOf(req.Hours), req.Reason)
	return reply(c, http.StatusOK, out, err)
}

// Rules 3.2.4, T1 and T2: checking a transfer order.

package movement

import "github.com/coalition-wargame/coalition/domain"

func (b *board) checkTransfer(l *Line, a *domain.Army, opt Options) {
	o := &l.Order
	t := b.army(o.Target)
	if t < 0 {
		l.reject(domain.CodeUnknownArmy, "there is no army named %q to transfer to", o.Target)
		return
	}
	r := &b.m.Armies[t]
	o.Target = r.Name
	switch {
	case !b.m.Grid.Contains(o.At):
		l.reject(domain.CodeOffMap, "%s is off the map (1.2)", o.At)
	case r == a || domain.Enemy(a.Side, r.Side):
		l.reject(domain.CodeTransferNotFriendly, "%s is not a friendly army of %s: troops go only to an adjacent friend (3.2.4.1)", r.Name, a.Name)
	case r.At != o.At:
		l.reject(domain.CodeTransferWrongSquare, "%s is on %s, not %s (3.2.4.2)", r.Name, r.At, o.At)
	case !domain.Adjacent(a.At, r.At):
		l.reject(domain.CodeTransferNotAdjacent, "%s on %s is not next to %s on %s: transfers need touching squares, corners included (3.2.4.1)", r.Name, r.At, a.Name, a.At)
	case b.m.SiteAt(a.At) != nil:
		l.reject(domain.CodeTransferFromSite, "%s is on %s: an army on a base, portal or town cannot send troops (3.2.4.1)", a.Name, b.m.SiteAt(a.At).Name)
	}
	if l.Rejection != nil {
		return
	}
	var detail map[string]int
	for _, d := range opt.Transfers {
		if d.Post == l.Post && domain.SameName(d.Army, a.Name) {
			detail = d.Creatures
		}
	}
	if detail == nil {
		l.warn("no private detail of which creatures to send was received: the transfer does nothing (3.2.4.2)")
		l.Warnings[len(l.Warnings)-1].Private = true // the public result never tells whether a detail was sent (T3)
		return
	}
	if code, msg := domain.TransferRoom(a, r, detail); code != "" {
		l.reject(code, "%s", msg)
		return
	}
	l.Creatures = detail
}
